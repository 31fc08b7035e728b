#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Test-DatabaseChecksum' {
    It 'returns one ChecksumResult per file and derives Fail from bad pages' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -MockWith {
            [pscustomobject]@{ type = 'verify'; files = @(
                    [pscustomobject]@{ path = 'db1.edb'; kind = 'database'; pagesChecked = 1000; badPages = 0 }
                    [pscustomobject]@{ path = 'db2.edb'; kind = 'database'; pagesChecked = 1000; badPages = 2; message = 'pages 17 and 18: CRC mismatch' }
                )
            }
        }
        $results = @(Test-DatabaseChecksum -Path $TestDrive)
        $results.Count | Should -Be 2
        $results[0].PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.ChecksumResult'
        $results[0].Result | Should -Be 'Pass'
        $results[1].Result | Should -Be 'Fail'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { $Request.command -eq 'verify' -and @($Request.paths) -contains $TestDrive }
    }

    It 'keeps the engine''s own verdict when it gives one' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -MockWith {
            [pscustomobject]@{ type = 'verify'; path = 'log'; kind = 'log'; logsChecked = 10; badLogs = 0; result = 'Fail'; message = 'log generation gap' }
        }
        (Test-DatabaseChecksum -Path $TestDrive).Result | Should -Be 'Fail'
    }
}
