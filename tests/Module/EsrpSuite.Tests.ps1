# Invoke-StorageTest -TestType EsrpSuite end to end with lab durations (seconds): the four ESRP tests in order on
# one database set, the state file that lets a stopped suite resume, and the ESRP document it ends with.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $FullyQualified = ',ExchStorageTest.Commands.InvokeStorageTestCommand'
    $Profile = '$p = New-MailboxProfile -MailboxCount 40 -IopsPerMailbox 0.5 -MailboxSizeMB 1 -DatabaseCount 2 -Path $args[0]; '
    $Lab = '-Duration 00:00:03 -StressDuration 00:00:04 -Warmup 00:00:01 -ThreadCount 2 -SampleIntervalSeconds 1 -LogFilesToReplay 3 -Force'
    $Runspace = New-ModuleRunspace

    function Read-Json([string] $Path) { Get-Content -Raw -LiteralPath $Path | ConvertFrom-Json }
    function Get-Utc($Value) {
        # ConvertFrom-Json gives PowerShell 7 DateTime values and 5.1 strings: the same instant either way.
        if ($Value -is [DateTime]) { return $Value.ToUniversalTime() }
        [DateTime]::Parse($Value, [Globalization.CultureInfo]::InvariantCulture, 'AdjustToUniversal')
    }
    function Get-ResultsFile([string] $Folder) {
        Get-ChildItem -LiteralPath $Folder -Filter '*.json' | Where-Object { (Get-Content -Raw -LiteralPath $_.FullName) -like '*exchstoragetest/results*' } | ForEach-Object { $_.FullName }
    }
}

AfterAll {
    $Runspace.Dispose()
}

