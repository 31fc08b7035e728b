# What an admin sees at the console: the default views of a result and a report (their text as the console
# renders it), Format-List *, -Verbose, Export-Csv, and a refusal of a tmpfs folder. Real runs from Get-FinishedRun (made
# once per process, by the first block that needs them); the failure mode's line from objects made here.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest

    function Get-ConsoleText {
        # The object as the console shows it (no colours), by default wide enough that no column is cut.
        param([Parameter(ValueFromPipeline)] $InputObject, [switch] $List, [int] $Width = 300)
        begin { $items = @() }
        process { $items += $InputObject }
        end {
            $saved = $null
            if (Get-Variable -Name PSStyle -ErrorAction SilentlyContinue) { $saved = $PSStyle.OutputRendering; $PSStyle.OutputRendering = 'PlainText' }
            try {
                if ($List) { $items | Format-List * | Out-String -Width $Width } else { $items | Out-String -Width $Width }
            }
            finally { if ($null -ne $saved) { $PSStyle.OutputRendering = $saved } }
        }
    }
}

Describe 'Get-TestReport at the console' {
    BeforeAll {
        $Runs = Get-FinishedRun
        $Report = Get-TestReport -Path $Runs.First.ResultsPath
        $Text = $Report | Get-ConsoleText
    }

    It 'shows the verdict, target and achieved IOPS, DB read and log write latency' {
        $Text | Should -Match "(?m)^Result\s+: $($Runs.First.Result)\s*$"
        $Text | Should -Match ("(?m)^TargetIops\s+: {0}\s*$" -f [regex]::Escape(('{0:N1}' -f $Runs.First.TargetIops)))
        $Text | Should -Match ("(?m)^AchievedIops\s+: {0}\s*$" -f [regex]::Escape(('{0:N1}' -f $Report.AchievedIops)))
        $Text | Should -Match '(?m)^DbReadLatencyAvgMs\s+: \d'
        $Text | Should -Match '(?m)^LogWriteLatencyAvgMs\s+: \d'
        # The report's figures are the run's: the result and its report agree.
        $Report.AchievedIops | Should -BeGreaterThan 0
        [math]::Abs($Report.AchievedIops - $Runs.First.AchievedIops) | Should -BeLessOrEqual 0.01
        [math]::Abs($Report.DbReadLatencyAvgMs - $Runs.First.DbReadLatencyAvgMs) | Should -BeLessOrEqual 0.01
        [math]::Abs($Report.LogWriteLatencyAvgMs - $Runs.First.LogWriteLatencyAvgMs) | Should -BeLessOrEqual 0.01
    }

    It 'shows the report files the run wrote, without -Format' {
        $Report.Files | Should -BeNullOrEmpty -Because 'no report was written by this call'
        $Report.ReportPath | Should -Contain $Runs.First.HtmlReportPath
        $Report.HtmlReportPath | Should -Be $Runs.First.HtmlReportPath
        $Text | Should -BeLike "*$($Runs.First.HtmlReportPath)*"
    }

    It 'shows the reasons of a failed verdict' {
        # A limit no storage meets: a Fail with a reason, judged again from the first run's results.
        $copy = New-ScratchFolder 'gtr-fail'
        try {
            $results = Get-Content -Raw -LiteralPath $Runs.First.ResultsPath | ConvertFrom-Json
            $results.verdict.result = 'Fail'
            $results.verdict.reasons = @([pscustomobject]@{ code = 'DatabaseReadLatencyAverage'; instance = 'Instance.1'; message = 'Instance.1 has 21.5 ms average database read latency; the limit is 20 ms.'; measured = 21.5; limit = 20 })
            $path = Join-Path $copy 'failed.json'
            $results | ConvertTo-Json -Depth 30 | Set-Content -LiteralPath $path -Encoding UTF8
            $failed = Get-TestReport -Path $path
            $failed.Result | Should -Be 'Fail'
            $failed.Reasons.Code | Should -Be 'DatabaseReadLatencyAverage'
            $failed | Get-ConsoleText | Should -Match '(?m)^Reasons\s+: DatabaseReadLatencyAverage \(Instance\.1\): Instance\.1 has 21\.5 ms'
        }
        finally { Remove-ScratchFolder $copy }
    }

    It 'Format-List * shows the text report once, not again in Raw' {
        $marker = ($Report.Text -split "`n" | Where-Object { $_ -match 'Overall Test Result' } | Select-Object -First 1).Trim()
        $marker | Should -Not -BeNullOrEmpty
        $all = $Report | Get-ConsoleText -List
        ([regex]::Matches($all, [regex]::Escape($marker))).Count | Should -Be 1
        $all | Should -Match '(?m)^Raw\s+: report event: type, '
        $Report.Raw.text | Should -Be $Report.Text -Because 'the whole event is still kept'
    }
}

