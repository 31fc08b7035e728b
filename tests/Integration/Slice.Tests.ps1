#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# The foundation slice against the real engine helper on a tiny profile in $TestDrive.
# Skips, with the reason, when the helper has not been built (./build.ps1 Build).

BeforeDiscovery {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
    $enginePath = $null
    $skipReason = $null
    try {
        $enginePath = & (Get-Module -Name ExchStorageTest) { Get-EnginePath }
    }
    catch {
        $skipReason = "engine helper not built: $($_.Exception.Message)"
    }
    $skip = $null -ne $skipReason
    if ($skip) {
        Write-Warning -Message "Integration tests skipped: $skipReason"
    }
}

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Foundation slice with the real engine' -Skip:$skip {
    It 'New-MailboxProfile ... -Path $dir | Invoke-StorageTest -Duration 00:00:30 returns a TestResult with results on disk' {
        $dir = Join-Path -Path $TestDrive -ChildPath 'db'
        $null = New-Item -Path $dir -ItemType Directory
        $output = Join-Path -Path $TestDrive -ChildPath 'out'
        $result = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $dir |
            Invoke-StorageTest -Duration 00:00:30 -SampleIntervalSeconds 1 -OutputPath $output -AllowBufferedIo -Confirm:$false

        @($result).Count | Should -Be 1
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestResult'
        $result.Result | Should -BeIn @('Pass', 'Fail')
        $result.Completion | Should -Be 'Complete'
        $result.TargetIops | Should -Be 50
        $result.AchievedIops | Should -BeGreaterThan 0
        Test-Path -LiteralPath $result.ResultsPath | Should -BeTrue
        $document = Get-Content -LiteralPath $result.ResultsPath -Raw | ConvertFrom-Json
        $document.schema | Should -Be 'exchstoragetest/results'
        $document.testId | Should -Be $result.TestId
    }

    It 'plans without writing under -WhatIf' {
        $dir = Join-Path -Path $TestDrive -ChildPath 'whatif'
        $null = New-Item -Path $dir -ItemType Directory
        New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -Path $dir | Invoke-StorageTest -Duration 00:00:05 -WhatIf
        @(Get-ChildItem -LiteralPath $dir -Recurse -Force).Count | Should -Be 0
    }

    It 'refuses bad input through the engine with a stable ErrorId and writes nothing' {
        $dir = Join-Path -Path $TestDrive -ChildPath 'huge'
        $null = New-Item -Path $dir -ItemType Directory
        # 1,000,000 mailboxes x 1 TB cannot fit on a test machine.
        { New-MailboxProfile -MailboxCount 1000000 -IopsPerMailbox 0.1 -MailboxSizeMB 1048576 -DatabaseCount 100 -Path $dir | Invoke-StorageTest -Duration 00:00:05 -Confirm:$false } |
            Should -Throw -ErrorId 'ExchStorageTest.*'
        @(Get-ChildItem -LiteralPath $dir -Recurse -Force).Count | Should -Be 0
    }
}
