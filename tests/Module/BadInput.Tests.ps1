# The catalogue of bad inputs: each stops with a terminating error whose ErrorId is stable (documented in
# docs/about_ExchStorageTest.md), whose message names the bad value, and leaves the target folder untouched:
# nothing is written before validation passes.
#
# One row a case: Command runs with $Target (an empty folder that must stay empty) and $Fixtures (a folder of
# fixture files outside it); New-SmallProfile is a valid small profile in $Target. ErrorId is the part after
# 'ExchStorageTest.'; Named is text the message must contain (the bad value).

BeforeDiscovery {
    $script:Cases = @(
        @{ Case = 'MailboxCount 0'; ErrorId = 'MailboxCountOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 0 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'MailboxCount negative'; ErrorId = 'MailboxCountOutOfRange'; Named = "'-5'"; Command = 'New-MailboxProfile -MailboxCount -5 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'IopsPerMailbox 0'; ErrorId = 'IopsPerMailboxOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'IopsPerMailbox negative'; ErrorId = 'IopsPerMailboxOutOfRange'; Named = "'-0.1'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox -0.1 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'IopsPerMailbox above 100'; ErrorId = 'IopsPerMailboxOutOfRange'; Named = "'1000'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 1000 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'MailboxSizeMB 0'; ErrorId = 'MailboxSizeOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 0 -Path $Target' }
        @{ Case = 'DatabaseCount 0'; ErrorId = 'DatabaseCountOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 0 -Path $Target' }
        @{ Case = 'more databases than mailboxes'; ErrorId = 'DatabaseCountOutOfRange'; Named = "'3'"; Command = 'New-MailboxProfile -MailboxCount 2 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 3 -Path $Target' }
        @{ Case = 'CopiesPerDatabase 17'; ErrorId = 'CopiesOutOfRange'; Named = "'17'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -CopiesPerDatabase 17 -Path $Target' }
        @{ Case = 'CopiesPerVolume not a multiple of the active copies'; ErrorId = 'CopiesPerVolumeOutOfRange'; Named = "'3'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -CopiesPerDatabase 4 -CopiesPerVolume 3 -ActiveCopiesPerVolume 2 -Path $Target' }
        @{ Case = 'ActiveCopiesPerVolume 0'; ErrorId = 'ActiveCopiesPerVolumeOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -ActiveCopiesPerVolume 0 -Path $Target' }
        @{ Case = 'more lagged copies than passive ones'; ErrorId = 'LaggedCopiesPerVolumeOutOfRange'; Named = "'4'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -CopiesPerDatabase 4 -CopiesPerVolume 4 -LaggedCopiesPerVolume 4 -Path $Target' }
        @{ Case = 'HeadroomPercent negative'; ErrorId = 'HeadroomOutOfRange'; Named = "'-1'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -HeadroomPercent -1 -MailboxSizeMB 10 -Path $Target' }
        @{ Case = 'ThreadCount 0'; ErrorId = 'ThreadCountOutOfRange'; Named = "'0'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -ThreadCount 0 -Path $Target' }
        @{ Case = 'maximum cache below minimum'; ErrorId = 'CacheSizeInvalid'; Named = "'256'"; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -MinimumDatabaseCacheMB 512 -MaximumDatabaseCacheMB 256 -Path $Target' }
        @{ Case = 'profile name with a slash'; ErrorId = 'ProfileNameInvalid'; Named = "'a/b'"; Command = "New-MailboxProfile -Name 'a/b' -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path `$Target" }
        @{ Case = 'description over 1024 characters'; ErrorId = 'DescriptionTooLong'; Named = '1025'; Command = "New-MailboxProfile -Description ('x' * 1025) -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path `$Target" }
        @{ Case = 'three database paths for two databases'; ErrorId = 'PathCountMismatch'; Named = '3 database paths'; Command = "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path (Join-Path `$Target a), (Join-Path `$Target b), (Join-Path `$Target c)" }
        @{ Case = 'three log paths for two databases'; ErrorId = 'PathCountMismatch'; Named = '3 log paths'; Command = "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path `$Target -LogPath (Join-Path `$Target a), (Join-Path `$Target b), (Join-Path `$Target c)" }
        @{ Case = 'SaveTo in a missing folder'; ErrorId = 'SaveFolderNotFound'; Named = 'missing'; Command = 'New-SmallProfile -SaveTo (Join-Path $Target missing/p.json)' }
        @{ Case = 'SaveTo a folder'; ErrorId = 'ProfileExists'; Named = 'is a folder'; Command = 'New-SmallProfile -SaveTo $Fixtures' }
        @{ Case = 'JetstressConfig file missing'; ErrorId = 'JetstressConfigNotFound'; Named = 'nope.xml'; Command = 'New-MailboxProfile -JetstressConfig (Join-Path $Fixtures nope.xml)' }
        @{ Case = 'JetstressConfig not XML'; ErrorId = 'JetstressConfigMalformed'; Named = 'malformed.xml'; Command = 'New-MailboxProfile -JetstressConfig (Join-Path $Fixtures malformed.xml)' }
        @{ Case = 'JetstressConfig without MailboxCount'; ErrorId = 'JetstressConfigMalformed'; Named = '<MailboxCount>'; Command = 'New-MailboxProfile -JetstressConfig (Join-Path $Fixtures no-mailboxcount.xml)' }
        @{ Case = 'profile file missing'; ErrorId = 'ProfileNotFound'; Named = 'nope.json'; Command = 'Invoke-StorageTest -ProfilePath (Join-Path $Fixtures nope.json) -Confirm:$false' }
        @{ Case = 'profile file not JSON'; ErrorId = 'ProfileMalformed'; Named = 'malformed.json'; Command = 'Invoke-StorageTest -ProfilePath (Join-Path $Fixtures malformed.json) -Confirm:$false' }
        @{ Case = 'profile file holds an array'; ErrorId = 'ProfileMalformed'; Named = 'array.json'; Command = 'Invoke-StorageTest -ProfilePath (Join-Path $Fixtures array.json) -Confirm:$false' }
        @{ Case = 'profile file with zero mailboxes'; ErrorId = 'MailboxCountOutOfRange'; Named = "'0'"; Command = 'Invoke-StorageTest -ProfilePath (Join-Path $Fixtures zero-mailboxes.json) -Confirm:$false' }
        @{ Case = 'profile both piped and by path'; ErrorId = 'ConflictingProfileSettings'; Named = '-ProfilePath'; Command = 'New-SmallProfile | Invoke-StorageTest -ProfilePath (Join-Path $Fixtures zero-mailboxes.json) -StartFile (Join-Path $Target start.json) -Confirm:$false' }
        @{ Case = 'database folder does not exist'; ErrorId = 'PathNotFound'; Named = 'missing'; Command = 'New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path (Join-Path $Target missing) | Invoke-StorageTest -Confirm:$false' }
        @{ Case = 'log folder does not exist'; ErrorId = 'PathNotFound'; Named = 'missing-logs'; Command = 'New-SmallProfile -LogPath (Join-Path $Target missing-logs) | Invoke-StorageTest -Confirm:$false' }
        @{ Case = 'Duration zero'; ErrorId = 'DurationOutOfRange'; Named = "'00:00:00'"; Command = 'New-SmallProfile | Invoke-StorageTest -Duration 0 -Confirm:$false' }
        @{ Case = 'Duration negative'; ErrorId = 'DurationOutOfRange'; Named = "'-00:01:00'"; Command = 'New-SmallProfile | Invoke-StorageTest -Duration ([timespan]::FromMinutes(-1)) -Confirm:$false' }
        @{ Case = 'Duration over 30 days'; ErrorId = 'DurationOutOfRange'; Named = "'31.00:00:00'"; Command = 'New-SmallProfile | Invoke-StorageTest -Duration ([timespan]::FromDays(31)) -Confirm:$false' }
        @{ Case = 'Warmup negative'; ErrorId = 'WarmupOutOfRange'; Named = "'-00:00:01'"; Command = 'New-SmallProfile | Invoke-StorageTest -Warmup ([timespan]::FromSeconds(-1)) -Confirm:$false' }
        @{ Case = 'SampleIntervalSeconds 0'; ErrorId = 'SampleIntervalOutOfRange'; Named = "'0'"; Command = 'New-SmallProfile | Invoke-StorageTest -SampleIntervalSeconds 0 -Confirm:$false' }
        @{ Case = 'ThreadCount and TargetRateIops together'; ErrorId = 'ConflictingLoadSettings'; Named = 'TargetRateIops'; Command = 'New-SmallProfile | Invoke-StorageTest -ThreadCount 4 -TargetRateIops 100 -Confirm:$false' }
        @{ Case = 'ThreadCount override 0'; ErrorId = 'ThreadCountOutOfRange'; Named = "'0'"; Command = 'New-SmallProfile | Invoke-StorageTest -ThreadCount 0 -Confirm:$false' }
        @{ Case = 'TargetRateIops 0'; ErrorId = 'TargetRateOutOfRange'; Named = "'0'"; Command = 'New-SmallProfile | Invoke-StorageTest -TargetRateIops 0 -Confirm:$false' }
        @{ Case = 'Restore without RestoreFromPath'; ErrorId = 'RestorePathMissing'; Named = 'RestoreFromPath'; Command = 'New-SmallProfile | Invoke-StorageTest -DatabaseSource Restore -Confirm:$false' }
        @{ Case = 'RestoreFromPath missing'; ErrorId = 'RestorePathNotFound'; Named = 'no-backup'; Command = 'New-SmallProfile | Invoke-StorageTest -DatabaseSource Restore -RestoreFromPath (Join-Path $Fixtures no-backup) -Confirm:$false' }
        @{ Case = 'RestoreFromPath without Restore'; ErrorId = 'RestorePathWithoutRestore'; Named = "'Create'"; Command = 'New-SmallProfile | Invoke-StorageTest -RestoreFromPath $Fixtures -Confirm:$false' }
        @{ Case = 'OutputPath parent missing'; ErrorId = 'OutputPathNotFound'; Named = (Join-Path 'no' 'such'); Command = 'New-SmallProfile | Invoke-StorageTest -OutputPath (Join-Path $Target (Join-Path no such)) -Confirm:$false' }
        @{ Case = 'unknown threshold'; ErrorId = 'UnknownField'; Named = "'averageLatency'"; Command = 'New-SmallProfile | Invoke-StorageTest -Thresholds @{ averageLatency = 5 } -Confirm:$false' }
        @{ Case = 'negative threshold'; ErrorId = 'ThresholdOutOfRange'; Named = "'-5'"; Command = 'New-SmallProfile | Invoke-StorageTest -Thresholds @{ averageDatabaseReadLatencyMs = -5 } -Confirm:$false' }
        @{ Case = 'threshold that is not a table'; ErrorId = 'InvalidThresholds'; Named = "'5'"; Command = 'New-SmallProfile | Invoke-StorageTest -Thresholds 5 -Confirm:$false' }
        @{ Case = 'CapacityPercent 101'; ErrorId = 'CapacityPercentOutOfRange'; Named = "'101'"; Command = 'New-SmallProfile | Invoke-StorageTest -TestType Throughput -CapacityPercent 101 -Confirm:$false' }
        @{ Case = 'CompressibilityPercent 91'; ErrorId = 'CompressibilityPercentOutOfRange'; Named = "'91'"; Command = 'New-SmallProfile | Invoke-StorageTest -CompressibilityPercent 91 -Confirm:$false' }
        @{ Case = 'DuplicatePercent 80'; ErrorId = 'DuplicatePercentOutOfRange'; Named = "'80'"; Command = 'New-SmallProfile | Invoke-StorageTest -DuplicatePercent 80 -Confirm:$false' }
        @{ Case = 'FaultAt zero'; ErrorId = 'FaultAtOutOfRange'; Named = "'00:00:00'"; Command = 'New-SmallProfile | Invoke-StorageTest -Duration 00:02:00 -FaultAt 0 -Confirm:$false' }
        @{ Case = 'fault window past the measured window'; ErrorId = 'FaultWindowInvalid'; Named = '(600 s + 60 s)'; Command = 'New-SmallProfile | Invoke-StorageTest -Duration 00:02:00 -FaultAt 00:10:00 -Confirm:$false' }
        @{ Case = 'FaultScript without FaultAt'; ErrorId = 'FaultWindowInvalid'; Named = 'FaultScript needs FaultAt'; Command = 'New-SmallProfile | Invoke-StorageTest -FaultScript (Join-Path $Fixtures other.json) -Confirm:$false' }
        @{ Case = 'FaultScript missing'; ErrorId = 'FaultScriptNotFound'; Named = 'no-failover.ps1'; Command = 'New-SmallProfile | Invoke-StorageTest -Duration 00:02:00 -FaultAt 00:00:30 -FaultScript (Join-Path $Fixtures no-failover.ps1) -Confirm:$false' }
        @{ Case = 'StallLimit under a second'; ErrorId = 'StallLimitOutOfRange'; Named = "'00:00:00'"; Command = 'New-SmallProfile | Invoke-StorageTest -StallLimit 0 -Confirm:$false' }
        @{ Case = 'Capacity bound too short for two steps'; ErrorId = 'CapacityBoundTooShort'; Named = 'Duration 5 s'; Command = 'New-SmallProfile | Invoke-StorageTest -TestType Capacity -Duration 00:00:05 -Confirm:$false' }
        @{ Case = 'Capacity with a start file'; ErrorId = 'CapacityWithStartFile'; Named = '-StartFile'; Command = 'New-SmallProfile | Invoke-StorageTest -TestType Capacity -StartFile (Join-Path $Target start.json) -Confirm:$false' }
        @{ Case = 'LogFilesToReplay 0'; ErrorId = 'LogFilesToReplayOutOfRange'; Named = "'0'"; Command = 'New-SmallProfile | Invoke-StorageTest -TestType SoftRecovery -LogFilesToReplay 0 -Confirm:$false' }
        @{ Case = 'object that is not a profile'; ErrorId = 'MailboxCountOutOfRange'; Named = "'(none)'"; Command = "[pscustomobject]@{ Name = 'db1' } | Invoke-StorageTest -Confirm:`$false" }
        @{ Case = 'no profile at all'; ErrorId = 'ProfileRequired'; Named = 'profile'; Command = 'Invoke-StorageTest -StartFile (Join-Path $Target start.json) -Confirm:$false' }
        @{ Case = 'not enough free space (a refusal of the engine''s plan)'; ErrorId = 'InsufficientSpace'; Named = ''; Command = 'New-MailboxProfile -MailboxCount 1000000 -IopsPerMailbox 0.1 -MailboxSizeMB 1048576 -DatabaseCount 256 -Path $Target | Invoke-StorageTest -Confirm:$false' }
        @{ Case = 'report of a missing file'; ErrorId = 'ResultsNotFound'; Named = 'no-results.json'; Command = 'Get-TestReport -Path (Join-Path $Fixtures no-results.json)' }
        @{ Case = 'report of a folder without results'; ErrorId = 'ResultsNotFound'; Named = 'empty-folder'; Command = 'Get-TestReport -Path (Join-Path $Fixtures empty-folder)' }
        @{ Case = 'report folder missing'; ErrorId = 'ResultsNotFound'; Named = 'no-such-folder'; Command = 'Get-TestReport -Path (Join-Path $Fixtures no-such-folder) -Format Html' }
        @{ Case = 'volume folder missing'; ErrorId = 'PathNotFound'; Named = 'missing'; Command = 'Test-StorageVolume -Path (Join-Path $Target missing)' }
        @{ Case = 'checksum target missing'; ErrorId = 'PathNotFound'; Named = 'missing.edb'; Command = 'Test-DatabaseChecksum -Path (Join-Path $Target missing.edb)' }
    )
}

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest

    $Fixtures = New-ScratchFolder 'bad-fixtures'
    $null = New-Item -ItemType Directory -Path (Join-Path $Fixtures 'empty-folder')
    Set-Content -LiteralPath (Join-Path $Fixtures 'malformed.json') -Value '{ "mailboxCount": 10, '
    Set-Content -LiteralPath (Join-Path $Fixtures 'array.json') -Value '[1, 2, 3]'
    Set-Content -LiteralPath (Join-Path $Fixtures 'zero-mailboxes.json') -Value '{ "name": "x", "mailboxCount": 0, "iopsPerMailbox": 0.1, "mailboxSizeMB": 10, "databaseCount": 1, "databasePaths": ["/tmp"] }'
    Set-Content -LiteralPath (Join-Path $Fixtures 'malformed.xml') -Value '<configuration><ExchangeProfile><MailboxCount>10</MailboxCount>'
    Set-Content -LiteralPath (Join-Path $Fixtures 'no-mailboxcount.xml') -Value '<configuration><ExchangeProfile><MailboxIops>0.1</MailboxIops><MailboxQuota>100</MailboxQuota></ExchangeProfile></configuration>'
    Set-Content -LiteralPath (Join-Path $Fixtures 'other.json') -Value '{ "schema": "something/else" }'

    function New-SmallProfile {
        # Valid, small, in the target folder: what the case's other parameters are wrong against.
        param([object[]] $LogPath, [string] $SaveTo)
        $parameters = @{ MailboxCount = 10; IopsPerMailbox = 0.1; MailboxSizeMB = 10; Path = $Target }
        if ($LogPath) { $parameters.LogPath = $LogPath }
        if ($SaveTo) { $parameters.SaveTo = $SaveTo }
        New-MailboxProfile @parameters
    }
}

AfterAll {
    Remove-ScratchFolder $Fixtures
}

Describe 'Bad input' {
    BeforeEach {
        $Target = New-ScratchFolder 'bad'
    }

    AfterEach {
        Remove-ScratchFolder $Target
    }

    It '<Case>: ExchStorageTest.<ErrorId>, nothing written' -ForEach $Cases {
        $caught = $null
        # catch sees terminating errors only; a non-terminating error or an object would land in $output.
        $output = @(try { & ([scriptblock]::Create($Command)) 2>&1 } catch { $caught = $_ })
        $caught | Should -Not -BeNullOrEmpty -Because 'the command must stop with a terminating error'
        $caught.FullyQualifiedErrorId | Should -BeLike "ExchStorageTest.$ErrorId,*"
        $caught.Exception.Message | Should -BeLike "*$([WildcardPattern]::Escape($Named))*"
        $output | Should -BeNullOrEmpty
        Get-FolderEntry $Target | Should -BeNullOrEmpty
    }

    It 'a missing engine is EngineNotInstalled, named with the build command' {
        $missing = Join-Path $Fixtures 'no-engine-here'
        $caught = $null
        $env:EXCHSTORAGETEST_ENGINE = $missing
        try {
            New-SmallProfile | Invoke-StorageTest -Confirm:$false
        }
        catch {
            $caught = $_
        }
        finally {
            $env:EXCHSTORAGETEST_ENGINE = $null
        }
        $caught.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.EngineNotInstalled,*'
        $caught.CategoryInfo.Category | Should -Be 'NotInstalled'
        $caught.Exception.Message | Should -BeLike "*$missing*"
        # The build command of this OS: an admin on Windows has build.ps1, not build.sh.
        $caught.Exception.Message | Should -BeLike $(if ($IsWindows -or $PSVersionTable.PSEdition -eq 'Desktop') { '*.\build.ps1 Build*' } else { '*./build.sh Build*' })
        Get-FolderEntry $Target | Should -BeNullOrEmpty
    }
}

Describe 'A database folder on a read-only volume' -Tag 'Needs:Root' -Skip:(Test-Missing Root) {
    # A real read-only bind mount: root writes anywhere else.
    BeforeEach { $Target = New-ScratchFolder 'ro' }
    AfterEach { Remove-ScratchFolder $Target }

    It 'is refused with PathNotWritable and nothing is written' {
        $source = Join-Path $Target 'src'
        $mount = Join-Path $Target 'ro'
        $null = New-Item -ItemType Directory -Path $source, $mount
        & mount --bind $source $mount
        $LASTEXITCODE | Should -Be 0
        try {
            & mount -o 'remount,ro,bind' $mount
            $LASTEXITCODE | Should -Be 0
            $caught = $null
            try { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $mount | Invoke-StorageTest -Confirm:$false } catch { $caught = $_ }
            $caught.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.PathNotWritable,*'
            $caught.CategoryInfo.Category | Should -Be 'PermissionDenied'
            $caught.Exception.Message | Should -BeLike "*$mount*"
            Get-FolderEntry $source | Should -BeNullOrEmpty
        }
        finally {
            & umount $mount
        }
    }
}