Describe 'Invoke-StorageTest results at the console' {
    BeforeAll { $Runs = Get-FinishedRun }

    It 'the result table fits a 120-column console, one line a result, under the folder of its reports; the list view shows the HTML report' {
        $Runs.First.HtmlReportPath | Should -BeLike '*.html'
        Test-Path -LiteralPath $Runs.First.HtmlReportPath | Should -BeTrue
        # Where the reports are heads the table: the folder the runs wrote them to.
        $folder = [System.IO.Path]::GetDirectoryName($Runs.First.HtmlReportPath)
        $Runs.First, $Runs.Second | Get-ConsoleText | Should -Match ("(?m)^\s*Reports in: {0}\s*$" -f [regex]::Escape($folder))
        $lines = @(($Runs.First, $Runs.Second | Get-ConsoleText -Width 120) -split '\r?\n' | Where-Object { $_.Trim() })
        $header = [array]::FindIndex([string[]]$lines, [Predicate[string]] { param($l) $l -match '^TestId\s+Result' })
        $header | Should -BeGreaterOrEqual 1 -Because 'the folder line comes first'
        $lines = @($lines[$header..($lines.Count - 1)])
        $lines[0] | Should -Match '^TestId\s+Result\s+TargetIops\s+AchievedIops\s+DbReadAvgMs\s+LogWriteAvgMs\s+Completion\s+FailureMode\s*$'
        # Header, rule, and one line for each result: nothing wrapped onto a line of its own.
        $lines.Count | Should -Be 4
        $lines[2] | Should -BeLike "$($Runs.First.TestId) *"
        $lines[3] | Should -BeLike "$($Runs.Second.TestId) *"
        foreach ($line in $lines) { $line.TrimEnd().Length | Should -BeLessOrEqual 120 -Because "'$line' must fit 120 columns" }
        $Runs.First | Get-ConsoleText -Width 120 | Should -Not -BeLike "*$($Runs.First.HtmlReportPath)*"
        $Runs.First | Format-List | Out-String -Width 300 | Should -Match "(?m)^HtmlReportPath\s+: $([regex]::Escape($Runs.First.HtmlReportPath))\s*$"
    }

    It 'shows the outcome of a run that ended early whole, and no achieved IOPS it never measured' {
        # Stopped / Interrupted are verdicts of their own; a run stopped before its window has no AchievedIops.
        $stopped = [ExchStorageTest.TestResult]@{ TestId = 'stopped-in-tuning'; Result = 'Interrupted'; Completion = 'Interrupted'; TargetIops = 10 }
        $line = @(($stopped | Get-ConsoleText -Width 120) -split '\r?\n' | Where-Object { $_.Trim() })[-1]
        $line | Should -Match '^stopped-in-tuning\s+Interrupted\s+10\.0\s+Interrupted\s*$'
    }

    It 'Export-Csv writes reasons and report paths as text, not type names' {
        $folder = New-ScratchFolder 'csv'
        try {
            $result = [ExchStorageTest.TestResult]@{
                TestId     = 't1'
                Result     = 'Fail'
                Reasons    = [ExchStorageTest.Reason[]]@(
                    [ExchStorageTest.Reason]@{ Code = 'LogWriteLatencyAverage'; Instance = 'Instance.1'; Message = 'Instance.1 has 25.1 ms average log write latency; the limit is 10 ms.' }
                    [ExchStorageTest.Reason]@{ Code = 'TargetIopsNotMet'; Message = 'Achieved 40 of 50 IOPS.' })
                ReportPath = [string[]]@('/r/Performance_2026_1_2_3_4_5.txt', '/r/Performance_2026_1_2_3_4_5.html')
                # Which report is the HTML page is the engine's to say (its reports' kinds), not a file name's.
                HtmlReportPath = '/r/Performance_2026_1_2_3_4_5.html'
            }
            $csv = Join-Path $folder 'results.csv'
            $result, $Runs.First | Export-Csv -LiteralPath $csv -NoTypeInformation
            $raw = Get-Content -Raw -LiteralPath $csv
            $raw | Should -Not -BeLike '*ExchStorageTest.Reason`[`]*'
            $raw | Should -Not -BeLike '*System.String`[`]*'
            $rows = @(Import-Csv -LiteralPath $csv)
            $rows[0].Reasons -split "`r?`n" | Should -Be @(
                'LogWriteLatencyAverage (Instance.1): Instance.1 has 25.1 ms average log write latency; the limit is 10 ms.'
                'TargetIopsNotMet: Achieved 40 of 50 IOPS.')
            $rows[0].ReportPath -split "`r?`n" | Should -Be @('/r/Performance_2026_1_2_3_4_5.txt', '/r/Performance_2026_1_2_3_4_5.html')
            $rows[0].HtmlReportPath | Should -Be '/r/Performance_2026_1_2_3_4_5.html'
            $rows[1].ReportPath -split "`r?`n" | Should -Be @($Runs.First.ReportPath)
            # One property for the report files: no ReportPaths beside ReportPath.
            $rows[0].PSObject.Properties.Name | Should -Not -Contain 'ReportPaths'
            # Every column of the real result is text a person reads back, and the result's own figures.
            $raw | Should -Not -Match '@\{'
            [double]$rows[1].AchievedIops | Should -Be $Runs.First.AchievedIops
            $rows[1].TestId | Should -Be $Runs.First.TestId
            # The documented properties stay lists of objects.
            $result.Reasons[0].Code | Should -Be 'LogWriteLatencyAverage'
            $result.Reasons.Count | Should -Be 2
            $result.ReportPath[1] | Should -Be '/r/Performance_2026_1_2_3_4_5.html'
        }
        finally { Remove-ScratchFolder $folder }
    }
}

