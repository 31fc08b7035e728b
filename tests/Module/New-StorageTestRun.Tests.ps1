# New-StorageTestRun: the start file on a share, written once, never over something else.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $FullyQualified = ',ExchStorageTest.Commands.NewStorageTestRunCommand'
}

Describe 'New-StorageTestRun' {
    BeforeEach { $Dir = New-ScratchFolder 'nsr' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'writes the start file and the results folder' {
        $folder = Join-Path $Dir 'share/run1'
        $at = [DateTime]::UtcNow.AddMinutes(30)
        $run = New-StorageTestRun -Path $folder -StartAtUtc $at -HostCount 4
        $run.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.StorageTestRun'
        $startFile = Join-Path $folder 'start.json'
        $run.StartFile | Should -Be $startFile
        $run.ResultsPath | Should -Be (Join-Path $folder 'results')
        Test-Path -LiteralPath (Join-Path $folder 'results') -PathType Container | Should -BeTrue
        $run.HostCount | Should -Be 4
        $run.StartAtUtc.Kind | Should -Be 'Utc'
        [Math]::Abs(($run.StartAtUtc - $at).TotalMilliseconds) | Should -BeLessThan 1

        $json = Get-Content -Raw -LiteralPath $startFile | ConvertFrom-Json
        $json.schema | Should -Be 'exchstoragetest/run'
        $json.schemaVersion | Should -Be 1
        $json.runId | Should -Be $run.RunId
        $json.hostCount | Should -Be 4
        # Read as text: ConvertFrom-Json turns dates into local DateTime values in PowerShell 7, strings in 5.1.
        $written = [regex]::Match((Get-Content -Raw -LiteralPath $startFile), '"startAtUtc":\s*"([^"]+)"').Groups[1].Value
        [DateTime]::Parse($written, [Globalization.CultureInfo]::InvariantCulture, 'AdjustToUniversal') | Should -Be $run.StartAtUtc
        $json.createdBy | Should -Be ([Environment]::MachineName)
    }

    It 'takes a local time as the instant it names' {
        $local = [DateTime]::Now.AddMinutes(10)
        $run = New-StorageTestRun -Path $Dir -StartAtUtc $local
        [Math]::Abs(($run.StartAtUtc - $local.ToUniversalTime()).TotalMilliseconds) | Should -BeLessThan 1
        $run.HostCount | Should -BeNullOrEmpty
    }

    It 'keeps an existing start file without -Force and replaces it with -Force' {
        $first = New-StorageTestRun -Path $Dir -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5))
        $startFile = Join-Path $Dir 'start.json'
        $before = Get-Content -Raw -LiteralPath $startFile

        $caught = $null
        try { New-StorageTestRun -Path $Dir -StartAtUtc ([DateTime]::UtcNow.AddMinutes(20)) } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartFileExists' + $FullyQualified)
        $caught.TargetObject | Should -Be $startFile
        Get-Content -Raw -LiteralPath $startFile | Should -Be $before

        $forced = New-StorageTestRun -Path $Dir -StartAtUtc ([DateTime]::UtcNow.AddMinutes(20)) -Force
        $forced.RunId | Should -Not -Be $first.RunId
        Get-Content -Raw -LiteralPath $startFile | Should -BeLike "*$($forced.RunId)*"
    }

    It 'does not replace a file that is not a start file, even with -Force' {
        $foreign = Join-Path $Dir 'start.json'
        [System.IO.File]::WriteAllText($foreign, "someone else's notes")
        { New-StorageTestRun -Path $Dir -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5)) -Force } | Should -Throw -ErrorId ('ExchStorageTest.StartFileMalformed' + $FullyQualified)
        [System.IO.File]::ReadAllText($foreign) | Should -Be "someone else's notes"
        Get-FolderEntry $Dir | Should -Be @('start.json')
    }

    It 'refuses an instant in the past before anything is written' {
        $past = [DateTime]::UtcNow.AddMinutes(-1)
        $caught = $null
        try { New-StorageTestRun -Path (Join-Path $Dir 'run') -StartAtUtc $past } catch { $caught = $_ }
        $caught.FullyQualifiedErrorId | Should -Be ('ExchStorageTest.StartTimeOutOfRange' + $FullyQualified)
        $caught.CategoryInfo.Category | Should -Be 'InvalidArgument'
        $caught.Exception.Message | Should -BeLike "*$($past.ToString('yyyy-MM-ddTHH:mm:ss'))*"
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'writes nothing with -WhatIf' {
        $output = @(New-StorageTestRun -Path (Join-Path $Dir 'run') -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5)) -WhatIf)
        $output | Should -BeNullOrEmpty
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }
}
