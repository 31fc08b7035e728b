# Get-TestReport on real results files of real runs: objects, files, hosts merged, runs compared, the vendor's
# metadata, refusals that write nothing.

BeforeDiscovery {
    # $Target: a scratch folder that must stay empty; $Fixtures: hostA and hostB each with a copy of a real
    # results.json, an empty-folder holding a profile, other.json; $Results: a real results file.
    $BadInputs = @(
        @{ ErrorId = 'ResultsNotFound'; Script = 'Get-TestReport -Path (Join-Path $Fixtures no-results.json) -OutputPath $Target -Format Html' }
        @{ ErrorId = 'ResultsNotFound'; Script = 'Get-TestReport -Path (Join-Path $Fixtures empty-folder) -OutputPath $Target -Format Html' }
        @{ ErrorId = 'ResultsNotFound'; Script = 'Get-TestReport -Path (Join-Path $Fixtures no-such-folder) -Format Html' }
        @{ ErrorId = 'ResultsNotFound'; Script = '[pscustomobject]@{ ResultsPath = $null } | Get-TestReport -OutputPath $Target -Format Html' }
        @{ ErrorId = 'OutputPathNotFound'; Script = 'Get-TestReport -Path $Results -OutputPath (Join-Path $Target missing) -Format Html' }
        @{ ErrorId = 'ResultsMalformed'; Script = 'Get-TestReport -Path (Join-Path $Fixtures other.json) -OutputPath $Target -Format Html' }
        @{ ErrorId = 'ParameterArgumentValidationError'; Script = 'Get-TestReport -Path $Results -OutputPath $Target -Format Pdf' }
        @{ ErrorId = 'ReportNamesCollide'; Script = 'Get-TestReport -Path (Join-Path $Fixtures hostA), (Join-Path $Fixtures hostB) -OutputPath $Target -Format Html' }
        @{ ErrorId = 'LabelCountMismatch'; Script = "Get-TestReport -Path `$Results -Label 'one', 'two' -OutputPath `$Target -Format Html" }
        @{ ErrorId = 'FaultAtOutOfRange'; Script = 'Get-TestReport -Path $Results -FaultAt 0' }
        @{ ErrorId = 'FaultWindowInvalid'; Script = 'Get-TestReport -Path $Results -From 00:02:00 -To 00:01:00' }
        @{ ErrorId = 'AmbiguousParameterSet'; Script = 'Get-TestReport -Path $Results -FaultAt 00:01:00 -OutputPath $Target' }
        @{ ErrorId = 'MetadataNotFound'; Script = 'Get-TestReport -Path $Results -MetadataPath (Join-Path $Fixtures no-metadata.json) -OutputPath $Target -Format Html' }
        @{ ErrorId = 'MetadataMalformed'; Script = 'Get-TestReport -Path $Results -MetadataPath (Join-Path $Fixtures other.json) -OutputPath $Target -Format Html' }
    )
}

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $CommandName = 'ExchStorageTest.Commands.GetTestReportCommand'
    $Runs = Get-FinishedRun
    $FirstResults = $Runs.First.ResultsPath

    function Get-Snapshot([string] $Folder) {
        # Every entry with its size and time: a report rewritten in place changes it.
        foreach ($entry in Get-FolderEntry $Folder) {
            $item = Get-Item -LiteralPath (Join-Path $Folder $entry)
            '{0} {1} {2}' -f $entry, $(if ($item.PSIsContainer) { -1 } else { $item.Length }), $item.LastWriteTimeUtc.Ticks
        }
    }
}