Describe 'The ESRP suite' {
    BeforeEach { $Dir = New-ScratchFolder 'esrp' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'runs the four tests in ESRP order on one database set and ends with the ESRP document' {
        $suite = Join-Path $Dir 'suite'
        $result = New-MailboxProfile -MailboxCount 40 -IopsPerMailbox 0.5 -MailboxSizeMB 1 -DatabaseCount 2 -Path $Dir |
            Invoke-StorageTest -TestType EsrpSuite -OutputPath $suite -Duration 00:00:03 -StressDuration 00:00:04 -Warmup 00:00:01 -ThreadCount 2 -SampleIntervalSeconds 1 -LogFilesToReplay 3 -Force
        @($result).Count | Should -Be 1
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.SuiteResult'
        $result.Complete | Should -BeTrue
        $result.NextTest | Should -BeNullOrEmpty
        $result.ResultsPath | Should -Be $suite
        Get-MissingViewedProperty $result | Should -BeNullOrEmpty
        Get-MissingViewedProperty @($result.Tests)[0] | Should -BeNullOrEmpty

        # The order: each test started after the one before it ended, Performance first.
        $tests = @($result.Tests)
        $tests.TestType | Should -Be @('Performance', 'Stress', 'DatabaseBackup', 'SoftRecovery')
        $results = @($tests | ForEach-Object { Read-Json $_.ResultsPath })
        for ($i = 0; $i -lt 4; $i++) {
            $tests[$i].State | Should -Be 'Complete'
            $results[$i].testType | Should -Be $tests[$i].TestType
            [System.IO.Path]::GetDirectoryName($tests[$i].ResultsPath) | Should -Be (Join-Path $suite ('{0}-{1}' -f ($i + 1), $tests[$i].TestType))
            if ($i -gt 0) { (Get-Utc $results[$i].timeline.testStartUtc) | Should -BeGreaterOrEqual (Get-Utc $results[$i - 1].timeline.testEndUtc) }
        }

        # One database set: Performance created it, the others attached to it (the same instance ids).
        $results.settings.databaseSource | Should -Be @('Create', 'Attach', 'Attach', 'Attach')
        $ids = @($results | ForEach-Object { ($_.instances | ForEach-Object { $_.instanceId }) -join ',' })
        foreach ($id in $ids) { $id | Should -Be $ids[0] }
        # Lab durations: Performance and Stress took -Duration and -StressDuration; Stress ran its checksum pass.
        $results[0].settings.durationSeconds | Should -Be 3
        $results[1].settings.durationSeconds | Should -Be 4
        $results[1].settings.thresholds.name | Should -Be 'Lenient'
        $results[1].checksum.pagesChecked | Should -BeGreaterThan 0

        # The state file says the same, with paths relative to the suite folder, '/' between folders on every OS (the
        # folder may be copied to a share and reviewed from another OS).
        $state = Read-Json (Join-Path $suite 'suite.json')
        $state.schema | Should -Be 'exchstoragetest/suite'
        @($state.tests.resultsPath) | Should -Be @($tests | ForEach-Object { $_.ResultsPath.Substring($suite.Length + 1).Replace('\', '/') })

        # The ESRP document: written in the suite folder, linking every test's report.
        [System.IO.Path]::GetDirectoryName($result.DocumentPath) | Should -Be $suite
        $html = Get-Content -Raw -LiteralPath $result.DocumentPath
        foreach ($t in $tests) { $html | Should -Match ([regex]::Escape([System.IO.Path]::GetFileNameWithoutExtension($t.ResultsPath) + '.html')) }
        $html | Should -Match 'Appendix D Recovery testing'

        # Get-TestReport on the suite (piped, bound by ResultsPath) gives the same submission.
        $report = $result | Get-TestReport
        @($report).Count | Should -Be 1 -Because 'a suite''s tests are one submission, not runs to report apart'
        $report.Esrp.submission | Should -BeTrue
        $report.Esrp.missing | Should -BeNullOrEmpty
    }

    It 'resumes a suite stopped after a test with the next test and never runs a completed one again' {
        $suite = Join-Path $Dir 'suite'
        $statePath = Join-Path $suite 'suite.json'
        $started = Start-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $($Lab.Replace('00:00:04', '00:05:00'))") -ArgumentList $Dir, $suite
        try {
            # Stop as soon as Performance is complete: between the tests or early in Stress. The state file is read
            # while the suite may be replacing it: a read Windows refuses then (a sharing violation, seen under Wine)
            # is a "not yet".
            $performanceDone = {
                try { (Test-Path -LiteralPath $statePath) -and [System.IO.File]::ReadAllText($statePath) -like '*"state": "Complete"*' }
                catch [System.IO.IOException] { $false }
            }
            Wait-Until { (& $performanceDone) -or $started.Handle.IsCompleted } -Timeout ([timespan]::FromMinutes(3)) -IntervalMilliseconds 100 | Out-Null
            & $performanceDone | Should -BeTrue -Because 'Performance must complete'
        }
        finally {
            # Whatever failed above, the suite stops here: the runspace is the next test's.
            $started.PowerShell.Stop()
        }
        # Stopped, as Ctrl+C stops it. EndInvoke says so with a PipelineStoppedException, or (a stop that lands as the
        # suite moves from one test to the next, seen under Wine on a loaded machine) returns with the state Stopped.
        $stoppedRun = Receive-FromRunspace $started
        $started.PowerShell.InvocationStateInfo.State | Should -Be 'Stopped' -Because "a stop after Performance stops the suite (the run's errors: $(@($stoppedRun.Errors) -join '; '))"
        if ($null -ne $stoppedRun.Exception) { $stoppedRun.Exception | Should -BeOfType [System.Management.Automation.PipelineStoppedException] }

        $stopped = @((Read-Json $statePath).tests)
        $stopped[0].state | Should -Be 'Complete'
        $stopped[1].state | Should -BeIn @('NotRun', 'Stopped')
        foreach ($t in $stopped[2..3]) { $t.state | Should -Be 'NotRun' }
        $performanceId = $stopped[0].testId
        $performanceResults = @(Get-ResultsFile (Join-Path $suite '1-Performance'))
        $performanceResults.Count | Should -Be 1
        $performanceWritten = (Get-Item -LiteralPath $performanceResults[0]).LastWriteTimeUtc

        # The same command again: it resumes with Stress and goes on to the end.
        $resumed = Invoke-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $Lab -Verbose") -ArgumentList $Dir, $suite
        $resumed.Exception | Should -BeNullOrEmpty
        $result = $resumed.Output[0]
        $result.Complete | Should -BeTrue
        @($resumed.Verbose | Where-Object { $_.Message -like "Resuming the ESRP suite in '$suite' with Stress*" }) | Should -Not -BeNullOrEmpty
        $tests = @($result.Tests)
        $tests[0].TestId | Should -Be $performanceId
        Get-ResultsFile (Join-Path $suite '1-Performance') | Should -Be $performanceResults[0]
        (Get-Item -LiteralPath $performanceResults[0]).LastWriteTimeUtc | Should -Be $performanceWritten
        foreach ($t in $tests) { $t.State | Should -Be 'Complete' }
        # A Stress stopped part-way left its partial result: the document counts the completed one and says so.
        $stressFiles = @(Get-ResultsFile (Join-Path $suite '2-Stress'))
        $html = Get-Content -Raw -LiteralPath $result.DocumentPath
        ($html -like '*Runs not counted:*') | Should -Be ($stressFiles.Count -gt 1)
        $html | Should -Not -Match 'did not complete'

        # Once more: nothing runs, the suite is complete.
        $again = Invoke-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $Lab") -ArgumentList $Dir, $suite
        $again.Exception | Should -BeNullOrEmpty
        @($again.Warnings | Where-Object { $_.Message -like '*is complete: no test ran*' }) | Should -Not -BeNullOrEmpty
        $again.Output[0].DocumentPath | Should -Be $result.DocumentPath
    }

    # Under Wine its parts run apart: one start file on two hosts (StartFileRun.Tests.ps1), the suite on one host
    # (above); the two together are this machine's longest Wine test.
    It 'runs each test on two hosts together with one start file, and the share makes one submission' -Tag 'Needs:NotWine' -Skip:(Test-Missing NotWine) {
        # Two hosts (two runspaces of this process, each with its own databases and suite folder): every test
        # starts on both at one instant, the next only after both finished.
        $run = (New-Item -ItemType Directory -Path (Join-Path $Dir 'run')).FullName
        $startFile = Join-Path $run 'start.json'
        $second = New-ModuleRunspace
        try {
            $script = $Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -StartFile `$args[1] -StartAtUtc `$args[2] -OutputPath `$args[3] $Lab"
            $at = [DateTime]::UtcNow.AddSeconds(25)
            $atB = $at.AddSeconds(10)
            $startedA = Start-InRunspace $Runspace $script -ArgumentList (New-Item -ItemType Directory -Path (Join-Path $Dir 'a')).FullName, $startFile, $at, (Join-Path $Dir 'suite-a')
            $startedB = Start-InRunspace $second $script -ArgumentList (New-Item -ItemType Directory -Path (Join-Path $Dir 'b')).FullName, $startFile, $atB, (Join-Path $Dir 'suite-b')
            Wait-Until { $startedA.Handle.IsCompleted -and $startedB.Handle.IsCompleted } -Timeout ([timespan]::FromMinutes(8)) | Should -BeTrue
            $a = Receive-FromRunspace $startedA
            $b = Receive-FromRunspace $startedB
        }
        finally {
            $second.Dispose()
        }
        $a.Exception | Should -BeNullOrEmpty
        $b.Exception | Should -BeNullOrEmpty
        $a.Output[0].Complete | Should -BeTrue
        $b.Output[0].Complete | Should -BeTrue

        $tests = @(, @($a.Output[0].Tests)) + @(, @($b.Output[0].Tests))
        $previousEnd = [DateTime]::MinValue
        for ($i = 0; $i -lt 4; $i++) {
            $folder = Join-Path $run ('{0}-{1}' -f ($i + 1), $tests[0][$i].TestType)
            # The instant: the run's start file for the first test, the test's own for the others.
            $startPath = if ($i -eq 0) { $startFile } else { Join-Path $folder 'start.json' }
            $agreed = Get-Utc (Read-Json $startPath).startAtUtc
            $agreed | Should -BeGreaterOrEqual $previousEnd -Because "$($tests[0][$i].TestType) must start after both hosts ended the test before it"
            foreach ($hostTests in $tests) {
                $r = Read-Json $hostTests[$i].ResultsPath
                $waited = Get-Utc (@($r.timeline.phases | Where-Object { $_.name -eq 'WaitingForStart' })[0].endUtc)
                $waited | Should -BeGreaterOrEqual $agreed
                ($waited - $agreed).TotalSeconds | Should -BeLessThan 5
                $end = Get-Utc $r.timeline.testEndUtc
                if ($end -gt $previousEnd) { $previousEnd = $end }
            }
            @(Get-ChildItem -LiteralPath (Join-Path $folder 'ready') -Filter '*.json').Count | Should -Be 2
            @(Get-ChildItem -LiteralPath (Join-Path $folder 'results') -Filter '*.json').Count | Should -Be 2
        }

        # The share renders as one submission of both hosts: two servers, every test on both, one database set each.
        $report = Get-TestReport -Path $run -Format EsrpHtml
        $report.Esrp.submission | Should -BeTrue
        @($report.Esrp.servers).Count | Should -Be 2
        foreach ($t in $report.Esrp.tests) { @($t.hosts).Count | Should -Be 2 }
        foreach ($s in $report.Esrp.databaseSets) { $s.same | Should -BeTrue }
        $achieved = 0.0
        foreach ($hostTests in $tests) { $achieved += [double](Read-Json $hostTests[0].ResultsPath).sizing.achievedTransactionalIops }
        [Math]::Abs([double]$report.Esrp.aggregate.achievedTransactionalIops - $achieved) | Should -BeLessOrEqual 0.01
        @(Get-ChildItem -LiteralPath $run -Filter 'EsrpSubmission_*.esrp.html').Count | Should -Be 1
    }

    It 'refuses a suite folder of another profile or a foreign state file, and leaves it untouched' {
        $suite = (New-Item -ItemType Directory -Path (Join-Path $Dir 'suite')).FullName
        $statePath = Join-Path $suite 'suite.json'
        Set-Content -LiteralPath $statePath -Value '{"name":"my notes"}' -NoNewline
        $foreign = Invoke-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $Lab") -ArgumentList $Dir, $suite
        $foreign.Error.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.SuiteStateInvalid' + $FullyQualified)
        Get-Content -Raw -LiteralPath $statePath | Should -Be '{"name":"my notes"}'

        # A suite started for one profile does not resume with another.
        Remove-Item -LiteralPath $statePath
        $plan = Invoke-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $Lab -WhatIf") -ArgumentList $Dir, $suite
        $plan.Exception | Should -BeNullOrEmpty
        Get-FolderEntry $suite | Should -BeNullOrEmpty -Because '-WhatIf writes nothing'
        $steps = @('Performance', 'Stress', 'DatabaseBackup', 'SoftRecovery')
        $other = '{"schema":"exchstoragetest/suite","schemaVersion":1,"suiteId":"x","profile":{"name":"Other","mailboxCount":9},"tests":[' +
            (@(for ($i = 0; $i -lt 4; $i++) { '{{"step":{0},"testType":"{1}","folder":"{0}-{1}","state":"NotRun"}}' -f ($i + 1), $steps[$i] }) -join ',') + ']}'
        Set-Content -LiteralPath $statePath -Value $other -NoNewline
        $mismatch = Invoke-InRunspace $Runspace ($Profile + "`$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath `$args[1] $Lab") -ArgumentList $Dir, $suite
        $mismatch.Error.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.SuiteProfileMismatch' + $FullyQualified)
        Get-Content -Raw -LiteralPath $statePath | Should -Be $other
        Get-FolderEntry $suite | Should -Be @('suite.json')

        # -StressDuration belongs to the suite.
        $single = Invoke-InRunspace $Runspace ($Profile + '$p | Invoke-StorageTest -StressDuration 00:00:05 -Force') -ArgumentList $Dir
        $single.Error.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StressDurationWithoutSuite' + $FullyQualified)
    }
}
