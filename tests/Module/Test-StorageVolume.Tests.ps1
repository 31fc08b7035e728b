# Test-StorageVolume through the real engine on real folders: read-only findings, database objects bound by
# property name (live-shaped and deserialized), refusals before anything is inspected.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
}

Describe 'Test-StorageVolume' {
    BeforeEach { $Dir = New-ScratchFolder 'tsv' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'gives findings about the volume of a real folder and writes nothing' {
        $findings = @(Test-StorageVolume -Path $Dir)
        $findings | Should -Not -BeNullOrEmpty
        foreach ($f in $findings) {
            $f.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.VolumeFinding'
            $f.Path | Should -Be $Dir
            $f.Severity | Should -BeIn @('Info', 'Warning', 'Error')
            $f.Check | Should -Not -BeNullOrEmpty
            $f.Message | Should -Not -BeNullOrEmpty
            $f.Volume | Should -Not -BeNullOrEmpty
            Get-MissingViewedProperty $f | Should -BeNullOrEmpty
        }
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'says once that the file system is not NTFS or ReFS, naming it' -Tag 'Needs:Linux' -Skip:(Test-Missing Linux) {
        $fileSystem = @(Test-StorageVolume -Path $Dir | Where-Object Check -eq 'FileSystemNotExchange')
        $fileSystem.Count | Should -Be 1
        $fileSystem[0].FileSystem | Should -Not -BeNullOrEmpty
        $fileSystem[0].Message | Should -BeLike "*$($fileSystem[0].FileSystem)*"
    }

    It 'binds the edb folder and the log folder of a database object in one call, deserialized as through implicit remoting' {
        $db = (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB1')).FullName
        $logs = (New-Item -ItemType Directory -Path (Join-Path $Dir 'L1')).FullName
        $live = [pscustomobject]@{ PSTypeName = 'Microsoft.Exchange.Data.Directory.SystemConfiguration.MailboxDatabase'
            EdbFilePath = Join-Path $db 'DB1.edb'; LogFolderPath = [pscustomobject]@{ PathName = $logs } }
        $deserialized = [System.Management.Automation.PSSerializer]::Deserialize([System.Management.Automation.PSSerializer]::Serialize($live))
        $verbose = $null
        $findings = @($deserialized | Test-StorageVolume -Verbose 4>&1 | Tee-Object -Variable all | Where-Object { $_ -isnot [System.Management.Automation.VerboseRecord] })
        $verbose = @($all | Where-Object { $_ -is [System.Management.Automation.VerboseRecord] -and $_.Message -like 'ExchStorageTest engine*' })
        @($findings.Path | Select-Object -Unique) | Should -Be @($db, $logs)
        $verbose.Count | Should -Be 1 -Because 'both folders are inspected by one engine'
    }

    It 'refuses a missing folder with PathNotFound before any folder is inspected' {
        # The engine's inspect command owns the rule (one validator): it refuses the request before inspecting the other path.
        $missing = Join-Path $Dir 'missing'
        $caught = $null
        $output = @(try { Test-StorageVolume -Path $Dir, $missing -Verbose 4>&1 } catch { $caught = $_ })
        $caught.FullyQualifiedErrorId | Should -Be 'ExchStorageTest.PathNotFound,ExchStorageTest.Commands.TestStorageVolumeCommand'
        $caught.CategoryInfo.Category | Should -Be 'ObjectNotFound'
        $caught.Exception.Message | Should -BeLike "*$missing*"
        @($output | Where-Object { $_ -isnot [System.Management.Automation.VerboseRecord] }) | Should -BeNullOrEmpty
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }
}
