# New-MailboxProfile: the sizes it computes, the profile file it saves and loads, and Get-MailboxDatabase
# output bound by property name, live-shaped and deserialized as implicit remoting delivers it.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
}

Describe 'New-MailboxProfile' {
    BeforeEach { $Dir = New-ScratchFolder 'nmp' }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'computes target IOPS and sizes from the settings and writes nothing' {
        $p = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $Dir
        $p.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.MailboxProfile'
        $p.TargetIops | Should -Be 50.0
        $p.DatabaseSizeMB | Should -Be 2500.0
        $p.TotalCapacityMB | Should -Be 5000.0
        $p.MailboxesPerDatabase | Should -Be 50
        $p.ThreadCount | Should -BeNullOrEmpty
        $p.DatabasePaths | Should -Be @($Dir)
        Get-FolderEntry $Dir | Should -BeNullOrEmpty
    }

    It 'exports to CSV with its folders, not a type name, and keeps them a list' {
        $db2 = Join-Path $Dir 'db2'
        $p = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $Dir, $db2 -LogPath $Dir, $db2
        $row = $p | ConvertTo-Csv -NoTypeInformation | ConvertFrom-Csv
        $row.DatabasePaths | Should -Be ($Dir, $db2 -join [Environment]::NewLine)
        $row.LogPaths | Should -Be ($Dir, $db2 -join [Environment]::NewLine)
        ($p | ConvertTo-Csv -NoTypeInformation) -join "`n" | Should -Not -BeLike '*System.*[[]]*'
        # Still a list of folders to PowerShell: counted, indexed, enumerated.
        $p.DatabasePaths.Count | Should -Be 2
        $p.DatabasePaths[1] | Should -Be $db2
        @($p.LogPaths | ForEach-Object { $_ }) | Should -Be @($Dir, $db2)
        # Set from a script as the string[] it was: one folder, a list, none.
        $p.DatabasePaths = $db2
        $p.DatabasePaths | Should -Be @($db2)
        $p.LogPaths = $db2, $Dir
        $p.LogPaths | Should -Be @($db2, $Dir)
        $p.LogPaths = @()
        $p.LogPaths.Count | Should -Be 0
    }

    It 'saves UTF-8 JSON without a byte order mark, never over an existing profile' {
        $file = Join-Path $Dir 'p.json'
        $null = New-MailboxProfile -Name Lab -MailboxCount 40 -IopsPerMailbox 0.12 -HeadroomPercent 20 -MailboxSizeMB 10 -DatabaseCount 2 -Path $Dir -ThreadCount 3 -SaveTo $file
        $text = Get-Content -Raw -LiteralPath $file
        $text | Should -BeLike '*"schema": "exchstoragetest/profile"*'
        $text | Should -BeLike '*"mailboxCount": 40*'
        [System.IO.File]::ReadAllBytes($file)[0] | Should -Not -Be 0xEF

        { New-MailboxProfile -MailboxCount 1 -IopsPerMailbox 1 -MailboxSizeMB 1 -Path $Dir -SaveTo $file } |
            Should -Throw -ErrorId 'ExchStorageTest.ProfileExists,ExchStorageTest.Commands.NewMailboxProfileCommand'
        Get-Content -Raw -LiteralPath $file | Should -BeLike '*"mailboxCount": 40*'
    }

    It 'binds Get-MailboxDatabase-shaped objects by property name: EdbFilePath as an object with PathName or a string' {
        $db1 = (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB1')).FullName
        $db2 = (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB2')).FullName
        $logs = (New-Item -ItemType Directory -Path (Join-Path $Dir 'Logs')).FullName
        $databases = @(
            [pscustomobject]@{ PSTypeName = 'Deserialized.Microsoft.Exchange.Data.Directory.SystemConfiguration.MailboxDatabase'; Name = 'DB1'; EdbFilePath = [pscustomobject]@{ PathName = (Join-Path $db1 'DB1.edb') }; LogFolderPath = $logs }
            [pscustomobject]@{ Name = 'DB2'; EdbFilePath = (Join-Path $db2 'DB2.edb'); LogFolderPath = $logs }
        )
        $p = $databases | New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.1 -MailboxSizeMB 5
        $p.DatabasePaths | Should -Be @($db1, $db2)
        $p.DatabaseCount | Should -Be 2
    }

    It 'binds database objects that went through serialization (implicit remoting to the Exchange Management Shell)' {
        $db1 = (New-Item -ItemType Directory -Path (Join-Path $Dir 'DB1')).FullName
        $logs = (New-Item -ItemType Directory -Path (Join-Path $Dir 'L1')).FullName
        $live = [pscustomobject]@{ PSTypeName = 'Microsoft.Exchange.Data.Directory.SystemConfiguration.MailboxDatabase'; Name = 'DB1'
            EdbFilePath = [pscustomobject]@{ PSTypeName = 'Microsoft.Exchange.Data.EdbFilePath'; PathName = (Join-Path $db1 'DB1.edb'); IsLocalFull = $true }
            LogFolderPath = [pscustomobject]@{ PSTypeName = 'Microsoft.Exchange.Data.NonRootLocalLongFullPath'; PathName = $logs } }
        $deserialized = [System.Management.Automation.PSSerializer]::Deserialize([System.Management.Automation.PSSerializer]::Serialize($live))
        $deserialized.PSObject.TypeNames[0] | Should -Be 'Deserialized.Microsoft.Exchange.Data.Directory.SystemConfiguration.MailboxDatabase'

        $p = $deserialized | New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.1 -MailboxSizeMB 5
        $p.DatabasePaths | Should -Be @($db1)
        $p.LogPaths | Should -Be @($logs)
    }
}
