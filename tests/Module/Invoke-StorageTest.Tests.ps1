# Invoke-StorageTest end to end: the real engine, real files, the verdict as an object; -WhatIf; live progress;
# a stop part-way (the pipeline stopped, Stop-Job) that still keeps the partial result and leaves no engine;
# -AsJob.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    # Progress records are collected only through the PowerShell API: the runs that check them use a runspace.
    $Runspace = New-ModuleRunspace
}

AfterAll {
    $Runspace.Dispose()
}

Describe 'Invoke-StorageTest' {
    BeforeEach { $Fixture = New-RunFixture 'ist' }
    AfterEach { $Fixture.Remove() }

    It 'runs a Performance test and returns the result with its verdict, live progress and the engine on -Verbose' {
        $run = Invoke-InRunspace $Runspace "$($Fixture.Profile) | Invoke-StorageTest -Duration 00:00:30 -Force -Verbose"
        $run.Exception | Should -BeNullOrEmpty
        $run.Output.Count | Should -Be 1
        $result = $run.Output[0]
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestResult'
        $result.Result | Should -BeIn @('Pass', 'Fail')
        $result.Completion | Should -Be 'Complete'
        $result.TestType | Should -Be 'Performance'
        $result.TargetIops | Should -Be 10.0
        $result.AchievedIops | Should -BeGreaterThan 0
        $result.DbReadLatencyAvgMs | Should -BeGreaterThan 0
        Test-Path -LiteralPath $result.ResultsPath | Should -BeTrue
        $result.ReportPath | Should -Not -BeNullOrEmpty
        # The verdict's reasons agree with the result.
        (@($result.Reasons).Count -eq 0) | Should -Be ($result.Result -eq 'Pass')

        # Live progress: phases, percent and the measured IOPS and latency in the status.
        @($run.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' -and $_.StatusDescription -like '*IOPS*' -and $_.PercentComplete -gt 0 -and $_.SecondsRemaining -ge 0 }) |
            Should -Not -BeNullOrEmpty
        @($run.Progress | Where-Object { $_.RecordType -eq 'Completed' }) | Should -Not -BeNullOrEmpty
        # Readable in the minimal progress view, which gives the activity half the line: a short activity (no test id
        # cut in half), then the status, whose last figure is not jammed against the time remaining.
        $measuring = @($run.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' })
        foreach ($record in $measuring) {
            $record.Activity | Should -Be "Performance test 'MailboxProfile'"
            $record.StatusDescription | Should -Match '^Measuring: \d+ IOPS, DB read [\d.]+ ms, log write [\d.]+ ms$'
        }
        @($run.Verbose | Where-Object { $_.Message -like '*ExchStorageTest engine*' }) | Should -Not -BeNullOrEmpty
    }

    It 'lists every file it would create or write with -WhatIf, the fault window and the estimated time, and writes nothing' {
        $text = Get-WhatIfText "$($Fixture.Profile) | Invoke-StorageTest -Duration 00:10:00 -FaultAt 00:01:00 -StallLimit 00:00:05"
        $text | Should -BeLike '*What if: Run a Performance storage test*'
        $text | Should -BeLike '*Failure-mode window: 00:01:00 into the measured window, lasting at most 00:01:00 (the default), recovery included*stall limit 00:00:05. No fault script*'
        $text | Should -BeLike '*Files to create or reuse: 18,*'
        foreach ($n in 1, 2) {
            $database = Join-Path $Fixture.Folder "DB$n"
            $text | Should -Match ([regex]::Escape((Join-Path $database "ExchStorageTest00$n.edb")))
            foreach ($log in 1..8) { $text | Should -Match ([regex]::Escape((Join-Path (Join-Path $database 'Logs') ('E{0:D10}.log' -f $log)))) }
        }
        # The results file and the reports beside it (in the default Results folder), the run locks, and the time.
        $stem = Join-Path (Join-Path $Fixture.Folder 'Results') 'Performance_<y>_<M>_<d>_<H>_<m>_<s>'
        foreach ($file in "  Results    $stem.json", "  Html       $stem.html", "  PdhCsv     $stem.perfmon.csv", "  Lock       $(Join-Path $Fixture.Folder 'ExchStorageTest.lock')") {
            $text | Should -Match ([regex]::Escape($file))
        }
        $text | Should -Match 'Estimated time of the Performance test: about \d\d:\d\d:\d\d, an estimate from the plan .*the test: 600 s'
        Get-FolderEntry $Fixture.Folder | Should -BeNullOrEmpty
    }

    It 'runs a profile piped twice twice, one run after the other, as each piped profile is' {
        $text = Get-WhatIfText "`$p = $($Fixture.Profile); `$p, `$p | Invoke-StorageTest -Duration 00:10:00"
        ([regex]::Matches($text, 'What if: Run a Performance storage test')).Count | Should -Be 2
        Get-FolderEntry $Fixture.Folder | Should -BeNullOrEmpty
    }

    It 'stopped part-way, stops the engine cleanly and keeps the partial result on disk' {
        $results = (New-Item -ItemType Directory -Path (Join-Path $Fixture.Folder 'Results')).FullName
        $started = Start-InRunspace $Runspace "$($Fixture.Profile) | Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -OutputPath `$args[0] -Force" -ArgumentList $results
        Wait-Until { @($started.PowerShell.Streams.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' }).Count -gt 0 } | Should -BeTrue -Because 'the run must start measuring'
        $engines = Get-EngineProcessId
        $engines | Should -Not -BeNullOrEmpty

        $started.PowerShell.Stop()
        $run = Receive-FromRunspace $started
        $run.Exception | Should -BeOfType [System.Management.Automation.PipelineStoppedException]

        # No engine left behind, and the partial result is on disk, judged.
        @(Get-EngineProcessId | Where-Object { $_ -in $engines }) | Should -BeNullOrEmpty
        $files = @(Get-ChildItem -LiteralPath $results -Filter '*.json')
        $files.Count | Should -Be 1
        (Get-Content -Raw -LiteralPath $files[0].FullName) -replace '":"', '": "' | Should -BeLike '*"completion": "Stopped"*'
    }

    It 'returns a job with -AsJob whose result Receive-Job collects' {
        $job = $Fixture.NewProfile() | Invoke-StorageTest -Duration 00:00:10 -ThreadCount 1 -Warmup 0 -AsJob -Force
        try {
            $job.PSJobTypeName | Should -Be 'ExchStorageTestJob'
            $null = Wait-Job -Job $job -Timeout 300
            $job.State | Should -Be 'Completed'
            $output = @(Receive-Job -Job $job -Keep)
            $output.Count | Should -Be 1
            $output[0].PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestResult'
            $output[0].Completion | Should -Be 'Complete'
            @($job.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' }) | Should -Not -BeNullOrEmpty
        }
        finally {
            Remove-Job -Job $job -Force
        }
    }

    It 'stops with Stop-Job, stops the engine, and Receive-Job returns the partial result' {
        $job = $Fixture.NewProfile() | Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -AsJob -Force
        try {
            Wait-Until { @($job.Progress | Where-Object { $_.CurrentOperation -eq 'Measuring' }).Count -gt 0 } | Should -BeTrue -Because 'the run must start measuring'
            $engines = Get-EngineProcessId
            $engines | Should -Not -BeNullOrEmpty

            Stop-Job -Job $job
            $job.State | Should -Be 'Stopped'
            $partial = @(Receive-Job -Job $job)
            $partial.Count | Should -Be 1
            $partial[0].Completion | Should -Be 'Stopped'
            Test-Path -LiteralPath $partial[0].ResultsPath | Should -BeTrue
            @(Get-EngineProcessId | Where-Object { $_ -in $engines }) | Should -BeNullOrEmpty

            # The stop's own outcome, never passed, with what the partial window covered; Fail only on a rule a
            # longer run could not undo (a latency sample above its maximum on a loaded machine), never on the target or averages.
            $reasons = @($partial[0].Reasons)
            $reasons[-1].Code | Should -Be 'RunStopped'
            $reasons[-1].Message | Should -BeLike '* s into the measured window of the 600 s planned*'
            @($reasons | Select-Object -SkipLast 1 | Where-Object { $_.Code -notin 'DatabaseReadLatencyMaximum', 'LogWriteLatencyMaximum', 'IoErrors' }) | Should -BeNullOrEmpty
            $partial[0].Result | Should -Be $(if ($reasons.Count -eq 1) { 'Stopped' } else { 'Fail' })
            # The newest Performance*.html says the same in the cell ExchangeDsc's Test-JetstressSuccessful reads: not passed.
            $verdict = Test-ExchangeDscVerdict (Split-Path -Parent $partial[0].HtmlReportPath) 'Performance' 0 ([cultureinfo]::InvariantCulture)
            $verdict.File.FullName | Should -Be $partial[0].HtmlReportPath
            $verdict.Result | Should -Be $partial[0].Result
            $verdict.Passed | Should -BeFalse
        }
        finally {
            Remove-Job -Job $job -Force
        }
    }
}
