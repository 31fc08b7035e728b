# The runner script Register-StorageTestTask writes, started as systemd starts it: the ExecStart line of the
# service unit, run by a real pwsh process. Its exit code says how the run ended (0 Pass, 1 Fail, 2 an error
# before any result, 3 stopped), the same as its log and the results file.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest

    function Register-LabTask([timespan] $Duration) {
        # A task of a small saved profile, registered with stand-in systemctl, whose unit starts this pwsh.
        $standIn = Use-StandInSystemctl (Join-Path $Dir 'bin')
        try {
            $profilePath = Join-Path $Dir 'lab.profile.json'
            $null = New-MailboxProfile -Name lab -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -ThreadCount 1 -Path (New-Item -ItemType Directory -Path (Join-Path $Dir 'db')).FullName -SaveTo $profilePath
            $output = Join-Path $Dir 'Results'
            $task = Register-StorageTestTask -Name Lab -ProfilePath $profilePath -OutputPath $output -Duration $Duration -Daily -At ([DateTime]::Today.AddHours(1)) `
                -ScriptFolder (Join-Path $Dir 'tasks') -UnitPath (Join-Path $Dir 'units') -PowerShellPath (Get-PowerShellPath) -Force
        }
        finally {
            Restore-Path $standIn
        }
        # ExecStart="<pwsh>" -NoProfile -NonInteractive -File "<runner>": the program and its arguments as systemd splits them.
        $execStart = [regex]::Match([System.IO.File]::ReadAllText($task.ServiceUnit), '(?m)^ExecStart=(.*)$').Groups[1].Value
        $words = @([regex]::Matches($execStart, '"([^"]*)"|(\S+)') | ForEach-Object { if ($_.Groups[1].Success) { $_.Groups[1].Value } else { $_.Groups[2].Value } })
        [pscustomobject]@{ Runner = $task.RunnerScript; Profile = $profilePath; Output = $output; Program = $words[0]; Arguments = @($words | Select-Object -Skip 1) }
    }

    function Get-Log($Task, [int] $ExitCode) {
        $logs = @(Get-ChildItem -LiteralPath $Task.Output -Filter 'Lab-*.log')
        $logs.Count | Should -Be 1
        $log = [System.IO.File]::ReadAllText($logs[0].FullName)
        $log | Should -Match ([regex]::Escape("Exit code $ExitCode."))
        $log
    }

    function Get-ResultsDocument([string] $Folder) {
        # The results documents under a folder (recognised by their schema, not their name).
        if (Test-Path -LiteralPath $Folder) {
            Get-ChildItem -LiteralPath $Folder -Filter '*.json' -Recurse | ForEach-Object { Get-Content -Raw -LiteralPath $_.FullName } |
                Where-Object { $_ -like '*exchstoragetest/results*' } | ForEach-Object { ConvertFrom-Json -InputObject $_ }
        }
    }
}

Describe 'The scheduled runner script' -Tag 'Needs:Linux' -Skip:(Test-Missing Linux) {
    BeforeEach { $Dir = New-ScratchFolder 'runner' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'exits 0 on Pass and 1 on Fail, as the results file of the finished run says' {
        $task = Register-LabTask ([timespan]::FromSeconds(15))
        $task.Program | Should -Be (Get-PowerShellPath)
        $task.Arguments | Should -Be @('-NoProfile', '-NonInteractive', '-File', $task.Runner)

        $run = Invoke-Process -FilePath $task.Program -ArgumentList $task.Arguments

        $results = @(Get-ResultsDocument $task.Output)
        $results.Count | Should -Be 1
        $passed = $results[0].verdict.result -eq 'Pass' -and $results[0].completion -eq 'Complete'
        Write-Host "The runner's storage test on this disk: $($results[0].verdict.result), exit code $($run.ExitCode)"
        $run.ExitCode | Should -Be $(if ($passed) { 0 } else { 1 })
        $log = Get-Log $task $run.ExitCode
        $log | Should -Match ([regex]::Escape("Result $($results[0].testId): $($results[0].verdict.result) (Complete)"))
        foreach ($reason in $results[0].verdict.reasons) { $log | Should -Match ([regex]::Escape($reason.message)) }
        # What went to the log also went to standard output (the journal).
        $run.Output[-1] | Should -Match ([regex]::Escape("Exit code $($run.ExitCode).") + '$')
    }

    It 'exits 1 on a failed verdict and logs its reasons' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
        # No disk fails its thresholds on cue: a stand-in engine (EXCHSTORAGETEST_ENGINE, inherited by the
        # runner's pwsh) answers with a failed verdict. Exit codes 0, 2 and 3 come from real runs.
        $task = Register-LabTask ([timespan]::FromSeconds(15))
        $engine = Join-Path $Dir 'engine-fail.sh'
        New-ExecutableScript -Path $engine -Text ("#!/bin/sh`nread request`nprintf '%s\n' '{`"type`":`"hello`",`"protocol`":1,`"engineVersion`":`"9.9.9`"}'`n" +
            "case `"`$request`" in *'`"command`":`"plan`"'*) printf '%s\n' '{`"type`":`"plan`",`"targetIops`":10,`"files`":[]}'; exit 0;; esac`n" +
            "printf '%s\n' '{`"type`":`"result`",`"testId`":`"failed-run`",`"testType`":`"Performance`",`"result`":`"Fail`",`"completion`":`"Complete`",`"reasons`":[{`"code`":`"DatabaseReadLatency`",`"message`":`"Average DB read latency 25 ms exceeds 20 ms.`"}],`"targetIops`":10,`"achievedIops`":12}'`nexit 0`n")
        $env:EXCHSTORAGETEST_ENGINE = $engine
        try { $run = Invoke-Process -FilePath $task.Program -ArgumentList $task.Arguments }
        finally { $env:EXCHSTORAGETEST_ENGINE = $null }

        $run.ExitCode | Should -Be 1
        $log = Get-Log $task 1
        $log | Should -Match ([regex]::Escape('Result failed-run: Fail (Complete)'))
        $log | Should -Match ([regex]::Escape('Average DB read latency 25 ms exceeds 20 ms.'))
    }

    It 'exits 2 on an error before any result and logs the ErrorId' {
        $task = Register-LabTask ([timespan]::FromSeconds(15))
        Remove-Item -LiteralPath $task.Profile

        $run = Invoke-Process -FilePath $task.Program -ArgumentList $task.Arguments

        $run.ExitCode | Should -Be 2
        Get-Log $task 2 | Should -Match 'ExchStorageTest\.ProfileNotFound'
        Get-ResultsDocument $task.Output | Should -BeNullOrEmpty
    }

    It 'exits 3 with its partial result when systemctl stop (SIGTERM) reaches the engine' {
        # systemctl stop (or a shutdown) sends SIGTERM: the engine ends the window, judges and saves what it measured.
        $task = Register-LabTask ([timespan]::FromMinutes(10))
        $psi = New-Object System.Diagnostics.ProcessStartInfo $task.Program
        $psi.Arguments = ($task.Arguments | ForEach-Object { '"' + $_ + '"' }) -join ' '
        $psi.UseShellExecute = $false
        $psi.RedirectStandardOutput = $true
        $runner = [System.Diagnostics.Process]::Start($psi)
        try {
            $stdout = $runner.StandardOutput.ReadToEndAsync()
            # The run is under way once the engine has saved its first results document (completion Interrupted until
            # it ends: what a kill at any later instant leaves). The runner's log has no earlier sign: it logs results,
            # warnings and errors only, and a 10-minute run warms up for 5 minutes before it measures.
            Wait-Until { @(Get-ResultsDocument $task.Output).Count -gt 0 -or $runner.HasExited } -Timeout ([timespan]::FromMinutes(3)) | Out-Null
            @(Get-ResultsDocument $task.Output | Where-Object { $_.completion -eq 'Interrupted' }).Count | Should -Be 1 -Because 'the engine saves its results document as soon as the run starts'
            $runner.HasExited | Should -BeFalse -Because 'the runner must not end before the run is under way'
            $engines = @(Get-EngineProcessId -Under $runner.Id)
            $engines.Count | Should -Be 1
            & kill -TERM $engines[0]
            $runner.WaitForExit(60000) | Should -BeTrue
            $null = $stdout.Result
        }
        finally {
            if (-not $runner.HasExited) { $runner.Kill() }
        }
        $runner.ExitCode | Should -Be 3
        $results = @(Get-ResultsDocument $task.Output)
        $results.Count | Should -Be 1
        $results[0].completion | Should -Be 'Stopped'
        Get-Log $task 3 | Should -Match ([regex]::Escape('(Stopped)'))
    }
}