Describe 'A run with -Verbose' {
    It 'shows the engine''s test log: preparing, creating, tuning, the phases, the verdict' {
        $folder = New-ScratchFolder 'verbose'
        try {
            $records = @(New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -DatabaseCount 1 -Path $folder |
                    Invoke-StorageTest -Duration 00:00:05 -Confirm:$false -Verbose 4>&1 3>&1)
            $verbose = @($records | Where-Object { $_ -is [System.Management.Automation.VerboseRecord] } | ForEach-Object { $_.Message })
            $warnings = @($records | Where-Object { $_ -is [System.Management.Automation.WarningRecord] } | ForEach-Object { $_.Message })
            $results = Get-Content -Raw -LiteralPath @($records | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })[0].ResultsPath | ConvertFrom-Json
            # The lines the run could not do or check are warnings; the rest of the test log is -Verbose's.
            $testLog = @($results.testLog | ForEach-Object { $_.message } | Where-Object { $warnings -notcontains $_ })
            $testLog.Count | Should -BeGreaterThan 5
            ($testLog -match 'tun') | Should -Not -BeNullOrEmpty -Because 'each tuning step is in the test log'
            # No -SampleIntervalSeconds: picked for the 5 s window (1 s, not 15 s: a chart of more than 2 points), and said.
            $results.settings.sampleIntervalSeconds | Should -Be 1
            $verbose -like '*interval: 1000 ms, picked for the 5 s window*' | Should -Not -BeNullOrEmpty
            # Every line of the results' test log reached the verbose stream, in order.
            $shown = @($verbose | Where-Object { $testLog -contains $_ })
            $shown | Should -Be $testLog
        }
        finally { Remove-ScratchFolder $folder }
    }
}

Describe 'A database folder on tmpfs' -Tag 'Needs:Linux' -Skip:(Test-Missing Linux) {
    It 'is refused before anything is written, naming the folder' {
        $folder = Join-Path '/dev/shm' ('exst-console-' + [guid]::NewGuid().ToString('N').Substring(0, 8))
        $null = New-Item -ItemType Directory -Path $folder
        try {
            $caught = $null
            try { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $folder | Invoke-StorageTest -Duration 00:00:30 -Confirm:$false } catch { $caught = $_ }
            $caught.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.DirectIoUnsupported,*'
            $caught.Exception.Message | Should -BeLike "*'$folder'*"
            $caught.Exception.Message | Should -Not -BeLike '*.creating*'
            Get-FolderEntry $folder | Should -BeNullOrEmpty
        }
        finally { Remove-Item -LiteralPath $folder -Recurse -Force }
    }
}

