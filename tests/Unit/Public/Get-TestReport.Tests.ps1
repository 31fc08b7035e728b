#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force

    function New-ResultsFile([string] $Folder, [string] $TestId) {
        $null = New-Item -Path $Folder -ItemType Directory -Force
        $file = Join-Path -Path $Folder -ChildPath 'results.json'
        [System.IO.File]::WriteAllText($file, ('{{"schema":"exchstoragetest/results","testId":"{0}","verdict":{{"result":"Pass","reasons":[]}}}}' -f $TestId))
        $file
    }
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Get-TestReport' {
    BeforeEach {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -MockWith {
            [pscustomobject]@{
                type      = 'report'
                testIds   = @('t1')
                result    = 'Pass'
                text      = 'Overall Test Result: Pass'
                files     = @($Request.formats | ForEach-Object { 'report.' + $_.ToLowerInvariant() })
                esrp      = [pscustomobject]@{ databaseDisksTransfersPerSecond = 300 }
                instances = @([pscustomobject]@{ name = 'Instance.1' })
                novelty   = 'a field this module does not know'
            }
        }
    }

    It 'renders a results file into a report object without writing files' {
        $file = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'run1') -TestId 't1'
        $report = Get-TestReport -Path $file
        $report.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestReport'
        $report.Text | Should -Be 'Overall Test Result: Pass'
        $report.Esrp.databaseDisksTransfersPerSecond | Should -Be 300
        @($report.Instances).Count | Should -Be 1
        $report.Raw.novelty | Should -Not -BeNullOrEmpty
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'report' -and @($Request.formats).Count -eq 0 -and $null -eq $Request.outputPath -and @($Request.paths).Count -eq 1
        }
    }

    It 'binds TestResult objects by ResultsPath and aggregates several runs in one request' {
        $a = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'hostA') -TestId 'a'
        $b = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'hostB') -TestId 'b'
        $results = @(
            [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; TestId = 'a'; ResultsPath = $a }
            [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; TestId = 'b'; ResultsPath = $b }
        )
        $report = $results | Get-TestReport -Format 'Html', 'Csv' -OutputPath $TestDrive
        @($report).Count | Should -Be 1
        @($report.Files) | Should -Be @('report.html', 'report.csv')
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            @($Request.paths).Count -eq 2 -and @($Request.formats).Count -eq 2 -and $Request.outputPath -eq $TestDrive
        }
    }

    It 'finds the results documents in a folder of runs and ignores other JSON' {
        $null = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'runs/r1') -TestId 'r1'
        $null = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'runs/r2') -TestId 'r2'
        [System.IO.File]::WriteAllText((Join-Path -Path $TestDrive -ChildPath 'runs/profile.json'), '{"schema":"exchstoragetest/profile"}')
        $null = Get-TestReport -Path (Join-Path -Path $TestDrive -ChildPath 'runs')
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { @($Request.paths).Count -eq 2 }
    }

    It 'asks the engine to write nothing under -WhatIf but still returns the report' {
        $file = New-ResultsFile -Folder (Join-Path -Path $TestDrive -ChildPath 'w') -TestId 'w'
        $report = Get-TestReport -Path $file -Format Html -WhatIf
        $report | Should -Not -BeNullOrEmpty
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { @($Request.formats).Count -eq 0 -and $null -eq $Request.outputPath }
    }
}
