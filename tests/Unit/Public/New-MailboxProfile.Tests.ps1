#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'New-MailboxProfile' {
    It 'computes target IOPS, database size, capacity and mailboxes per database' {
        $result = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $TestDrive
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.MailboxProfile'
        $result.TargetIops | Should -Be 50
        $result.DatabaseSizeMB | Should -Be 2500
        $result.TotalCapacityMB | Should -Be 5000
        $result.MailboxesPerDatabase | Should -Be 50
        $result.ThreadCount | Should -BeNullOrEmpty
        $result.BackgroundMaintenance | Should -BeTrue
        @($result.DatabasePaths) | Should -Be @($TestDrive)
    }

    It 'adds the headroom on top of the tested IOPS' {
        $result = New-MailboxProfile -MailboxCount 1000 -IopsPerMailbox 0.1 -HeadroomPercent 20 -MailboxSizeMB 10 -Path $TestDrive
        $result.TargetIops | Should -Be 120
    }

    It 'rounds mailboxes per database up' {
        $result = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 3 -Path $TestDrive
        $result.MailboxesPerDatabase | Should -Be 4
    }

    It 'takes the database count from one path per database' {
        $paths = @((Join-Path -Path $TestDrive -ChildPath 'db1'), (Join-Path -Path $TestDrive -ChildPath 'db2'), (Join-Path -Path $TestDrive -ChildPath 'db3'))
        $result = New-MailboxProfile -MailboxCount 30 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $paths
        $result.DatabaseCount | Should -Be 3
        @($result.DatabasePaths).Count | Should -Be 3
    }

    It 'binds Get-MailboxDatabase-like objects by EdbFilePath and LogFolderPath' {
        $databases = @(
            [pscustomobject]@{ Name = 'DB1'; EdbFilePath = (Join-Path -Path (Join-Path -Path $TestDrive -ChildPath 'DB1') -ChildPath 'DB1.edb'); LogFolderPath = (Join-Path -Path $TestDrive -ChildPath 'L1') }
            [pscustomobject]@{ Name = 'DB2'; EdbFilePath = (Join-Path -Path (Join-Path -Path $TestDrive -ChildPath 'DB2') -ChildPath 'DB2.edb'); LogFolderPath = (Join-Path -Path $TestDrive -ChildPath 'L2') }
        )
        $result = $databases | New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.12 -MailboxSizeMB 100
        $result.DatabaseCount | Should -Be 2
        @($result.DatabasePaths)[0] | Should -Be (Join-Path -Path $TestDrive -ChildPath 'DB1')
        @($result.LogPaths)[1] | Should -Be (Join-Path -Path $TestDrive -ChildPath 'L2')
    }

    It 'accepts deserialized-style path objects with PathName' {
        $edb = [pscustomobject]@{ PathName = (Join-Path -Path (Join-Path -Path $TestDrive -ChildPath 'DB9') -ChildPath 'DB9.edb') }
        $result = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $edb
        @($result.DatabasePaths)[0] | Should -Be (Join-Path -Path $TestDrive -ChildPath 'DB9')
    }

    It 'saves UTF-8 JSON without a BOM that loads back to the same profile' {
        $file = Join-Path -Path $TestDrive -ChildPath 'p.json'
        $saved = New-MailboxProfile -Name 'Lab' -MailboxCount 40 -IopsPerMailbox 0.25 -MailboxSizeMB 20 -DatabaseCount 2 -ThreadCount 4 -Path $TestDrive -SaveTo $file
        $bytes = [System.IO.File]::ReadAllBytes($file)
        $bytes[0] | Should -Be ([byte][char]'{')
        $json = Get-Content -LiteralPath $file -Raw | ConvertFrom-Json
        $json.schema | Should -Be 'exchstoragetest/profile'
        $json.mailboxCount | Should -Be 40
        $json.threadCount | Should -Be 4
        $loaded = InModuleScope ExchStorageTest -Parameters @{ File = $file } { param($File) Read-MailboxProfileFile -Path $File }
        $loaded.TargetIops | Should -Be $saved.TargetIops
        $loaded.Name | Should -Be 'Lab'
    }

    It 'refuses to overwrite a saved profile without -Force, and overwrites with it' {
        $file = Join-Path -Path $TestDrive -ChildPath 'exists.json'
        Set-Content -LiteralPath $file -Value 'old'
        { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive -SaveTo $file } | Should -Throw -ErrorId 'ExchStorageTest.ProfileExists*'
        New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive -SaveTo $file -Force | Out-Null
        (Get-Content -LiteralPath $file -Raw) | Should -Match 'exchstoragetest/profile'
    }

    It 'writes nothing with -WhatIf' {
        $file = Join-Path -Path $TestDrive -ChildPath 'whatif.json'
        New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive -SaveTo $file -WhatIf | Out-Null
        Test-Path -LiteralPath $file | Should -BeFalse
    }

    It 'imports a JetstressConfig.xml, and explicit parameters override it' {
        $xml = @'
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <ExchangeProfile>
    <MailboxCount>2250</MailboxCount>
    <MailboxIops>0.12</MailboxIops>
    <MailboxQuota>2048</MailboxQuota>
    <DatabaseCopyCount>3</DatabaseCopyCount>
    <SuppressTuning>true</SuppressTuning>
    <ThreadCount>6</ThreadCount>
  </ExchangeProfile>
  <RunConfiguration>
    <RunDatabaseMaintenancePerformance>false</RunDatabaseMaintenancePerformance>
  </RunConfiguration>
  <EseInstances>
    <EseInstance><DatabasePaths><Path>/mnt/db1</Path></DatabasePaths><LogPath>/mnt/log1</LogPath></EseInstance>
    <EseInstance><DatabasePaths><Path>/mnt/db2</Path></DatabasePaths><LogPath>/mnt/log2</LogPath></EseInstance>
  </EseInstances>
</configuration>
'@
        $file = Join-Path -Path $TestDrive -ChildPath 'JetstressConfig.xml'
        [System.IO.File]::WriteAllText($file, $xml)
        $result = New-MailboxProfile -JetstressConfig $file
        $result.MailboxCount | Should -Be 2250
        $result.IopsPerMailbox | Should -Be 0.12
        $result.MailboxSizeMB | Should -Be 2048
        $result.CopiesPerDatabase | Should -Be 3
        $result.ThreadCount | Should -Be 6
        $result.BackgroundMaintenance | Should -BeFalse
        $result.DatabaseCount | Should -Be 2
        @($result.LogPaths) | Should -Be @('/mnt/log1', '/mnt/log2')

        $override = New-MailboxProfile -JetstressConfig $file -MailboxCount 1000
        $override.MailboxCount | Should -Be 1000
    }

    It 'names the value and the rule in validation messages' {
        $thrown = $null
        try {
            New-MailboxProfile -MailboxCount 0 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive
        }
        catch {
            $thrown = $_
        }
        $thrown.Exception.Message | Should -BeLike "*MailboxCount '0'*at least 1*"
        $thrown.CategoryInfo.Category | Should -Be 'InvalidArgument'
    }
}