Describe 'A DatabaseBackup test at the console' {
    BeforeAll {
        # The backup reads the finished runs' databases; its results go to a folder of their own.
        $Runs = Get-FinishedRun
        $Output = New-ScratchFolder 'backup'
        $records = @(New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -DatabaseCount 2 -Path $Runs.Folder |
                Invoke-StorageTest -TestType DatabaseBackup -DatabaseSource Attach -Duration 00:00:30 -OutputPath $Output -Confirm:$false 3>&1)
        $Warnings = @($records | Where-Object { $_ -is [System.Management.Automation.WarningRecord] } | ForEach-Object { $_.Message })
        $Backup = @($records | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })[0]
    }
    AfterAll { Remove-ScratchFolder $Output }

    It 'says -Duration does not apply' {
        # Once, among the run's other warnings (on Windows under Wine: the 4 KB clusters, the counters it cannot read).
        @($Warnings | Where-Object { $_ -like '*-Duration 00:00:30 does not apply to a DatabaseBackup test*' }).Count | Should -Be 1
    }

    It 'shows the backup''s MB/s, not transactional IOPS of 0' {
        $Backup.TestType | Should -Be 'DatabaseBackup'
        $Backup.AchievedIops | Should -BeNullOrEmpty
        $Backup.TargetIops | Should -BeNullOrEmpty
        $Backup.LogWriteLatencyAvgMs | Should -BeNullOrEmpty -Because 'a backup writes no log'
        $Backup.BackupMBPerSecondPerDatabase | Should -BeGreaterThan 0
        $Backup.BackupMBPerSecond | Should -BeGreaterThan 0
        $list = $Backup | Format-List | Out-String -Width 300
        $list | Should -Match '(?m)^BackupMBPerSecondPerDatabase\s+: \d'
        $list | Should -Match '(?m)^BackupMBPerSecond\s+: \d'
        $list | Should -Not -Match '(?m)^AchievedIops'
        # How long the read took, the results file's figure (its slowest database's read); no replay figures.
        $results = Get-Content -Raw -LiteralPath $Backup.ResultsPath | ConvertFrom-Json
        $Backup.BackupSeconds | Should -BeGreaterThan 0
        $Backup.BackupSeconds | Should -Be $results.backup.elapsedSeconds
        $Backup.BackupSeconds | Should -Be (@($results.backup.instances.elapsedSeconds) | Measure-Object -Maximum).Maximum
        $list | Should -Match '(?m)^BackupSeconds\s+: \d'
        $Backup.LogsReplayed | Should -BeNullOrEmpty
        $list | Should -Not -Match '(?m)^(LogsReplayed|RecoverySeconds)'
    }

    It 'its reports'' Avg and Sum rows are the result''s per-database and host MB/s, the host''s the databases'' rates added up' {
        # One definition of the backup's throughput, Jetstress's and ESRP's: the databases are read at once, so the host's
        # rate (BackupMBPerSecond, the Sum row) is theirs added up; Avg (BackupMBPerSecondPerDatabase) is their mean.
        $results = Get-Content -Raw -LiteralPath $Backup.ResultsPath | ConvertFrom-Json
        $rates = @($results.backup.instances.mbPerSecond)
        $rates.Count | Should -BeGreaterThan 0
        [math]::Abs($Backup.BackupMBPerSecond - ($rates | Measure-Object -Sum).Sum) | Should -BeLessOrEqual 0.001
        [math]::Abs($Backup.BackupMBPerSecondPerDatabase - ($rates | Measure-Object -Average).Average) | Should -BeLessOrEqual 0.001
        # Each database's rate is its own bytes over its own elapsed time.
        foreach ($instance in $results.backup.instances) {
            $bytes = (@($results.instances | Where-Object { "Instance.$($_.index)" -eq $instance.instance } | ForEach-Object { $_.streams } | Where-Object stream -eq 'BackupRead') | Measure-Object -Property bytes -Sum).Sum
            [math]::Abs($instance.mbPerSecond - $bytes / 1048576 / $instance.elapsedSeconds) / $instance.mbPerSecond | Should -BeLessThan 0.01
        }

        # The text and HTML reports print those two figures (2 decimals) in their Avg and Sum rows, and say what they are.
        $text = [System.IO.File]::ReadAllText((@($Backup.ReportPath) -match '[0-9a-f]\.txt$')[0])
        $html = [System.IO.File]::ReadAllText($Backup.HtmlReportPath)
        foreach ($row in @(@{ Label = 'Avg'; Value = $Backup.BackupMBPerSecondPerDatabase }, @{ Label = 'Sum'; Value = $Backup.BackupMBPerSecond })) {
            $inText = [regex]::Match($text, '(?m)^\s+' + $row.Label + '\s+([\d,.]+)\s*$')
            $inHtml = [regex]::Match($html, '<td class="grid_row_header">' + $row.Label + '</td>\n(?:<td class="grid_data"></td>\n)*<td class="grid_data">([\d,.]+)</td>')
            $inText.Success | Should -BeTrue -Because "the text report has a $($row.Label) row"
            $inHtml.Success | Should -BeTrue -Because "the HTML report has a $($row.Label) row"
            foreach ($printed in $inText.Groups[1].Value, $inHtml.Groups[1].Value) {
                [math]::Abs([double]::Parse($printed.Replace(',', ''), [cultureinfo]::InvariantCulture) - $row.Value) | Should -BeLessOrEqual 0.0051
            }
        }
        $text | Should -BeLike "*Sum adds them (the databases are read at once)*"
    }

    It 'its reports state no thread count of 0 and count one copy in the singular' {
        $text = [System.IO.File]::ReadAllText((@($Backup.ReportPath) -match '[0-9a-f]\.txt$')[0])
        $text | Should -Not -Match 'Thread Count\s+0'
        $text | Should -Match 'Thread Count\s+not used'
        $text | Should -Match '2 databases, 1 copy,'
        $html = [System.IO.File]::ReadAllText($Backup.HtmlReportPath)
        $html | Should -Not -BeLike '*0 (auto-tuned)*'
        $html | Should -Not -BeLike '*1 copies*'
    }
}

