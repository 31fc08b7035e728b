#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Catalogue of bad inputs. Each must stop with a terminating error whose ErrorId is stable
# (documented in docs/about_ExchStorageTest.md) and must leave the target folder ($TestDrive)
# untouched: nothing may be written before validation passes. The engine is mocked to fail the
# test if it is ever called, which proves the refusal happens in the module, before the engine.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force

    # Fixture files live outside $TestDrive so $TestDrive stays empty as the target folder.
    $fixtures = Join-Path -Path ([System.IO.Path]::GetTempPath()) -ChildPath ('exchstoragetest-badinput-' + [guid]::NewGuid().ToString('N'))
    $null = New-Item -Path $fixtures -ItemType Directory
    $null = New-Item -Path (Join-Path -Path $fixtures -ChildPath 'empty-folder') -ItemType Directory
    $utf8 = New-Object -TypeName System.Text.UTF8Encoding -ArgumentList $false
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'malformed.json'), '{ "mailboxCount": 10, ', $utf8)
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'array.json'), '[1, 2, 3]', $utf8)
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'zero-mailboxes.json'), '{ "name": "x", "mailboxCount": 0, "iopsPerMailbox": 0.1, "mailboxSizeMB": 10, "databaseCount": 1, "databasePaths": ["/tmp"] }', $utf8)
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'malformed.xml'), '<configuration><ExchangeProfile><MailboxCount>10</MailboxCount>', $utf8)
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'no-mailboxcount.xml'), '<configuration><ExchangeProfile><MailboxIops>0.1</MailboxIops><MailboxQuota>100</MailboxQuota></ExchangeProfile></configuration>', $utf8)
    [System.IO.File]::WriteAllText((Join-Path -Path $fixtures -ChildPath 'other.json'), '{ "schema": "something/else" }', $utf8)

    function New-SmallProfile {
        New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive
    }
}

