# How the commands read the engine's protocol where the real engine cannot be made to misbehave on demand: a
# stand-in engine (a shell script named by EXCHSTORAGETEST_ENGINE) prints the events under test.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $Hello = '{"type":"hello","protocol":1,"engineVersion":"9.9.9"}'

    function New-StandInEngine {
        # Answers a plan request with a plan, and any other request with the given lines and exit code (-9: it kills
        # itself instead, a crash).
        param([string[]] $RunLines, [int] $RunExit, [string] $Stderr = '')
        $path = Join-Path $Dir ('engine-' + [guid]::NewGuid().ToString('N') + '.sh')
        $plan = '{"type":"plan","targetIops":1,"files":[]}'
        $text = "#!/bin/sh`nread request`ncase `"`$request`" in *'`"command`":`"plan`"'*) printf '%s\n' '$Hello' '$plan'; exit 0;; esac`n"
        foreach ($l in $RunLines) { $text += "printf '%s\n' '$l'`n" }
        if ($Stderr) { $text += "echo '$Stderr' >&2`n" }
        if ($RunExit -eq -9) { $text += "kill -9 `$`$`n" } else { $text += "exit $RunExit`n" }
        New-ExecutableScript -Path $path -Text $text
        $path
    }

    function Invoke-WithEngine([string] $Engine) {
        # The run with the stand-in; returns the terminating error (or $null), the output and the other errors.
        $env:EXCHSTORAGETEST_ENGINE = $Engine
        $caught = $null
        $errors = @()
        try {
            $output = @(New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $Dir | Invoke-StorageTest -Force -ErrorVariable errors -ErrorAction SilentlyContinue)
        }
        catch {
            $caught = $_
            $output = @()
        }
        finally {
            $env:EXCHSTORAGETEST_ENGINE = $null
        }
        [pscustomobject]@{ Terminating = $caught; Output = $output; Errors = @($errors) }
    }
}

Describe 'The engine protocol' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
    BeforeEach { $Dir = New-ScratchFolder 'proto' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'makes an error the engine went on after non-terminating, and the result still comes' {
        $engine = New-StandInEngine -RunExit 0 -RunLines @(
            $Hello,
            '{"type":"error","code":"ResultsWriteFailed","category":"WriteError","message":"Could not write the results file x: disk full","target":"x"}',
            '{"type":"result","testId":"t1","testType":"Performance","result":"Fail","completion":"Complete","reasons":[],"targetIops":1,"achievedIops":2}')
        $run = Invoke-WithEngine $engine
        $run.Terminating | Should -BeNullOrEmpty
        $run.Errors.Count | Should -Be 1
        $run.Errors[0].FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.ResultsWriteFailed,*'
        $run.Errors[0].CategoryInfo.Category | Should -Be 'WriteError'
        $run.Output.Count | Should -Be 1
        $run.Output[0].TestId | Should -Be 't1'
    }

    It 'makes the error that ends the engine terminating, with its code and category' {
        $engine = New-StandInEngine -RunExit 2 -RunLines @($Hello, '{"type":"error","code":"InsufficientSpace","category":"ResourceUnavailable","message":"needs 5 GB, 1 GB free","target":"/x"}')
        $run = Invoke-WithEngine $engine
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.InsufficientSpace,*'
        $run.Terminating.CategoryInfo.Category | Should -Be 'ResourceUnavailable'
        $run.Terminating.Exception.Message | Should -Be 'needs 5 GB, 1 GB free'
    }

    It 'reports an engine that fails without an error event as EngineFailed, with its stderr' {
        $run = Invoke-WithEngine (New-StandInEngine -RunExit 1 -RunLines @($Hello) -Stderr 'Unhandled exception: boom')
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineFailed,*'
        $run.Terminating.Exception.Message | Should -BeLike '*exited with code 1*'
        $run.Terminating.Exception.Message | Should -BeLike '*boom*'
    }

    It 'fails an engine that exits 0 without the result its run promises, as EngineFailed' {
        $run = Invoke-WithEngine (New-StandInEngine -RunExit 0 -RunLines @($Hello) -Stderr 'nothing to say')
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineFailed,*'
        $run.Terminating.Exception.Message | Should -BeLike "*code 0 without the 'result' event its run command promises*nothing to say*"
        $run.Output | Should -BeNullOrEmpty
    }

    It 'keeps the result that came before the engine was killed, and reports the loss beside it' {
        $engine = New-StandInEngine -RunExit -9 -Stderr 'last words' -RunLines @(
            $Hello,
            '{"type":"result","testId":"t2","testType":"Performance","result":"Pass","completion":"Complete","reasons":[],"targetIops":1,"achievedIops":2}')
        $run = Invoke-WithEngine $engine
        $run.Terminating | Should -BeNullOrEmpty
        $run.Output.Count | Should -Be 1
        $run.Output[0].TestId | Should -Be 't2'
        $run.Errors.Count | Should -Be 1
        $run.Errors[0].FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineExited,*'
        $run.Errors[0].Exception.Message | Should -BeLike '*signal 9 (SIGKILL)*last words*'
    }

    It 'fails an engine that goes silent past the heartbeat its hello promised, with its last stderr lines, and kills it' {
        $path = Join-Path $Dir 'engine-frozen.sh'
        # The stand-in becomes the sleep (exec), so the process the module started is the one that hangs.
        New-ExecutableScript -Path $path -Text ("#!/bin/sh`nread request`nprintf '%s\n' '{`"type`":`"hello`",`"protocol`":1,`"engineVersion`":`"9.9.9`",`"heartbeatSeconds`":0.5}'`n" +
            "echo 'first line' >&2`necho 'stuck here' >&2`nexec sleep 600`n")
        $clock = [System.Diagnostics.Stopwatch]::StartNew()
        $run = Invoke-WithEngine $path
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineNotResponding,*'
        $run.Terminating.Exception.Message | Should -BeLike "*process $($run.Terminating.TargetObject)*every 0.5 s*first line*stuck here*"
        $clock.Elapsed.TotalSeconds | Should -BeLessThan 60
        Get-Process -Id $run.Terminating.TargetObject -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
    }

    It 'refuses an engine of another protocol, naming both versions' {
        $path = Join-Path $Dir 'engine-v2.sh'
        New-ExecutableScript -Path $path -Text "#!/bin/sh`nread request`nprintf '%s\n' '{`"type`":`"hello`",`"protocol`":2,`"engineVersion`":`"2.0.0`"}'`n"
        $run = Invoke-WithEngine $path
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineProtocolMismatch,*'
        $run.Terminating.Exception.Message | Should -BeLike '*protocol 2*'
        $run.Terminating.Exception.Message | Should -BeLike '*protocol 1*'
    }

    It 'refuses an engine that never says hello' {
        $path = Join-Path $Dir 'engine-silent.sh'
        New-ExecutableScript -Path $path -Text "#!/bin/sh`nread request`necho 'not json'`nexit 1`n"
        $run = Invoke-WithEngine $path
        $run.Terminating.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineProtocolMismatch,*'
        $run.Terminating.Exception.Message | Should -BeLike '*no hello*'
    }
}
