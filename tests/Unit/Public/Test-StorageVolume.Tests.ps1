#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Test-StorageVolume' {
    BeforeEach {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -MockWith {
            [pscustomobject]@{ type = 'finding'; path = @($Request.paths)[0]; volume = '/'; check = 'AllocationUnitSize'; severity = 'Warning'; measured = 4096; expected = 65536; message = 'Allocation unit is 4 KB; Exchange recommends 64 KB.' }
            [pscustomobject]@{ type = 'inspect'; findings = @([pscustomobject]@{ path = @($Request.paths)[0]; check = 'FileSystem'; severity = 'Pass'; measured = 'ext4'; expected = 'NTFS or ReFS' }) }
        }
    }

    It 'returns one VolumeFinding per finding, from single events and from findings arrays' {
        $findings = @(Test-StorageVolume -Path $TestDrive)
        $findings.Count | Should -Be 2
        $findings[0].PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.VolumeFinding'
        $findings[0].Check | Should -Be 'AllocationUnitSize'
        $findings[0].Severity | Should -Be 'Warning'
        $findings[1].Check | Should -Be 'FileSystem'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { $Request.command -eq 'inspect' -and @($Request.paths) -contains $TestDrive }
    }

    It 'takes database and log folders from Get-MailboxDatabase-like objects in one engine call' {
        $db = New-Item -Path (Join-Path -Path $TestDrive -ChildPath 'DB1') -ItemType Directory
        $log = New-Item -Path (Join-Path -Path $TestDrive -ChildPath 'L1') -ItemType Directory
        $null = [pscustomobject]@{ EdbFilePath = (Join-Path -Path $db.FullName -ChildPath 'DB1.edb'); LogFolderPath = $log.FullName } | Test-StorageVolume
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            @($Request.paths).Count -eq 2 -and @($Request.paths)[0] -eq $db.FullName -and @($Request.paths)[1] -eq $log.FullName
        }
    }
}
