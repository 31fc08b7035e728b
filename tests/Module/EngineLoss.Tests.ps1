# A real engine lost mid-run: killed (a crash, as far as the module can tell) or frozen (SIGSTOP on Unix, every thread
# suspended on Windows). The command must end either way, with an ErrorRecord naming the engine's process, and leave no
# process behind; a frozen engine within the limit its own heartbeat promise sets (the Heartbeat class of the contract).
# The heartbeat interval is shortened here through its environment variable, which the engine inherits from this
# process; the module learns it from the engine's hello, as it learns the production default.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $HeartbeatSeconds = 1
    $env:EXCHSTORAGETEST_HEARTBEAT_SECONDS = "$HeartbeatSeconds"
    $Limit = [ExchStorageTest.Contract.Heartbeat]::SilenceLimit($HeartbeatSeconds)
    $Runspace = New-ModuleRunspace

    function Start-LongRun {
        # A ten-minute run in the runspace; returns it once the engine measures, with the engine's process id.
        param($Fixture)
        $started = Start-InRunspace $Runspace "$($Fixture.Profile) | Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -Force"
        Wait-Until { @($started.PowerShell.Streams.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' }).Count -gt 0 } |
            Should -BeTrue -Because 'the run must start measuring'
        $engine = @(Get-EngineProcessId)
        $engine.Count | Should -Be 1 -Because 'one engine runs the test'
        $started | Add-Member -NotePropertyName EngineId -NotePropertyValue $engine[0] -PassThru
    }
}

AfterAll {
    $Runspace.Dispose()
    Remove-Item -Path Env:EXCHSTORAGETEST_HEARTBEAT_SECONDS -ErrorAction SilentlyContinue
}

Describe 'An engine lost mid-run' {
    BeforeEach { $Fixture = New-RunFixture 'lost' }
    AfterEach { $Fixture.Remove() }

    It 'promises its heartbeat in the contract: the default the docs give, and the limit the module holds it to' {
        [ExchStorageTest.Contract.Heartbeat]::DefaultSeconds | Should -Be 5
        [ExchStorageTest.Contract.Heartbeat]::SilenceLimit(5) | Should -Be ([timespan]::FromSeconds(30))
        $Limit | Should -Be ([timespan]::FromSeconds(6))
    }

    It 'fails with EngineExited, naming the process and how it ended, when the engine is killed' {
        $started = Start-LongRun $Fixture
        Stop-TestProcess -Id $started.EngineId
        $run = Receive-FromRunspace $started

        $run.Output | Should -BeNullOrEmpty
        $run.Error.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineExited,*'
        $run.Error.TargetObject | Should -Be $started.EngineId
        $run.Error.Exception.Message | Should -BeLike "*process $($started.EngineId)*before it finished*"
        if ($IsLinux) { $run.Error.Exception.Message | Should -BeLike '*signal 9 (SIGKILL)*' }
        @(Get-EngineProcessId) | Should -BeNullOrEmpty
        # Nothing measured is lost: the checkpoint of the last sample interval is on disk.
        @(Get-ChildItem -LiteralPath (Join-Path $Fixture.Folder 'Results') -Filter '*.json').Count | Should -Be 1
    }

    It 'fails with EngineNotResponding within the heartbeat limit when the engine freezes, and kills it' {
        $started = Start-LongRun $Fixture
        Suspend-TestProcess -Id $started.EngineId
        $frozen = [System.Diagnostics.Stopwatch]::StartNew()
        $run = Receive-FromRunspace $started
        $frozen.Stop()

        $run.Output | Should -BeNullOrEmpty
        $run.Error.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineNotResponding,*'
        $run.Error.CategoryInfo.Category | Should -Be 'OperationTimeout'
        $run.Error.TargetObject | Should -Be $started.EngineId
        $run.Error.Exception.Message | Should -BeLike "*process $($started.EngineId)*every $HeartbeatSeconds s*killed*"
        # Silence is counted from the engine's last line, at most one heartbeat before the freeze; the slack above the
        # limit is for a loaded machine, not a second limit.
        $frozen.Elapsed.TotalSeconds | Should -BeGreaterThan ($Limit.TotalSeconds - 2 * $HeartbeatSeconds)
        $frozen.Elapsed.TotalSeconds | Should -BeLessThan ($Limit.TotalSeconds + 20)
        Get-Process -Id $started.EngineId -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
        @(Get-EngineProcessId) | Should -BeNullOrEmpty
    }
}