Describe 'Get-TestReport' {
    BeforeEach { $Output = New-ScratchFolder 'gtr' }
    AfterEach { Remove-ScratchFolder $Output }

    It 'gives a report object of a finished run, and its HTML and ESRP files' {
        $report = Get-TestReport -Path $FirstResults -Format 'Html', 'Esrp' -OutputPath $Output
        $report.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestReport'
        $report.TestId | Should -Be $Runs.First.TestId
        Get-MissingViewedProperty $report | Should -BeNullOrEmpty
        $report.Result | Should -Be $Runs.First.Result
        $report.ResultsPath | Should -Be @($FirstResults)
        $report.Runs | Should -Be 1
        $report.Aggregate | Should -BeNullOrEmpty
        $report.Text | Should -BeLike '*Overall Test Result*'
        $report.Raw.runs | Should -Be 1 -Because 'the whole event is kept'

        # The files are the engine's renderings, named after the results file, in the folder asked for.
        $stem = [System.IO.Path]::GetFileNameWithoutExtension($FirstResults)
        $report.Files | Should -Be @((Join-Path $Output "$stem.html"), (Join-Path $Output "$stem.esrp.txt"))
        Get-FolderEntry $Output | Should -Be @("$stem.esrp.txt", "$stem.html")
        Get-Content -Raw -LiteralPath $report.Files[0] | Should -BeLike '<!DOCTYPE html>*'
        Get-Content -Raw -LiteralPath $report.Files[1] | Should -BeLike "*Number of servers tested`t1*"

        # Numbers come from the results file: the ESRP server row carries the run's achieved IOPS, and one
        # Transactional and one Total counter row per instance (two databases).
        $server = @($report.Esrp.servers)
        $server.Count | Should -Be 1
        [double]$server[0].achievedTransactionalIops | Should -BeGreaterOrEqual ($Runs.First.AchievedIops - 0.01)
        [double]$server[0].achievedTransactionalIops | Should -BeLessOrEqual ($Runs.First.AchievedIops + 0.01)
        @($report.Instances).Count | Should -Be 4
    }

    It 'returns the report and writes nothing without -Format' {
        $before = Get-Snapshot $Runs.Folder
        $report = Get-TestReport $FirstResults
        $report.Files | Should -BeNullOrEmpty
        Get-Snapshot $Runs.Folder | Should -Be $before
    }

    It 'returns the report and writes nothing with -WhatIf' {
        $report = Get-TestReport -Path $FirstResults -Format 'Html', 'Text' -OutputPath $Output -WhatIf
        $report.Files | Should -BeNullOrEmpty
        Get-FolderEntry $Output | Should -BeNullOrEmpty
    }

    It 're-judges nothing with -WhatIf, saying what it would judge' {
        $before = Get-Snapshot $Runs.Folder
        $text = Get-WhatIfText "Get-TestReport -Path '$FirstResults' -FaultAt 00:00:20 -StallLimit 00:00:05 -From 00:00:01"
        $text | Should -BeLike '*Re-judge the stored runs with the fault window from 00:00:20 into the measured window, lasting at most 00:01:00 (the default); stall limit 00:00:05; the sub-window 00:00:01 to *'
        Get-Snapshot $Runs.Folder | Should -Be $before
    }

    It 'binds a TestResult piped in by its ResultsPath' {
        $report = $Runs.First | Get-TestReport -Format Text -OutputPath $Output
        $report.ResultsPath | Should -Be @($FirstResults)
        @($report.Files).Count | Should -Be 1
        # The file is the report's text with the line ends of this OS (CRLF on Windows: OsDifferences.Tests.ps1).
        [System.IO.File]::ReadAllText($report.Files[0]).Replace("`r`n", "`n") | Should -BeExactly $report.Text
        # Rendered again elsewhere, the report names the run's own PerfMon log (it said "not written" beside it).
        $perfmon = Join-Path (Split-Path -Parent $FirstResults) ([System.IO.Path]::GetFileNameWithoutExtension($FirstResults) + '.perfmon.csv')
        Test-Path -LiteralPath $perfmon | Should -BeTrue
        $report.Text | Should -Match ('(?m)^  Performance Log\s+' + [regex]::Escape($perfmon) + '$')
    }

    It 'renders a run twice into one folder: the second time under the next free names, the first files kept' {
        # Under Wine a taken name found through a caught exception hangs the engine for ever (docs/windows.md).
        $stem = [System.IO.Path]::GetFileNameWithoutExtension($FirstResults)
        $first = Get-TestReport -Path $FirstResults -Format 'Html', 'Text' -OutputPath $Output
        @($first.Files | Sort-Object) | Should -Be @((Join-Path $Output "$stem.html"), (Join-Path $Output "$stem.txt"))
        $firstText = [System.IO.File]::ReadAllText((Join-Path $Output "$stem.txt"))
        $second = Get-TestReport -Path $FirstResults -Format 'Html', 'Text' -OutputPath $Output
        @($second.Files | Sort-Object) | Should -Be @((Join-Path $Output "$($stem)_2.html"), (Join-Path $Output "$($stem)_2.txt"))
        [System.IO.File]::ReadAllText((Join-Path $Output "$stem.txt")) | Should -BeExactly $firstText
        @(Get-FolderEntry $Output).Count | Should -Be 4
    }

    It 'merges two hosts of one run into an aggregate, with each host''s reports beside its results' {
        # Two hosts of one run: the same results with one run id (as a multi-host run's hosts record it), the second
        # saved by another machine (as the engine's own multi-host fixtures do); a profile JSON in the tree is not a
        # results file and is skipped.
        $hostA = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Output 'hostA')).FullName 'results.json'
        $hostB = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Output 'hostB')).FullName 'results.json'
        $json = [regex]::new('"testId": ').Replace([System.IO.File]::ReadAllText($FirstResults), '"runId": "gtr-run", "testId": ', 1)
        $machine = [regex]::Match($json, '"machineName": "([^"]*)"')
        $machine.Success | Should -BeTrue
        [System.IO.File]::WriteAllText($hostA, $json)
        [System.IO.File]::WriteAllText($hostB, $json.Replace($machine.Value, '"machineName": "' + $machine.Groups[1].Value + '-B"'))
        $null = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -DatabaseCount 2 -Path $Output -SaveTo (Join-Path $Output 'profile.json')

        $report = Get-TestReport -Path $Output -Format 'Html', 'Esrp'
        @($report).Count | Should -Be 1
        $report.RunId | Should -Be 'gtr-run'
        $report.ResultsPath | Should -Be @($hostA, $hostB)
        $report.Runs | Should -Be 1
        $report.Hosts | Should -Be 2
        $report.Aggregate.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ReportAggregate'
        $report.Aggregate.Hosts | Should -Be 2
        [Math]::Abs($report.Aggregate.TargetIops - 2 * $Runs.First.TargetIops) | Should -BeLessOrEqual 0.001
        [Math]::Abs($report.Aggregate.AchievedIops - 2 * $Runs.First.AchievedIops) | Should -BeLessOrEqual 0.02
        $report.Text | Should -BeLike '*run on 2 hosts:*'

        # Each host's reports beside its own results; the aggregate (text and ESRP) in the folder holding them all.
        $report.Files | Should -Contain (Join-Path (Join-Path $Output 'hostA') 'results.html')
        $report.Files | Should -Contain (Join-Path (Join-Path $Output 'hostB') 'results.esrp.txt')
        $aggregate = @($report.Files | Where-Object { [System.IO.Path]::GetFileName($_) -match '^Aggregate_.*\.esrp\.txt$' })
        $aggregate.Count | Should -Be 1
        [System.IO.Path]::GetDirectoryName($aggregate[0]) | Should -Be $Output
        Get-Content -Raw -LiteralPath $aggregate[0] | Should -BeLike "*Number of servers tested`t2*"
        foreach ($f in $report.Files) { Test-Path -LiteralPath $f | Should -BeTrue }
    }

    It 'never adds up hosts that were not one run, unless named one deployment' {
        # The two hosts of the test above without a run id in common: two machines that each ran on their own.
        $hostA = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Output 'hostA')).FullName 'results.json'
        $hostB = Join-Path (New-Item -ItemType Directory -Path (Join-Path $Output 'hostB')).FullName 'results.json'
        $json = [System.IO.File]::ReadAllText($FirstResults)
        $machine = [regex]::Match($json, '"machineName": "([^"]*)"')
        [System.IO.File]::WriteAllText($hostA, $json)
        [System.IO.File]::WriteAllText($hostB, $json.Replace($machine.Value, '"machineName": "' + $machine.Groups[1].Value + '-B"'))

        $reports = @(Get-TestReport -Path $Output -Format Esrp)
        $reports.Count | Should -Be 2
        foreach ($r in $reports) {
            $r.Hosts | Should -Be 1
            $r.Aggregate | Should -BeNullOrEmpty
            @($r.Esrp.servers).Count | Should -Be 1
        }
        @(Get-ChildItem -LiteralPath $Output -Filter 'Aggregate_*') | Should -BeNullOrEmpty -Because 'separate runs make no aggregate of "2 servers"'

        $deployment = @(Get-TestReport -Path $Output -Deployment)
        $deployment.Count | Should -Be 1
        $deployment[0].Hosts | Should -Be 2
        $deployment[0].Aggregate.Hosts | Should -Be 2
    }

    It 'reports two runs of one host each on its own, one CSV row each with its own figures' {
        $reports = @(Get-TestReport -Path $Runs.ResultsFolder)
        $reports.Count | Should -Be 2
        foreach ($r in $reports) {
            $r.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestReport'
            $r.Runs | Should -Be 1
            $r.Hosts | Should -Be 1
            $r.Aggregate | Should -BeNullOrEmpty
            $run = if ($r.ResultsPath[0] -eq $FirstResults) { $Runs.First } else { $Runs.Second }
            $r.TestId | Should -Be $run.TestId
            [Math]::Abs($r.AchievedIops - $run.AchievedIops) | Should -BeLessOrEqual 0.01
        }

        # Export-Csv and back: one row a run, its test id on one line, its figures filled, no type names.
        $csv = Join-Path $Output 'reports.csv'
        $reports | Export-Csv -LiteralPath $csv -NoTypeInformation
        Get-Content -Raw -LiteralPath $csv | Should -Not -Match 'System\.[A-Za-z]+\[\]|ExchStorageTest\.[A-Za-z]+\[\]|@\{'
        $rows = @(Import-Csv -LiteralPath $csv)
        $rows.Count | Should -Be 2
        for ($i = 0; $i -lt 2; $i++) {
            $rows[$i].TestId | Should -Be $reports[$i].TestId
            $rows[$i].Result | Should -Be $reports[$i].Result
            [double]$rows[$i].AchievedIops | Should -Be $reports[$i].AchievedIops
            [double]$rows[$i].DbReadLatencyAvgMs | Should -Be $reports[$i].DbReadLatencyAvgMs
            $rows[$i].HtmlReportPath | Should -Be $reports[$i].HtmlReportPath
        }

        # The instances are rows of their own type, shown as a table, not @{...}.
        $instances = $reports[0].Instances
        $instances[0].PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ReportInstance'
        $table = $instances | Format-Table | Out-String -Width 200
        $table | Should -Not -BeLike '*@{*'
        $table | Should -Match '(?m)^Machine\s+Table\s+Instance\s+DbReadAvgMs'
        $instances[0].DatabaseReadsAverageLatencyMs | Should -BeOfType [double]
    }

    It 'compares two runs of one host side by side when asked, and says they are separate runs' {
        $report = Get-TestReport -Path $Runs.ResultsFolder -Compare
        $report.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ReportComparison'
        $report.Statement | Should -BeLike 'A comparison of 2 separate runs*not added up*'
        $report.Text | Should -BeLike 'A comparison of 2 separate runs*'
        # Results file names are not zero-padded (Performance_2024_6_1_9_5_7, as Jetstress names them), so
        # the folder's order is not the runs' order; the comparison orders the runs by their start.
        @($report.Runs).Count | Should -Be 2
        @($report.Runs | ForEach-Object { $_.ResultsPath } | Sort-Object) | Should -Be @($FirstResults, $Runs.Second.ResultsPath | Sort-Object)
        @($report.Runs | ForEach-Object { $_.Hosts }) | Should -Be @(1, 1)
        @($report.Labels).Count | Should -Be 2
        $report | Format-List | Out-String -Width 300 | Should -Match '(?m)^Statement\s+: A comparison of 2 separate runs'
        # Export-Csv: one row, every column text a person reads (runs, rows, labels), no type names.
        $csv = Join-Path $Output 'comparison.csv'
        $report | Export-Csv -LiteralPath $csv -NoTypeInformation
        Get-Content -Raw -LiteralPath $csv | Should -Not -Match 'System\.[A-Za-z.]+\[\]|ExchStorageTest\.[A-Za-z]+\[\]|@\{'
        (Import-Csv -LiteralPath $csv).Rows | Should -Match '(?m)^Achieved Transactional I/O per Second: '
        $achieved = @($report.Rows | Where-Object { $_.metric -eq 'Achieved Transactional I/O per Second' })
        $achieved.Count | Should -Be 1
        [Math]::Abs([double]$achieved[0].values[0] - $Runs.First.AchievedIops) | Should -BeLessOrEqual 0.01
        [Math]::Abs([double]$achieved[0].values[1] - $Runs.Second.AchievedIops) | Should -BeLessOrEqual 0.01
    }

    It 'compares runs given a label each under their labels on one page' {
        $report = Get-TestReport -Path $FirstResults, $Runs.Second.ResultsPath -Label 'before firmware', 'after firmware' -Format Html -OutputPath $Output
        $report.Labels | Should -Be @('before firmware', 'after firmware')
        $report.HtmlReportPath | Should -BeLike (Join-Path $Output 'Comparison_*.html')
        @(Get-ChildItem -LiteralPath $Output -Filter '*.esrp.*') | Should -BeNullOrEmpty -Because 'runs compared are not one deployment'
        @(Get-ChildItem -LiteralPath $Output -Filter 'Aggregate_*') | Should -BeNullOrEmpty
        $page = @(Get-ChildItem -LiteralPath $Output -Filter 'Comparison_*.html')
        $page.Count | Should -Be 1
        $charts = [regex]::Matches((Get-Content -Raw -LiteralPath $page[0].FullName), '<svg class="chart".*?</svg>', 'Singleline')
        $charts.Count | Should -BeGreaterThan 0
        foreach ($c in $charts) {
            $c.Value | Should -BeLike '*>after firmware</text>*'
            $c.Value | Should -BeLike '*>before firmware</text>*'
        }
    }

    It 'fills the rows no host can discover from the vendor''s metadata file' {
        $report = Get-TestReport -Path $FirstResults -MetadataPath (Join-Path (Get-RepositoryRoot) 'docs/esrp-metadata.example.json')
        $items = @($report.Esrp.deployment | ForEach-Object { $_.items })
        $cache = @($items | Where-Object { $_.label -eq 'Storage cache' })
        $cache[0].value | Should -Be '16 GB'
        $cache[0].supplied | Should -BeTrue
        @($items | Where-Object { $_.label -eq 'RAID level' -and $_.value -eq '(to be supplied)' }) | Should -BeNullOrEmpty
    }

    It 'refuses a metadata row no table has, by name, before any file is written' {
        $metaFolder = New-ScratchFolder 'gtr-meta'
        try {
            $metadata = Join-Path $metaFolder 'esrp.json'
            Set-Content -LiteralPath $metadata -Value '{ "schema": "exchstoragetest/esrp-metadata", "values": { "RAID Levle": "RAID 10" } }'
            $caught = $null
            try { Get-TestReport -Path $FirstResults -MetadataPath $metadata -Format 'Html', 'EsrpHtml' -OutputPath $Output } catch { $caught = $_ }
            $caught.FullyQualifiedErrorId | Should -Be "ExchStorageTest.MetadataUnknownLabel,$CommandName"
            $caught.TargetObject | Should -Be 'RAID Levle'
            $caught.Exception.Message | Should -BeLike '*did you mean "RAID level"?*'
            Get-FolderEntry $Output | Should -BeNullOrEmpty
        }
        finally {
            Remove-ScratchFolder $metaFolder
        }
    }
}

