# New-MailboxProfile -CalculatorPath end to end in real pwsh: workbooks written with the Open XML SDK holding the
# Exchange 2013 calculator 7.6 example's labels and values, the Servers.csv ExchangeDsc ships (written by tests/Support/CalculatorWorkbook.psm1), the engine's
# calculator command behind the cmdlet; bad workbooks stop with their named error and write nothing; a short run of a
# calculator profile carries the calculator's targets beside what it achieved, in its result and in its reports.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-Module (Join-Path $PSScriptRoot '../Support/CalculatorWorkbook.psm1')
    Import-ExchStorageTest
    # Outside every test's scratch folder, which the tests check is left as it was.
    $script:ServersCsv = New-ServersCsv -Path (Join-Path $TestDrive 'Servers.csv')
    $script:ErrorSuffix = ',ExchStorageTest.Commands.NewMailboxProfileCommand'
}

Describe 'New-MailboxProfile -CalculatorPath' -Tag 'Needs:PowerShell7' {
    BeforeEach { $Dir = New-ScratchFolder 'calc' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'gives the example: 2500 mailboxes on 40 databases of 664.67 GB at the calculator''s 402 IOPS, its targets kept, each server''s mount points, nothing written' -Skip:(Test-Missing PowerShell7) {
        $workbook = New-CalculatorWorkbook -Path (Join-Path $Dir 'E2013Calcv7.6 - Example.xlsm')
        $before = @(Get-FolderEntry $Dir)

        $p = @(New-MailboxProfile -CalculatorPath $workbook -ServersCsv $script:ServersCsv)

        $p.Count | Should -Be 1
        $p[0].PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.MailboxProfile'
        $p[0].Name | Should -Be 'E2013Calcv7.6 - Example'
        $p[0].MailboxCount | Should -Be 2500
        $p[0].IopsPerMailbox | Should -Be 0.1608
        $p[0].TargetIops | Should -Be 402
        $p[0].DatabaseCount | Should -Be 40
        [math]::Round($p[0].DatabaseSizeMB / 1024, 2) | Should -Be 664.67
        $p[0].CopiesPerDatabase | Should -Be 4
        $p[0].DatabasePaths.Count | Should -Be 40
        $p[0].DatabasePaths[0] | Should -Be 'C:\ExchangeDatabases\DAG-nn-DB01'
        $p[0].Servers.Count | Should -Be 0
        $t = $p[0].Calculator
        $t.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.CalculatorTargets'
        $t.DatabaseIops | Should -Be 402
        $t.LogIops | Should -Be 88.44
        $t.MaintenanceMBPerSecond | Should -Be 40
        $t.DatabaseReadShare | Should -Be 0.6
        $t.Servers | Should -Be @('srv-nn-01', 'srv-nn-02', 'srv-nn-03', 'srv-nn-04')
        @(Get-FolderEntry $Dir) | Should -Be $before
    }

    It 'keeps the targets and each server''s databases through -SaveTo and a profile file, and a host that is none of the servers is refused' -Skip:(Test-Missing PowerShell7) {
        $workbook = New-CalculatorWorkbook -Path (Join-Path $Dir 'design.xlsx')
        $csv = Join-Path $Dir 'Servers.csv'
        # Servers holding different databases: the second server's map starts at DB41.
        (Get-Content -Raw -LiteralPath $script:ServersCsv).Replace('srv-nn-02,5,4,1,0,"C:\ExchangeVolumes","C:\ExchangeDatabases","DAG-nn-DB01,', 'srv-nn-02,5,4,1,0,"C:\ExchangeVolumes","C:\ExchangeDatabases","DAG-nn-DB41,') |
            Set-Content -LiteralPath $csv -NoNewline
        $file = Join-Path $Dir 'design.profile.json'

        $p = New-MailboxProfile -CalculatorPath $workbook -ServersCsv $csv -SaveTo $file
        $p.Servers.Count | Should -Be 4
        $p.Servers[1].Name | Should -Be 'srv-nn-02'
        $p.Servers[1].DatabasePaths[0] | Should -Be 'C:\ExchangeDatabases\DAG-nn-DB41'
        $saved = Get-Content -Raw -LiteralPath $file | ConvertFrom-Json
        $saved.calculator.databaseIops | Should -Be 402
        $saved.servers[1].name | Should -Be 'srv-nn-02'

        # The file read back keeps the layout: this machine is none of the calculator's servers, so its plan is refused.
        $err = { Invoke-StorageTest -ProfilePath $file -Duration 00:00:10 -Force } | Should -Throw -ErrorId 'ExchStorageTest.ServerLayoutNotFound,ExchStorageTest.Commands.InvokeStorageTestCommand' -PassThru
        $err.Exception.Message | Should -BeLike '*srv-nn-01, srv-nn-02, srv-nn-03, srv-nn-04*'

        # -Path replaces the calculator's per-server folders: every host tests the folders given.
        (New-MailboxProfile -CalculatorPath $workbook -ServersCsv $csv -Path $Dir).Servers.Count | Should -Be 0
    }

    It 'finds Servers.csv beside the workbook' -Skip:(Test-Missing PowerShell7) {
        $workbook = New-CalculatorWorkbook -Path (Join-Path $Dir 'design.xlsm')
        Copy-Item -LiteralPath $script:ServersCsv -Destination (Join-Path $Dir 'Servers.csv')
        (New-MailboxProfile -CalculatorPath $workbook).DatabasePaths[39] | Should -Be 'C:\ExchangeDatabases\DAG-nn-DB40'
    }

    It '-WhatIf shows the mapping: the targets, and each server''s databases, folders and volumes' -Skip:(Test-Missing PowerShell7) {
        $workbook = New-CalculatorWorkbook -Path (Join-Path $Dir 'design.xlsm')
        $text = Get-WhatIfText "New-MailboxProfile -CalculatorPath '$workbook' -ServersCsv '$($script:ServersCsv)'"
        $text | Should -BeLike '*2500 mailboxes at 0.1608 IOPS each (402 target IOPS), 40 databases of 664.67 GB, 4 copies each*'
        $text | Should -BeLike "*402 database IOPS, 88.44 log IOPS, 60% database reads, 40 MB/s of background maintenance*"
        $text | Should -BeLike '*Server srv-nn-04*'
        $text | Should -Match 'volume\s+10\s+DAG-nn-DB40\s+-> C:\\ExchangeDatabases\\DAG-nn-DB40'
    }

    It 'refuses <Case> with <ErrorId>, naming <Names>, and writes nothing (not even -SaveTo)' -Skip:(Test-Missing PowerShell7) -TestCases @(
        @{ Case = 'a file that is not a workbook'; ErrorId = 'CalculatorNotWorkbook'; Names = 'notes.xlsm'; Role = $null; InputCells = $null; ErrorCell = @() }
        @{ Case = 'another calculator version'; ErrorId = 'CalculatorVersionUnsupported'; Names = '9.1'; Role = @{}; InputCells = @{ B1 = 'Exchange 2016 Server Role Requirements Calculator'; G2 = 'Version: 9.1' }; ErrorCell = @() }
        @{ Case = 'a missing label'; ErrorId = 'CalculatorLabelMissing'; Names = 'Total Log Required IOPS'; Role = @{ B282 = $null }; InputCells = @{}; ErrorCell = @() }
        @{ Case = 'a #VALUE! beside a label'; ErrorId = 'CalculatorCellError'; Names = "'Role Requirements'!C101"; Role = @{ C101 = '#VALUE!' }; InputCells = @{}; ErrorCell = @('C101') }
    ) {
        $workbook = Join-Path $Dir 'notes.xlsm'
        if ($null -eq $Role) { Set-Content -LiteralPath $workbook -Value 'not a workbook' }
        else { $null = New-CalculatorWorkbook -Path $workbook -Role $Role -InputCells $InputCells -ErrorCell $ErrorCell }
        $before = @(Get-FolderEntry $Dir)
        $save = Join-Path $Dir 'p.json'

        $err = { New-MailboxProfile -CalculatorPath $workbook -ServersCsv $script:ServersCsv -SaveTo $save } | Should -Throw -ErrorId "ExchStorageTest.$ErrorId$script:ErrorSuffix" -PassThru
        $err.Exception.Message | Should -BeLike "*$Names*"
        Test-Path -LiteralPath $save | Should -BeFalse
        @(Get-FolderEntry $Dir) | Should -Be $before
    }
}

Describe 'A calculator profile''s run, judged against the design' -Tag 'Needs:PowerShell7' {
    BeforeAll {
        $script:RunDir = New-ScratchFolder 'calcrun'
        # A small design a short run on this machine can carry: 40 mailboxes on 2 databases of 10 MB, 6 database IOPS,
        # 0.5 log IOPS, 60% reads, 0.5 MB/s of maintenance per server.
        $script:Workbook = New-CalculatorWorkbook -Path (Join-Path $RunDir 'lab.xlsx') -Role @{
            C101 = 40.0; C102 = 2.0; C274 = (10.0 / 1024); D281 = 6.0; D282 = 0.5; D284 = 0.5; E240 = 2.0
        }
        $db = (New-Item -ItemType Directory -Path (Join-Path $RunDir 'db')).FullName
        $profile = New-MailboxProfile -CalculatorPath $Workbook -Path $db -MinimumDatabaseCacheMB 4 -MaximumDatabaseCacheMB 8 -ThreadCount 2
        # The profile as a remote session hands it to a host's Invoke-StorageTest: deserialized.
        $deserialized = [System.Management.Automation.PSSerializer]::Deserialize([System.Management.Automation.PSSerializer]::Serialize($profile))
        $script:Result = $deserialized | Invoke-StorageTest -Duration 00:00:12 -Warmup 00:00:02 -SampleIntervalSeconds 1 -OutputPath (Join-Path $RunDir 'Results') -Force
    }
    AfterAll { Remove-ScratchFolder $RunDir }

    It 'returns the calculator''s targets beside the achieved figures with a verdict line for each' -Skip:(Test-Missing PowerShell7) {
        $check = $Result.CalculatorCheck
        $check.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.CalculatorCheck'
        $check.Rows.Metric | Should -Be @('DatabaseIops', 'LogIops', 'DatabaseReadShare', 'MaintenanceMBPerSecond')
        $check.Rows[0].Target | Should -Be 6
        $check.Rows[1].Target | Should -Be 0.5
        $check.Rows[0].Achieved | Should -BeGreaterThan 0
        $check.Rows[0].Line | Should -Match "^(Meets|Falls short of|Reaches) the calculator's 6 database IOPS per server"
        $check.Rows[0].Line | Should -Match 'ms average read latency'
        $check.Rows | ForEach-Object { $_.Verdict | Should -BeIn @('Meets', 'Short', 'Matches', 'Differs', 'NotMeasured') }
        $Result.Result | Should -BeIn @('Pass', 'Fail')
    }

    It 'prints the Calculator Design Check in the text, HTML and XML reports, and keeps it in the results file' -Skip:(Test-Missing PowerShell7) {
        $text = Get-Content -Raw -LiteralPath ($Result.ReportPath | Where-Object { $_ -like '*.txt' -and $_ -notlike '*.esrp.txt' } | Select-Object -First 1)
        $text | Should -BeLike '*Calculator Design Check (Exchange 2013 Server Role Requirements Calculator 7.6, lab.xlsx)*'
        $text | Should -BeLike "*the calculator's 6 database IOPS per server*"
        Get-Content -Raw -LiteralPath $Result.HtmlReportPath | Should -BeLike '*<legend>Calculator Design Check*'
        Get-Content -Raw -LiteralPath ($Result.ReportPath | Where-Object { $_ -like '*.xml' } | Select-Object -First 1) | Should -BeLike '*<calculator-design-check *'
        $doc = Get-Content -Raw -LiteralPath $Result.ResultsPath | ConvertFrom-Json
        $doc.profile.calculator.databaseIops | Should -Be 6
        $doc.calculatorCheck.rows[0].line | Should -Be $Result.CalculatorCheck.Rows[0].Line
    }
}
