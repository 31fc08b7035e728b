#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# The engine is mocked at Invoke-EngineProcess, the one function that starts it: these tests
# cover what the command sends and how it shapes what comes back.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Invoke-StorageTest' {
    BeforeEach {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'plan' } -MockWith {
            [pscustomobject]@{
                type        = 'plan'
                files       = @(
                    [pscustomobject]@{ path = 'db1/ExchStorageTest.edb'; sizeBytes = 2621440000; kind = 'database' }
                    [pscustomobject]@{ path = 'db2/ExchStorageTest.edb'; sizeBytes = 2621440000; kind = 'database' }
                )
                targetIops  = 50
                threadCount = 4
            }
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'run' } -MockWith {
            [pscustomobject]@{ type = 'log'; level = 'info'; message = 'not a result' }
            [pscustomobject]@{
                type              = 'result'
                testId            = $Request.testId
                testType          = $Request.testType
                result            = 'Fail'
                reasons           = @([pscustomobject]@{ code = 'DbReadLatencyAverage'; instance = 'Instance.1'; message = 'Average DB read latency 25 ms exceeds 20 ms.'; measured = 25; limit = 20 })
                targetIops        = 50
                achievedIops      = 51.2
                dbReadLatencyMs   = [pscustomobject]@{ average = 25.0; p99 = 80.5 }
                dbWriteLatencyMs  = [pscustomobject]@{ average = 3.1; p99 = 9.9 }
                logWriteLatencyMs = [pscustomobject]@{ average = 0.8; p99 = 2.2 }
                resultsPath       = 'out/results.json'
                reportPaths       = @('out/report.html')
                completion        = 'Complete'
            }
        }
    }

    It 'runs the foundation slice: New-MailboxProfile ... -Path $dir | Invoke-StorageTest -Duration 00:00:30' {
        $result = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $TestDrive | Invoke-StorageTest -Duration 00:00:30
        @($result).Count | Should -Be 1
        $result.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.TestResult'
        $result.Result | Should -Be 'Fail'
        $result.TestType | Should -Be 'Performance'
        $result.TargetIops | Should -Be 50
        $result.AchievedIops | Should -Be 51.2
        $result.DbReadLatencyAvgMs | Should -Be 25
        $result.DbReadLatencyP99Ms | Should -Be 80.5
        $result.LogWriteLatencyP99Ms | Should -Be 2.2
        $result.ResultsPath | Should -Be 'out/results.json'
        @($result.ReportPath) | Should -Be @('out/report.html')
        @($result.Reasons).Count | Should -Be 1
        $result.Reasons[0].Code | Should -Be 'DbReadLatencyAverage'
        $result.Passed | Should -BeFalse

        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.durationSeconds -eq 30 -and $Request.profile.mailboxCount -eq 100 -and
            $Request.profile.databaseCount -eq 2 -and $Request.protocol -eq 1 -and $Request.testType -eq 'Performance' -and
            $Request.thresholds.maximumDatabaseReadLatencyMs -eq 100
        }
    }

    It 'plans but runs nothing with -WhatIf' {
        $result = New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $TestDrive | Invoke-StorageTest -Duration 00:00:30 -WhatIf
        $result | Should -BeNullOrEmpty
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { $Request.command -eq 'plan' }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 0 -Exactly -ParameterFilter { $Request.command -eq 'run' }
    }

    It 'lists every planned file and its size in the ShouldProcess text' {
        $text = InModuleScope ExchStorageTest {
            $plan = [pscustomobject]@{ type = 'plan'; targetIops = 50; threadCount = 4; files = @([pscustomobject]@{ path = 'db1/a.edb'; sizeBytes = 1048576; kind = 'database' }, [pscustomobject]@{ path = 'log1/E00.log'; sizeBytes = 1048576; kind = 'log' }) }
            $mailboxProfile = [pscustomobject]@{ Name = 'P'; TargetIops = 50; ThreadCount = $null }
            Format-TestPlan -Plan $plan -MailboxProfile $mailboxProfile -TestType 'Performance' -Duration ([timespan]::FromSeconds(30))
        }
        $text | Should -Match 'db1/a\.edb'
        $text | Should -Match 'log1/E00\.log'
        $text | Should -Match 'Files to create or reuse: 2'
        $text | Should -Match 'target 50 transactional IOPS'
    }

    It 'uses the lenient thresholds for Stress and merges overrides' {
        $null = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive | Invoke-StorageTest -TestType Stress -Thresholds @{ averageDatabaseReadLatencyMs = 15 }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.testType -eq 'Stress' -and
            $Request.thresholds.maximumDatabaseReadLatencyMs -eq 200 -and $Request.thresholds.averageDatabaseReadLatencyMs -eq 15 -and
            $Request.thresholds.name -eq 'Custom'
        }
    }

    It 'sends the overrides: thread count, sample interval, continue-on-error, database source' {
        $null = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive | Invoke-StorageTest -ThreadCount 8 -SampleIntervalSeconds 1 -ContinueOnError -DatabaseSource Attach -OutputPath $TestDrive
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.threadCount -eq 8 -and $Request.sampleIntervalSeconds -eq 1 -and
            $Request.continueOnError -eq $true -and $Request.databaseSource -eq 'Attach' -and $Request.outputPath -eq $TestDrive -and
            $null -eq $Request.targetRateIops
        }
    }

    It 'pins the worker threads unless -NoCpuAffinity is given' {
        $mailboxProfile = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive
        $null = $mailboxProfile | Invoke-StorageTest
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.pinWorkerThreads -eq $true
        }
        $null = $mailboxProfile | Invoke-StorageTest -NoCpuAffinity
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.pinWorkerThreads -eq $false
        }
    }

    It 'takes the databases piped from Get-MailboxDatabase with -MailboxProfile given' {
        $db1 = New-Item -Path (Join-Path -Path $TestDrive -ChildPath 'DB1') -ItemType Directory
        $db2 = New-Item -Path (Join-Path -Path $TestDrive -ChildPath 'DB2') -ItemType Directory
        $databases = @(
            [pscustomobject]@{ Name = 'DB1'; EdbFilePath = (Join-Path -Path $db1.FullName -ChildPath 'DB1.edb'); LogFolderPath = $db1.FullName }
            [pscustomobject]@{ Name = 'DB2'; EdbFilePath = (Join-Path -Path $db2.FullName -ChildPath 'DB2.edb'); LogFolderPath = $db2.FullName }
        )
        $mailboxProfile = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive
        $result = $databases | Invoke-StorageTest -MailboxProfile $mailboxProfile
        @($result).Count | Should -Be 1
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter {
            $Request.command -eq 'run' -and $Request.profile.databaseCount -eq 2 -and @($Request.profile.databasePaths).Count -eq 2 -and @($Request.profile.logPaths).Count -eq 2
        }
    }

    It 'loads a saved profile with -ProfilePath' {
        $file = Join-Path -Path $TestDrive -ChildPath 'saved.json'
        $null = New-MailboxProfile -Name 'Saved' -MailboxCount 20 -IopsPerMailbox 0.2 -MailboxSizeMB 10 -Path $TestDrive -SaveTo $file
        $result = Invoke-StorageTest -ProfilePath $file -Duration 00:00:10
        $result.ProfileName | Should -Be 'Saved'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { $Request.command -eq 'run' -and $Request.profile.name -eq 'Saved' }
    }

    It 'starts a background job with -AsJob after planning, and runs nothing in this session' {
        Mock -ModuleName ExchStorageTest -CommandName Start-Job -MockWith { [pscustomobject]@{ Name = $Name; Arguments = $ArgumentList } }
        $job = New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $TestDrive | Invoke-StorageTest -Duration 00:00:30 -AsJob
        $job.Name | Should -BeLike 'ExchStorageTest-Performance-*'
        $job.Arguments[0] | Should -BeLike '*ExchStorageTest.psd1'
        $job.Arguments[1].Duration | Should -Be ([timespan]::FromSeconds(30))
        $job.Arguments[1].Confirm | Should -BeFalse
        Should -Invoke -ModuleName ExchStorageTest -CommandName Start-Job -Times 1 -Exactly
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 0 -Exactly -ParameterFilter { $Request.command -eq 'run' }
    }
}
