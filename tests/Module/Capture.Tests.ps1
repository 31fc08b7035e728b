# New-MailboxProfile -CapturePath end to end in real pwsh: PerfMon captures as relog writes them (the fixtures under
# tests/ExchStorageTest.Engine.Tests/Fixtures/Capture, docs/capture.md), the engine's capture command behind
# the cmdlet; -WhatIf shows the derivation and writes nothing; bad captures stop with their named error and write
# nothing; one short run of a capture profile carries the capture's line in its result, reports, results file and console view.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $script:Fixtures = (Resolve-Path (Join-Path $PSScriptRoot '../../tests/ExchStorageTest.Engine.Tests/Fixtures/Capture')).Path
    $script:Four = Join-Path $Fixtures 'ex01-ex04.csv'
    $script:ErrorSuffix = ',ExchStorageTest.Commands.NewMailboxProfileCommand'
}

Describe 'New-MailboxProfile -CapturePath' -Tag 'Needs:PowerShell7' {
    BeforeEach { $Dir = New-ScratchFolder 'capture' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'makes the four servers'' capture a profile at 1.3x their busiest hour, 10:00-11:00: 5210.4 IOPS over 4 servers, 1000 mailboxes each' -Skip:(Test-Missing PowerShell7) {
        $before = @(Get-FolderEntry $Dir)

        $p = New-MailboxProfile -CapturePath $Four -GrowthFactor 1.3 -MailboxSizeMB 2048 -Path $Dir

        $p.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.MailboxProfile'
        $p.MailboxCount | Should -Be 1000
        $p.TargetIops | Should -Be 1302.6
        $p.DatabaseCount | Should -Be 2
        $c = $p.Capture
        $c.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.CaptureTargets'
        $c.Servers | Should -Be @('EX01', 'EX02', 'EX03', 'EX04')
        $c.WindowStart | Should -Be '2026-11-02 10:00'
        $c.DatabaseIops | Should -Be 4008
        $c.TestedIops | Should -Be 5210.4
        @(Get-FolderEntry $Dir) | Should -Be $before
    }

    It '-WhatIf shows the derivation, per server and database, and where each figure came from, and saves nothing' -Skip:(Test-Missing PowerShell7) {
        $save = Join-Path $Dir 'p.json'
        $text = Get-WhatIfText "New-MailboxProfile -CapturePath '$Four' -GrowthFactor 1.3 -MailboxSizeMB 2048 -Path '$Dir' -SaveTo '$save'"
        $text | Should -BeLike '*Busiest hour of EX01-EX04: 10:00-11:00 on 2026-11-02 (Pacific Standard Time): 4008 attached database IOPS*'
        $text | Should -BeLike '*EX03: 958 database IOPS*'
        $text | Should -BeLike '*DB05: 479 IOPS*'
        $text | Should -BeLike '*Target: 4008 x 1.3 (growth factor) = 5210.4 database IOPS for 4 servers, 1302.6 per server.*'
        $text | Should -BeLike "*1000 mailboxes per server (from the capture's Active mailboxes (4000 on 4 servers))*"
        Test-Path -LiteralPath $save | Should -BeFalse
    }

    It 'refuses <Case> with <ErrorId>, naming <Names>, and writes nothing (not even -SaveTo)' -Skip:(Test-Missing PowerShell7) -TestCases @(
        @{ Case = 'a file that is not a capture'; ErrorId = 'CaptureNotPerfmon'; Names = 'notes.csv'; Lines = @('"Name","Size"', '"DB01","100"'); Size = 2048 }
        @{ Case = 'a capture shorter than an hour'; ErrorId = 'CaptureTooShort'; Names = "server 'EX07' has 40 samples"; Lines = 41; Size = 2048 }
        @{ Case = 'no mailbox size'; ErrorId = 'CaptureFigureMissing'; Names = '-MailboxSizeMB'; Lines = 76; Size = $null }
    ) {
        $capture = Join-Path $Dir 'notes.csv'
        if ($Lines -is [int]) { Get-Content -LiteralPath (Join-Path $Fixtures 'ex07.tsv') -TotalCount $Lines | Set-Content -LiteralPath $capture }
        else { Set-Content -LiteralPath $capture -Value $Lines }
        $before = @(Get-FolderEntry $Dir)
        $save = Join-Path $Dir 'p.json'
        $size = if ($null -ne $Size) { @{ MailboxSizeMB = $Size } } else { @{} }

        $err = { New-MailboxProfile -CapturePath $capture -Path $Dir -SaveTo $save @size } | Should -Throw -ErrorId "ExchStorageTest.$ErrorId$script:ErrorSuffix" -PassThru
        $err.Exception.Message | Should -BeLike "*$Names*"
        Test-Path -LiteralPath $save | Should -BeFalse
        @(Get-FolderEntry $Dir) | Should -Be $before
    }
}

Describe 'A capture profile''s run, judged against the capture' -Tag 'Needs:PowerShell7' {
    BeforeAll {
        $script:RunDir = New-ScratchFolder 'capturerun'
        $db = (New-Item -ItemType Directory -Path (Join-Path $RunDir 'db')).FullName
        # EX07's busiest hour (400 database IOPS) as 40 mailboxes of 1 MB on 2 small databases: a short run here carries what it can.
        $profile = New-MailboxProfile -CapturePath (Join-Path $Fixtures 'ex07.tsv') -GrowthFactor 1.0 -MailboxCount 40 -MailboxSizeMB 1 -Path $db -MinimumDatabaseCacheMB 4 -MaximumDatabaseCacheMB 8 -ThreadCount 2
        $script:Result = $profile | Invoke-StorageTest -Duration 00:00:12 -Warmup 00:00:02 -SampleIntervalSeconds 1 -OutputPath (Join-Path $RunDir 'Results') -Force
    }
    AfterAll { Remove-ScratchFolder $RunDir }

    It 'returns the capture''s line, computed from the run: the target and what was achieved at what latency' -Skip:(Test-Missing PowerShell7) {
        $Result.CaptureCheck | Should -Match '^Tested at 1x the busiest hour of EX07 \(13:15-14:15 on 2026-11-04\): 400 IOPS; achieved [\d,]+ at \d+\.\d ms: (meets it|short of it \(\d+(\.\d)?%\)|reaches it, but its read latency broke the test''s limit)\.$'
        $achieved = [double]($Result.CaptureCheck -replace '^.*achieved ([\d,]+) at.*$', '$1').Replace(',', '')
        $achieved | Should -Be ([math]::Round($Result.AchievedIops, 0))
        ($Result | Format-List | Out-String) | Should -BeLike "*CaptureCheck*: $($Result.CaptureCheck.Substring(0, 40))*"
    }

    It 'prints the Capture Check in the text and HTML reports and keeps it in the results file' -Skip:(Test-Missing PowerShell7) {
        $text = Get-Content -Raw -LiteralPath ($Result.ReportPath | Where-Object { $_ -like '*.txt' -and $_ -notlike '*.esrp.txt' } | Select-Object -First 1)
        $text | Should -BeLike "*Capture Check (EX07, 13:15-14:15 on 2026-11-04)*$($Result.CaptureCheck)*"
        Get-Content -Raw -LiteralPath $Result.HtmlReportPath | Should -BeLike '*<legend>Capture Check (EX07*'
        $doc = Get-Content -Raw -LiteralPath $Result.ResultsPath | ConvertFrom-Json
        $doc.profile.capture.testedIops | Should -Be 400
        $doc.captureCheck.line | Should -Be $Result.CaptureCheck
    }
}