Describe 'A run''s failure mode at the console' {
    BeforeAll {
        $Line = 'Pass, fault tolerated: stalled 4.8 s on /mnt/db, recovered in 12.0 s, no errors'
        $Fault = [ExchStorageTest.TestResult]@{ TestId = 'with-fault'; Result = 'Pass'; Completion = 'Complete'; TargetIops = 10; FailureMode = $Line; StallCount = 1 }
        $Plain = [ExchStorageTest.TestResult]@{ TestId = 'without'; Result = 'Pass'; Completion = 'Complete'; TargetIops = 10; StallCount = 0 }
    }

    It 'is the last column of the result table, on the result''s line, and empty for a run without one' {
        $lines = @(($Fault, $Plain | Get-ConsoleText) -split '\r?\n' | Where-Object { $_.Trim() })
        $lines -match '^TestId\s+Result\s.*\sCompletion\s+FailureMode\s*$' | Should -Not -BeNullOrEmpty
        @($lines -like 'with-fault *') | Should -Match ('\sComplete\s+' + [regex]::Escape($Line) + '\s*$')
        @($lines -like 'without *') | Should -Match '\sComplete\s*$'
        # In a 120-column console it is cut, never wrapped: still one line a result.
        $narrow = @(($Fault, $Plain | Get-ConsoleText -Width 120) -split '\r?\n' | Where-Object { $_.Trim() })
        @($narrow -like 'with-fault *').Count | Should -Be 1
        foreach ($l in $narrow) { $l.TrimEnd().Length | Should -BeLessOrEqual 120 }
    }

    It 'is one line of the list views of a result and a report, and absent where there is none' {
        $Fault | Format-List | Out-String -Width 300 | Should -Match ("(?m)^FailureMode\s+: {0}\s*$" -f [regex]::Escape($Line))
        $Plain | Format-List | Out-String -Width 300 | Should -Not -Match '(?m)^FailureMode'
        $report = [ExchStorageTest.TestReport]@{ TestId = 't1'; Result = 'Pass'; Runs = 1; Hosts = 1; FailureMode = $Line }
        $report | Get-ConsoleText | Should -Match ("(?m)^FailureMode\s+: {0}\s*$" -f [regex]::Escape($Line))
        [ExchStorageTest.TestReport]@{ TestId = 't1'; Result = 'Pass'; Runs = 1; Hosts = 1 } | Get-ConsoleText | Should -Not -Match '(?m)^FailureMode'
    }

    It 'is one line a host of a multi-host run''s aggregate, for the hosts that have one' {
        $Fault.ComputerName = 'LAB01'
        $Plain.ComputerName = 'LAB02'
        $aggregate = [ExchStorageTest.AggregateResult]@{ RunId = 'r1'; Result = 'Pass'; Hosts = [ExchStorageTest.TestResult[]]@($Fault, $Plain) }
        $text = $aggregate | Get-ConsoleText
        $text | Should -Match ("(?m)^FailureMode\s+: LAB01: {0}\s*$" -f [regex]::Escape($Line))
        $text | Should -Not -Match 'LAB02: Storage'
        [ExchStorageTest.AggregateResult]@{ RunId = 'r1'; Result = 'Pass'; Hosts = [ExchStorageTest.TestResult[]]@($Plain) } | Get-ConsoleText | Should -Not -Match '(?m)^FailureMode'
    }
}