Describe 'Get-TestReport with bad input' {
    BeforeEach {
        $Target = New-ScratchFolder 'gtr'
        $Fixtures = New-ScratchFolder 'gtr-fix'
        $null = New-Item -ItemType Directory -Path (Join-Path $Fixtures 'empty-folder'), (Join-Path $Fixtures 'hostA'), (Join-Path $Fixtures 'hostB')
        Set-Content -LiteralPath (Join-Path $Fixtures 'empty-folder/profile.json') -Value '{ "schema": "exchstoragetest/profile" }'
        Set-Content -LiteralPath (Join-Path $Fixtures 'other.json') -Value '{ "schema": "something/else" }'
        Copy-Item -LiteralPath $FirstResults -Destination (Join-Path $Fixtures 'hostA/results.json')
        Copy-Item -LiteralPath $FirstResults -Destination (Join-Path $Fixtures 'hostB/results.json')
        $FixtureEntries = Get-FolderEntry $Fixtures
        $RunsBefore = Get-Snapshot $Runs.Folder
        $Results = $FirstResults
    }
    AfterEach { Remove-ScratchFolder $Target, $Fixtures }

    It 'is refused with <ErrorId> and nothing is written: <Script>' -ForEach $BadInputs {
        $caught = $null
        $output = @(try { & ([scriptblock]::Create($Script + ' -Verbose')) 4>&1 } catch { $caught = $_ })
        $verbose = @($output | Where-Object { $_ -is [System.Management.Automation.VerboseRecord] })
        @($output | Where-Object { $_ -isnot [System.Management.Automation.VerboseRecord] }) | Should -BeNullOrEmpty
        $expected = if ($ErrorId -like 'Parameter*' -or $ErrorId -eq 'AmbiguousParameterSet') { $ErrorId } else { "ExchStorageTest.$ErrorId" }
        $caught.FullyQualifiedErrorId | Should -Be "$expected,$CommandName"
        Get-FolderEntry $Target | Should -BeNullOrEmpty
        Get-FolderEntry $Fixtures | Should -Be $FixtureEntries
        Get-Snapshot $Runs.Folder | Should -Be $RunsBefore
        if ($ErrorId -eq 'LabelCountMismatch' -or $ErrorId -like 'Parameter*' -or $ErrorId -eq 'AmbiguousParameterSet' -or $ErrorId -like 'Fault*' -or $Script.StartsWith('[pscustomobject]')) {
            # What is PowerShell's (parameters, nothing given) is refused before the engine starts; the rest
            # (finding the results files, the output folder, name collisions, contents) is the engine's.
            @($verbose | Where-Object { $_.Message -like 'ExchStorageTest engine*' }) | Should -BeNullOrEmpty
        }
    }
}