AfterAll {
    if ($fixtures -and (Test-Path -LiteralPath $fixtures)) {
        Remove-Item -LiteralPath $fixtures -Recurse -Force
    }
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Bad input is refused with a stable ErrorId before anything is written' {
    BeforeEach {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -MockWith { throw 'The engine must not be called for bad input.' }
    }

    It '<Name> -> <ErrorId>' -ForEach @(
        @{ Name = 'MailboxCount 0'; ErrorId = 'ExchStorageTest.InvalidMailboxCount'; Action = { New-MailboxProfile -MailboxCount 0 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'MailboxCount negative'; ErrorId = 'ExchStorageTest.InvalidMailboxCount'; Action = { New-MailboxProfile -MailboxCount -5 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'IopsPerMailbox 0'; ErrorId = 'ExchStorageTest.InvalidIopsPerMailbox'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'IopsPerMailbox negative'; ErrorId = 'ExchStorageTest.InvalidIopsPerMailbox'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox -0.1 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'IopsPerMailbox above 100'; ErrorId = 'ExchStorageTest.InvalidIopsPerMailbox'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 1000 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'MailboxSizeMB 0'; ErrorId = 'ExchStorageTest.InvalidMailboxSize'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 0 -Path $TestDrive } }
        @{ Name = 'DatabaseCount 0'; ErrorId = 'ExchStorageTest.InvalidDatabaseCount'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 0 -Path $TestDrive } }
        @{ Name = 'more databases than mailboxes'; ErrorId = 'ExchStorageTest.InvalidDatabaseCount'; Action = { New-MailboxProfile -MailboxCount 2 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 3 -Path $TestDrive } }
        @{ Name = 'CopiesPerDatabase 17'; ErrorId = 'ExchStorageTest.InvalidCopiesPerDatabase'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -CopiesPerDatabase 17 -Path $TestDrive } }
        @{ Name = 'HeadroomPercent negative'; ErrorId = 'ExchStorageTest.InvalidHeadroomPercent'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -HeadroomPercent -1 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'ThreadCount 0'; ErrorId = 'ExchStorageTest.InvalidThreadCount'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -ThreadCount 0 -Path $TestDrive } }
        @{ Name = 'maximum cache below minimum'; ErrorId = 'ExchStorageTest.InvalidDatabaseCache'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -MinimumDatabaseCacheMB 512 -MaximumDatabaseCacheMB 256 -Path $TestDrive } }
        @{ Name = 'profile name with a slash'; ErrorId = 'ExchStorageTest.InvalidProfileName'; Action = { New-MailboxProfile -Name 'a/b' -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive } }
        @{ Name = 'three database paths for two databases'; ErrorId = 'ExchStorageTest.DatabasePathCountMismatch'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path (Join-Path $TestDrive 'a'), (Join-Path $TestDrive 'b'), (Join-Path $TestDrive 'c') } }
        @{ Name = 'three log paths for two databases'; ErrorId = 'ExchStorageTest.LogPathCountMismatch'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path $TestDrive -LogPath (Join-Path $TestDrive 'a'), (Join-Path $TestDrive 'b'), (Join-Path $TestDrive 'c') } }
        @{ Name = 'SaveTo in a missing folder'; ErrorId = 'ExchStorageTest.SaveFolderNotFound'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive -SaveTo (Join-Path (Join-Path $TestDrive 'missing') 'p.json') } }
        @{ Name = 'JetstressConfig file missing'; ErrorId = 'ExchStorageTest.JetstressConfigNotFound'; Action = { New-MailboxProfile -JetstressConfig (Join-Path $fixtures 'nope.xml') } }
        @{ Name = 'JetstressConfig not XML'; ErrorId = 'ExchStorageTest.JetstressConfigMalformed'; Action = { New-MailboxProfile -JetstressConfig (Join-Path $fixtures 'malformed.xml') } }
        @{ Name = 'JetstressConfig without MailboxCount'; ErrorId = 'ExchStorageTest.JetstressConfigMalformed'; Action = { New-MailboxProfile -JetstressConfig (Join-Path $fixtures 'no-mailboxcount.xml') } }
        @{ Name = 'profile file missing'; ErrorId = 'ExchStorageTest.ProfileNotFound'; Action = { Invoke-StorageTest -ProfilePath (Join-Path $fixtures 'nope.json') -Confirm:$false } }
        @{ Name = 'profile file not JSON'; ErrorId = 'ExchStorageTest.ProfileMalformed'; Action = { Invoke-StorageTest -ProfilePath (Join-Path $fixtures 'malformed.json') -Confirm:$false } }
        @{ Name = 'profile file holds an array'; ErrorId = 'ExchStorageTest.ProfileMalformed'; Action = { Invoke-StorageTest -ProfilePath (Join-Path $fixtures 'array.json') -Confirm:$false } }
        @{ Name = 'profile file with zero mailboxes'; ErrorId = 'ExchStorageTest.InvalidMailboxCount'; Action = { Invoke-StorageTest -ProfilePath (Join-Path $fixtures 'zero-mailboxes.json') -Confirm:$false } }
        @{ Name = 'database folder does not exist'; ErrorId = 'ExchStorageTest.PathNotFound'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path (Join-Path $TestDrive 'missing') | Invoke-StorageTest -Confirm:$false } }
        @{ Name = 'log folder does not exist'; ErrorId = 'ExchStorageTest.PathNotFound'; Action = { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive -LogPath (Join-Path $TestDrive 'missing-logs') | Invoke-StorageTest -Confirm:$false } }
        @{ Name = 'Duration zero'; ErrorId = 'ExchStorageTest.InvalidDuration'; Action = { New-SmallProfile | Invoke-StorageTest -Duration 0 -Confirm:$false } }
        @{ Name = 'Duration negative'; ErrorId = 'ExchStorageTest.InvalidDuration'; Action = { New-SmallProfile | Invoke-StorageTest -Duration ([timespan]::FromMinutes(-1)) -Confirm:$false } }
        @{ Name = 'Duration over 30 days'; ErrorId = 'ExchStorageTest.InvalidDuration'; Action = { New-SmallProfile | Invoke-StorageTest -Duration ([timespan]::FromDays(31)) -Confirm:$false } }
        @{ Name = 'SampleIntervalSeconds 0'; ErrorId = 'ExchStorageTest.InvalidSampleInterval'; Action = { New-SmallProfile | Invoke-StorageTest -SampleIntervalSeconds 0 -Confirm:$false } }
        @{ Name = 'ThreadCount and TargetRateIops together'; ErrorId = 'ExchStorageTest.ConflictingLoadSettings'; Action = { New-SmallProfile | Invoke-StorageTest -ThreadCount 4 -TargetRateIops 100 -Confirm:$false } }
        @{ Name = 'ThreadCount override 0'; ErrorId = 'ExchStorageTest.InvalidThreadCount'; Action = { New-SmallProfile | Invoke-StorageTest -ThreadCount 0 -Confirm:$false } }
        @{ Name = 'TargetRateIops 0'; ErrorId = 'ExchStorageTest.InvalidTargetRate'; Action = { New-SmallProfile | Invoke-StorageTest -TargetRateIops 0 -Confirm:$false } }
        @{ Name = 'Restore without RestoreFromPath'; ErrorId = 'ExchStorageTest.RestorePathRequired'; Action = { New-SmallProfile | Invoke-StorageTest -DatabaseSource Restore -Confirm:$false } }
        @{ Name = 'RestoreFromPath missing'; ErrorId = 'ExchStorageTest.RestorePathNotFound'; Action = { New-SmallProfile | Invoke-StorageTest -DatabaseSource Restore -RestoreFromPath (Join-Path $fixtures 'no-backup') -Confirm:$false } }
        @{ Name = 'RestoreFromPath without Restore'; ErrorId = 'ExchStorageTest.RestorePathWithoutRestore'; Action = { New-SmallProfile | Invoke-StorageTest -RestoreFromPath $fixtures -Confirm:$false } }
        @{ Name = 'OutputPath parent missing'; ErrorId = 'ExchStorageTest.OutputPathNotFound'; Action = { New-SmallProfile | Invoke-StorageTest -OutputPath (Join-Path (Join-Path $TestDrive 'no') 'such') -Confirm:$false } }
        @{ Name = 'unknown threshold'; ErrorId = 'ExchStorageTest.InvalidThresholds'; Action = { New-SmallProfile | Invoke-StorageTest -Thresholds @{ averageLatency = 5 } -Confirm:$false } }
        @{ Name = 'negative threshold'; ErrorId = 'ExchStorageTest.InvalidThresholds'; Action = { New-SmallProfile | Invoke-StorageTest -Thresholds @{ averageDatabaseReadLatencyMs = -5 } -Confirm:$false } }
        @{ Name = 'CapacityPercent 99'; ErrorId = 'ExchStorageTest.InvalidCapacityPercent'; Action = { New-SmallProfile | Invoke-StorageTest -TestType Throughput -CapacityPercent 99 -Confirm:$false } }
        @{ Name = 'LogFilesToReplay 0'; ErrorId = 'ExchStorageTest.InvalidLogFilesToReplay'; Action = { New-SmallProfile | Invoke-StorageTest -TestType SoftRecovery -LogFilesToReplay 0 -Confirm:$false } }
        @{ Name = 'object that is not a profile'; ErrorId = 'ExchStorageTest.InvalidMailboxCount'; Action = { [pscustomobject]@{ Name = 'db1' } | Invoke-StorageTest -Confirm:$false } }
        @{ Name = 'report of a missing file'; ErrorId = 'ExchStorageTest.ResultsNotFound'; Action = { Get-TestReport -Path (Join-Path $fixtures 'no-results.json') } }
        @{ Name = 'report of a folder without results'; ErrorId = 'ExchStorageTest.ResultsNotFound'; Action = { Get-TestReport -Path (Join-Path $fixtures 'empty-folder') } }
        @{ Name = 'report folder missing'; ErrorId = 'ExchStorageTest.ResultsNotFound'; Action = { Get-TestReport -Path (Join-Path $fixtures 'no-such-folder') -Format Html } }
        @{ Name = 'volume folder missing'; ErrorId = 'ExchStorageTest.PathNotFound'; Action = { Test-StorageVolume -Path (Join-Path $TestDrive 'missing') } }
        @{ Name = 'checksum target missing'; ErrorId = 'ExchStorageTest.PathNotFound'; Action = { Test-DatabaseChecksum -Path (Join-Path $TestDrive 'missing.edb') } }
    ) {
        $Action | Should -Throw -ErrorId "$ErrorId*"
        @(Get-ChildItem -LiteralPath $TestDrive -Recurse -Force).Count | Should -Be 0
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 0 -Exactly
    }

    It 'a folder that is not writable -> ExchStorageTest.PathNotWritable' {
        # Permissions differ per platform and root can write anywhere, so the probe is mocked.
        Mock -ModuleName ExchStorageTest -CommandName Test-DirectoryWritable -MockWith { $false }
        { New-SmallProfile | Invoke-StorageTest -Confirm:$false } | Should -Throw -ErrorId 'ExchStorageTest.PathNotWritable*'
        @(Get-ChildItem -LiteralPath $TestDrive -Recurse -Force).Count | Should -Be 0
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 0 -Exactly
    }
}

Describe 'Refusals reported by the engine keep their ErrorId' {
    It 'not enough free space (engine plan refusal) -> ExchStorageTest.InsufficientSpace, and no run' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'plan' } -MockWith {
            $exception = New-Object -TypeName System.InvalidOperationException -ArgumentList 'The databases need 2.5 GB but the volume has 1.0 GB free.'
            throw (New-Object -TypeName System.Management.Automation.ErrorRecord -ArgumentList $exception, 'ExchStorageTest.InsufficientSpace', ([System.Management.Automation.ErrorCategory]::ResourceUnavailable), $null)
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'run' } -MockWith { throw 'run must not be reached' }

        { New-SmallProfile | Invoke-StorageTest -Confirm:$false } | Should -Throw -ErrorId 'ExchStorageTest.InsufficientSpace*'
        @(Get-ChildItem -LiteralPath $TestDrive -Recurse -Force).Count | Should -Be 0
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'run' } -Times 0 -Exactly
    }

    It 'engine helper not built -> ExchStorageTest.EngineNotInstalled naming the path and the build command' {
        $saved = $env:EXCHSTORAGETEST_ENGINE
        try {
            $env:EXCHSTORAGETEST_ENGINE = Join-Path -Path $fixtures -ChildPath 'no-engine-here'
            $thrown = $null
            try {
                Test-StorageVolume -Path $TestDrive
            }
            catch {
                $thrown = $_
            }
            $thrown | Should -Not -BeNullOrEmpty
            $thrown.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineNotInstalled*'
            $thrown.CategoryInfo.Category | Should -Be 'NotInstalled'
            $thrown.Exception.Message | Should -BeLike '*no-engine-here*'
            $thrown.Exception.Message | Should -BeLike '*./build.ps1 Build*'
        }
        finally {
            $env:EXCHSTORAGETEST_ENGINE = $saved
        }
        @(Get-ChildItem -LiteralPath $TestDrive -Recurse -Force).Count | Should -Be 0
    }
}
