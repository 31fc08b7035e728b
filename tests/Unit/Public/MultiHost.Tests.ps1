#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Multi-host runs with remoting mocked: New-PSSession, Invoke-Command and Copy-Item never leave
# this process, and jobs are stand-in objects. Covers the host checks, one host failing, the
# per-host start instant, and the start-file fallback.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force

    function New-FakeHostJob {
        param([string] $Key, [string] $State = 'Completed')
        $child = [pscustomobject]@{
            Progress     = New-Object -TypeName 'System.Management.Automation.PSDataCollection[System.Management.Automation.ProgressRecord]'
            Error        = New-Object -TypeName 'System.Management.Automation.PSDataCollection[System.Management.Automation.ErrorRecord]'
            JobStateInfo = [pscustomobject]@{ Reason = $null }
        }
        $child.Progress.Add((New-Object -TypeName System.Management.Automation.ProgressRecord -ArgumentList 1, 'run', 'Measuring'))
        [pscustomobject]@{ Name = "ExchStorageTest-run-$Key"; HostKey = $Key; State = $State; ChildJobs = @($child) }
    }

    # ConvertFrom-Json turns ISO dates into DateTime in PowerShell 7 (and not in 5.1); reading the
    # raw text keeps the instant exact on both.
    function Get-IsoInstant {
        param([string] $Json, [string] $Name = 'startAtUtc')
        $match = [regex]::Match($Json, '"' + $Name + '"\s*:\s*"([^"]+)"')
        [datetime]::Parse($match.Groups[1].Value, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToUniversalTime()
    }

    function New-ResultsFixture {
        param([string] $Path, [string] $ProfileName = 'lab', [string] $Result = 'Pass', [datetime] $EndUtc = [DateTime]::UtcNow, [string] $Completion = 'Complete', [string] $TestType = 'Performance')
        $folder = Split-Path -Path $Path -Parent
        if (-not (Test-Path -LiteralPath $folder)) {
            $null = New-Item -Path $folder -ItemType Directory -Force
        }
        $document = [ordered]@{
            schema        = 'exchstoragetest/results'
            schemaVersion = 1
            testId        = [System.IO.Path]::GetFileNameWithoutExtension($Path)
            testType      = $TestType
            completion    = $Completion
            profile       = [ordered]@{ name = $ProfileName }
            timeline      = [ordered]@{ testStartUtc = $EndUtc.AddMinutes(-5).ToString('o'); testEndUtc = $EndUtc.ToString('o') }
            verdict       = [ordered]@{ result = $Result; reasons = @() }
        }
        Set-Content -LiteralPath $Path -Value (ConvertTo-Json -InputObject $document -Depth 5) -Encoding UTF8
        $Path
    }
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Invoke-StorageTest -ComputerName' {
    BeforeEach {
        $script:runRequests = New-Object -TypeName System.Collections.Generic.List[object]
        $dbRoot = Join-Path -Path $TestDrive -ChildPath 'db'
        $null = New-Item -Path $dbRoot -ItemType Directory -Force
        $profilePath = Join-Path -Path $TestDrive -ChildPath 'lab.profile.json'
        $null = New-MailboxProfile -Name 'lab' -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $dbRoot -SaveTo $profilePath -Force
        $outputPath = Join-Path -Path $TestDrive -ChildPath 'collected'
        $remoteFixtures = Join-Path -Path $TestDrive -ChildPath 'remote'

        Mock -ModuleName ExchStorageTest -CommandName New-PSSession -MockWith {
            [pscustomobject]@{ ComputerName = [string]@($ComputerName)[0]; Availability = 'Available'; State = 'Opened' }
        }
        Mock -ModuleName ExchStorageTest -CommandName Remove-PSSession -RemoveParameterType Session -MockWith { return }
        Mock -ModuleName ExchStorageTest -CommandName Test-StorageTestHost -MockWith {
            $skew = 0
            if ($Session.ComputerName -eq 'b') {
                $skew = 2000
            }
            [pscustomobject]@{
                PSTypeName       = 'ExchStorageTest.HostCheck'
                ComputerName     = $Session.ComputerName
                ModulePath       = '/opt/ExchStorageTest/ExchStorageTest.psd1'
                EnginePath       = '/opt/ExchStorageTest/bin/linux-x64/exchstoragetest-engine'
                ModuleCopied     = $false
                ClockSkew        = [timespan]::FromMilliseconds($skew)
                ClockUncertainty = [timespan]::FromMilliseconds(3)
                Volumes          = @()
            }
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -ParameterFilter { -not $AsJob } -MockWith {
            [pscustomobject]@{ type = 'plan'; targetIops = 50; threadCount = 4; totalBytes = 1048576; files = @([pscustomobject]@{ path = 'db1/a.edb'; sizeBytes = 1048576; kind = 'database'; exists = $false }) }
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -ParameterFilter { $AsJob } -MockWith {
            $script:runRequests.Add([pscustomobject]@{ Json = [string]$ArgumentList[1]; Request = (ConvertFrom-Json -InputObject $ArgumentList[1]) })
            New-FakeHostJob -Key $Session.ComputerName
        }
        Mock -ModuleName ExchStorageTest -CommandName Receive-StorageTestHostJob -MockWith {
            $key = $Job.HostKey
            $achieved = 50.5
            if ($key -eq 'b') {
                $achieved = 49.5
            }
            @{
                Output = @([pscustomobject]@{ type = 'result'; testId = "run-$key"; testType = 'Performance'; result = 'Pass'; completion = 'Complete'; targetIops = 50; achievedIops = $achieved; resultsPath = "/remote/$key/results-$key.json"; reasons = @() })
                Errors = @()
            }
        }
        Mock -ModuleName ExchStorageTest -CommandName Remove-Job -RemoveParameterType Job -MockWith { return }
        Mock -ModuleName ExchStorageTest -CommandName Stop-Job -RemoveParameterType Job -MockWith { return }
        Mock -ModuleName ExchStorageTest -CommandName Copy-Item -RemoveParameterType @('FromSession', 'ToSession') -ParameterFilter { $null -ne $FromSession } -MockWith {
            $leaf = @($Path -split '[\\/]')[-1]
            $null = New-ResultsFixture -Path (Join-Path -Path $Destination -ChildPath $leaf)
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'report' } -MockWith {
            [pscustomobject]@{ type = 'report'; testIds = @('run-a', 'run-b', 'run-c'); aggregate = [pscustomobject]@{ achievedTransactionalIops = 150.5; targetTransactionalIops = 150 } }
        }
    }

    It 'returns a TestResult per host and an aggregate from the merged report' {
        $output = @(Invoke-StorageTest -ComputerName @('a', 'b', 'c') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -Force)

        $results = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $aggregate = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' })
        $results.Count | Should -Be 3
        @($results | ForEach-Object { $_.ComputerName } | Sort-Object) | Should -Be @('a', 'b', 'c')
        foreach ($result in $results) {
            $result.ResultsPath | Should -Be (Join-Path -Path (Join-Path -Path $outputPath -ChildPath $result.ComputerName) -ChildPath "results-$($result.ComputerName).json")
            Test-Path -LiteralPath $result.ResultsPath | Should -BeTrue
            $result.RemoteResultsPath | Should -Be "/remote/$($result.ComputerName)/results-$($result.ComputerName).json"
        }
        $aggregate.Count | Should -Be 1
        $aggregate[0].Result | Should -Be 'Pass'
        $aggregate[0].HostCount | Should -Be 3
        $aggregate[0].AchievedIops | Should -Be 150.5
        $aggregate[0].AchievedIopsSource | Should -Be 'Report'
        $aggregate[0].AchievedIopsPerHostSum | Should -Be 150.5
        Test-Path -LiteralPath (Join-Path -Path $outputPath -ChildPath 'run.json') | Should -BeTrue
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -Times 1 -Exactly -ParameterFilter { $Request.command -eq 'report' -and @($Request.paths).Count -eq 3 }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Remove-PSSession -Times 3 -Exactly
    }

    It 'sends every host one start instant, on its own clock (corrected by its skew), at least 60 s ahead' {
        $before = [DateTime]::UtcNow
        $null = Invoke-StorageTest -ComputerName @('a', 'b') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -Force

        $script:runRequests.Count | Should -Be 2
        $byKey = @{}
        foreach ($captured in $script:runRequests) {
            $byKey[([string]$captured.Request.testId).Split('-')[-1]] = $captured
        }
        $startA = Get-IsoInstant -Json $byKey['a'].Json
        $startB = Get-IsoInstant -Json $byKey['b'].Json
        ($startB - $startA).TotalMilliseconds | Should -Be 2000
        ($startA - $before).TotalSeconds | Should -BeGreaterOrEqual 59
        $byKey['a'].Request.command | Should -Be 'run'
        $byKey['a'].Request.outputPath | Should -BeNullOrEmpty
    }

    It 'reports a failing host as ExchStorageTest.HostFailed with its name, and keeps the others' {
        Mock -ModuleName ExchStorageTest -CommandName Test-StorageTestHost -ParameterFilter { $Session.ComputerName -eq 'b' } -MockWith {
            throw 'WinRM cannot complete the operation.'
        }

        $hostErrors = $null
        $output = @(Invoke-StorageTest -ComputerName @('a', 'b', 'c') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -Force -ErrorVariable hostErrors -ErrorAction SilentlyContinue)

        $results = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        @($results | ForEach-Object { $_.ComputerName } | Sort-Object) | Should -Be @('a', 'c')
        $failures = @($hostErrors | Where-Object { $_.FullyQualifiedErrorId -like 'ExchStorageTest.HostFailed*' })
        $failures.Count | Should -Be 1
        $failures[0].TargetObject | Should -Be 'b'
        $failures[0].Exception.Message | Should -Match 'WinRM cannot complete'
        $aggregate = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' })[0]
        $aggregate.Result | Should -Be 'Fail'
        @($aggregate.FailedHosts) | Should -Be @('b')
        $script:runRequests.Count | Should -Be 2
    }

    It 'reports a host whose session cannot be opened, and runs the others' {
        Mock -ModuleName ExchStorageTest -CommandName New-PSSession -ParameterFilter { @($ComputerName)[0] -eq 'c' } -MockWith {
            throw 'Connecting to remote server c failed.'
        }

        $hostErrors = $null
        $output = @(Invoke-StorageTest -ComputerName @('a', 'c') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -Force -ErrorVariable hostErrors -ErrorAction SilentlyContinue)

        @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' }).Count | Should -Be 1
        $failure = @($hostErrors | Where-Object { $_.FullyQualifiedErrorId -like 'ExchStorageTest.HostFailed*' })[0]
        $failure.TargetObject | Should -Be 'c'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Remove-PSSession -Times 1 -Exactly
    }

    It 'reports a host whose job returns no result' {
        Mock -ModuleName ExchStorageTest -CommandName Receive-StorageTestHostJob -ParameterFilter { $Job.HostKey -eq 'a' } -MockWith {
            @{ Output = @(); Errors = @((New-Object -TypeName System.Management.Automation.ErrorRecord -ArgumentList (New-Object -TypeName System.Exception -ArgumentList 'disk full'), 'X', 'WriteError', $null)) }
        }

        $hostErrors = $null
        $output = @(Invoke-StorageTest -ComputerName @('a', 'b') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -Force -ErrorVariable hostErrors -ErrorAction SilentlyContinue)

        @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' } | ForEach-Object { $_.ComputerName }) | Should -Be @('b')
        $failure = @($hostErrors | Where-Object { $_.FullyQualifiedErrorId -like 'ExchStorageTest.HostFailed*' })[0]
        $failure.TargetObject | Should -Be 'a'
        $failure.Exception.Message | Should -Match 'disk full'
    }

    It 'runs nothing on any host with -WhatIf' {
        $null = Invoke-StorageTest -ComputerName @('a', 'b') -ProfilePath $profilePath -Duration 00:00:30 -OutputPath $outputPath -WhatIf
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-Command -Times 2 -Exactly -ParameterFilter { -not $AsJob }
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-Command -Times 0 -Exactly -ParameterFilter { $AsJob }
    }

    It 'replaces {host} in the database paths of each host' {
        $tokenProfile = Join-Path -Path $TestDrive -ChildPath 'token.profile.json'
        $document = Get-Content -LiteralPath $profilePath -Raw | ConvertFrom-Json
        $document.databasePaths = @('/shared/{host}/db')
        Set-Content -LiteralPath $tokenProfile -Value (ConvertTo-Json -InputObject $document -Depth 5)

        $null = Invoke-StorageTest -ComputerName @('a', 'b') -ProfilePath $tokenProfile -Duration 00:00:30 -OutputPath $outputPath -Force

        @($script:runRequests | ForEach-Object { @($_.Request.profile.databasePaths)[0] } | Sort-Object) | Should -Be @('/shared/a/db', '/shared/b/db')
    }
}

Describe 'Host checks' {
    It 'measures clock skew with the round trip taken out' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -MockWith { [DateTime]::UtcNow.AddSeconds(5).Ticks }
        $clock = InModuleScope ExchStorageTest { Measure-StorageTestClockSkew -Session ([pscustomobject]@{ ComputerName = 'a' }) -Samples 3 }
        $clock.Skew.TotalSeconds | Should -BeGreaterThan 4.5
        $clock.Skew.TotalSeconds | Should -BeLessThan 5.5
        $clock.Uncertainty | Should -BeLessOrEqual $clock.RoundTrip
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-Command -Times 3 -Exactly
    }

    It 'copies the module and the engine for the host platform when the module is missing there' {
        $script:copies = New-Object -TypeName System.Collections.Generic.List[string]
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -MockWith {
            if ($null -eq $ArgumentList) {
                return [DateTime]::UtcNow.Ticks
            }
            $arguments = @($ArgumentList)
            # The host check: version, module path, folders, and Get-EngineRuntimeId's body as text.
            if ($arguments.Count -eq 4 -and ([string]$arguments[3]).Contains('OSArchitecture')) {
                $enginePath = $null
                if ($script:copies.Count -gt 0 -and -not [string]::IsNullOrEmpty([string]$arguments[1])) {
                    $enginePath = '/tmp/ExchStorageTest-r1/bin/linux-x64/exchstoragetest-engine'
                }
                return [pscustomobject]@{ ComputerName = 'h1'; PSVersion = '7.4.0'; RuntimeId = 'linux-x64'; ModulePath = $arguments[1]; EnginePath = $enginePath; EngineError = $null; TempPath = '/tmp/'; IsWindows = $false; Volumes = @() }
            }
        }
        Mock -ModuleName ExchStorageTest -CommandName Copy-Item -RemoveParameterType @('FromSession', 'ToSession') -MockWith { $script:copies.Add([string]$Destination) }
        $fakeRoot = Join-Path -Path $TestDrive -ChildPath 'fakeroot'
        $null = New-Item -Path (Join-Path -Path $fakeRoot -ChildPath 'bin/linux-x64') -ItemType Directory -Force

        $check = InModuleScope ExchStorageTest -Parameters @{ FakeRoot = $fakeRoot } {
            param($FakeRoot)
            $saved = $script:ModuleRoot
            $script:ModuleRoot = $FakeRoot
            try {
                Test-StorageTestHost -Session ([pscustomobject]@{ ComputerName = 'h1' }) -RunId 'r1' -Path @('/data/db')
            }
            finally {
                $script:ModuleRoot = $saved
            }
        }

        $check.ModuleCopied | Should -BeTrue
        $check.ModulePath | Should -Be '/tmp/ExchStorageTest-r1/ExchStorageTest.psd1'
        $check.EnginePath | Should -Be '/tmp/ExchStorageTest-r1/bin/linux-x64/exchstoragetest-engine'
        @($script:copies) | Should -Be @('/tmp/ExchStorageTest-r1', '/tmp/ExchStorageTest-r1/src', '/tmp/ExchStorageTest-r1/bin/linux-x64')
    }

    It 'fails with EngineNotAvailable when there is no engine for the host platform to copy' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -MockWith {
            [pscustomobject]@{ ComputerName = 'h1'; PSVersion = '5.1'; RuntimeId = 'win-arm64-none'; ModulePath = $null; EnginePath = $null; EngineError = $null; TempPath = 'C:\Temp\'; IsWindows = $true; Volumes = @() }
        }
        Mock -ModuleName ExchStorageTest -CommandName Copy-Item -RemoveParameterType @('FromSession', 'ToSession') -MockWith { return }
        { InModuleScope ExchStorageTest { Test-StorageTestHost -Session ([pscustomobject]@{ ComputerName = 'h1' }) -RunId 'r1' } } | Should -Throw -ErrorId 'ExchStorageTest.EngineNotAvailable'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Copy-Item -Times 0 -Exactly
    }

    It 'uses the installed module without copying when its engine is present' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-Command -RemoveParameterType Session -MockWith {
            if ($null -eq $ArgumentList) {
                return [DateTime]::UtcNow.Ticks
            }
            [pscustomobject]@{ ComputerName = 'h1'; PSVersion = '5.1'; RuntimeId = 'win-x64'; ModulePath = 'C:\Program Files\WindowsPowerShell\Modules\ExchStorageTest\0.1.0\ExchStorageTest.psd1'; EnginePath = 'C:\x\exchstoragetest-engine.exe'; EngineError = $null; TempPath = 'C:\Temp\'; IsWindows = $true; Volumes = @([pscustomobject]@{ Path = 'D:\db'; Exists = $true; Volume = 'D:\'; FreeBytes = 1000 }) }
        }
        Mock -ModuleName ExchStorageTest -CommandName Copy-Item -RemoveParameterType @('FromSession', 'ToSession') -MockWith { return }
        $check = InModuleScope ExchStorageTest { Test-StorageTestHost -Session ([pscustomobject]@{ ComputerName = 'h1' }) -RunId 'r1' -Path @('D:\db') }
        $check.ModuleCopied | Should -BeFalse
        @($check.Volumes)[0].FreeBytes | Should -Be 1000
        Should -Invoke -ModuleName ExchStorageTest -CommandName Copy-Item -Times 0 -Exactly
    }
}

Describe 'Invoke-StorageTest -StartFile' {
    BeforeEach {
        $script:runRequests = New-Object -TypeName System.Collections.Generic.List[object]
        $dbRoot = Join-Path -Path $TestDrive -ChildPath 'sfdb'
        $null = New-Item -Path $dbRoot -ItemType Directory -Force
        $profilePath = Join-Path -Path $TestDrive -ChildPath 'sf.profile.json'
        $null = New-MailboxProfile -Name 'lab' -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path $dbRoot -SaveTo $profilePath -Force
        $runFolder = Join-Path -Path $TestDrive -ChildPath ('run-' + [guid]::NewGuid().ToString('N').Substring(0, 6))
        $null = New-Item -Path $runFolder -ItemType Directory
        $localResults = New-ResultsFixture -Path (Join-Path -Path $TestDrive -ChildPath 'local/results.json')

        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'plan' } -MockWith {
            [pscustomobject]@{ type = 'plan'; targetIops = 50; threadCount = 4; files = @() }
        }
        Mock -ModuleName ExchStorageTest -CommandName Invoke-EngineProcess -ParameterFilter { $Request.command -eq 'run' } -MockWith {
            $script:runRequests.Add($Request)
            [pscustomobject]@{ type = 'result'; testId = $Request.testId; testType = 'Performance'; result = 'Pass'; completion = 'Complete'; targetIops = 50; achievedIops = 50.2; resultsPath = $localResults; reasons = @() }
        }
    }

    It 'creates the start file when it is the first host, waits for its instant and copies its results next to it' {
        $startFile = Join-Path -Path $runFolder -ChildPath 'start.json'
        $result = Invoke-StorageTest -StartFile $startFile -ProfilePath $profilePath -Duration 00:00:30 -Force

        Test-Path -LiteralPath $startFile | Should -BeTrue
        $startText = Get-Content -LiteralPath $startFile -Raw
        (ConvertFrom-Json -InputObject $startText).schema | Should -Be 'exchstoragetest/run'
        $script:runRequests.Count | Should -Be 1
        $sent = [datetime]::Parse([string]$script:runRequests[0].startAtUtc, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToUniversalTime()
        $sent | Should -Be (Get-IsoInstant -Json $startText)
        ($sent - [DateTime]::UtcNow).TotalSeconds | Should -BeGreaterThan 50
        $shared = Join-Path -Path (Join-Path -Path $runFolder -ChildPath 'results') -ChildPath (([System.Environment]::MachineName -replace '[^A-Za-z0-9._-]', '_') + '.json')
        $result.SharedResultsPath | Should -Be $shared
        Test-Path -LiteralPath $shared | Should -BeTrue
        $result.ComputerName | Should -Be ([System.Environment]::MachineName)
    }

    It 'uses the instant of a start file written by New-StorageTestRun, and never overwrites another copy' {
        $instant = [DateTime]::UtcNow.AddMinutes(10)
        $run = New-StorageTestRun -Path $runFolder -StartAtUtc $instant -HostCount 2 -Force
        $run.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.StorageTestRun'

        $first = Invoke-StorageTest -StartFile $run.StartFile -ProfilePath $profilePath -Duration 00:00:30 -Force
        $second = Invoke-StorageTest -StartFile $run.StartFile -ProfilePath $profilePath -Duration 00:00:30 -Force

        $sent = [datetime]::Parse([string]$script:runRequests[0].startAtUtc, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToUniversalTime()
        [System.Math]::Abs(($sent - $instant).TotalMilliseconds) | Should -BeLessThan 2
        $first.SharedResultsPath | Should -Not -Be $second.SharedResultsPath
        @(Get-ChildItem -LiteralPath $run.ResultsPath -Filter '*.json').Count | Should -Be 2
    }

    It 'refuses a start instant that has passed' {
        $startFile = Join-Path -Path $runFolder -ChildPath 'start.json'
        InModuleScope ExchStorageTest -Parameters @{ StartFile = $startFile } {
            param($StartFile)
            $null = Write-StorageTestStartFile -Path $StartFile -StartAtUtc ([DateTime]::UtcNow.AddMinutes(-1)) -RunId 'past'
        }
        { Invoke-StorageTest -StartFile $startFile -ProfilePath $profilePath -Duration 00:00:30 -Force } | Should -Throw -ErrorId 'ExchStorageTest.StartTimePassed,Invoke-StorageTest'
        $script:runRequests.Count | Should -Be 0
    }

    It 'waits for a start file with -StartFileTimeout, then gives up with StartFileNotFound' {
        $startFile = Join-Path -Path $runFolder -ChildPath 'never.json'
        { Invoke-StorageTest -StartFile $startFile -StartFileTimeout 00:00:01 -ProfilePath $profilePath -Duration 00:00:30 -Force } | Should -Throw -ErrorId 'ExchStorageTest.StartFileNotFound,Invoke-StorageTest'
        Test-Path -LiteralPath $startFile | Should -BeFalse
    }

    It 'lets exactly one host create the start file' {
        $startFile = Join-Path -Path $runFolder -ChildPath 'race.json'
        $outcomes = InModuleScope ExchStorageTest -Parameters @{ StartFile = $startFile } {
            param($StartFile)
            Write-StorageTestStartFile -Path $StartFile -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5)) -RunId 'one'
            Write-StorageTestStartFile -Path $StartFile -StartAtUtc ([DateTime]::UtcNow.AddMinutes(9)) -RunId 'two'
        }
        @($outcomes) | Should -Be @($true, $false)
        (Get-Content -LiteralPath $startFile -Raw | ConvertFrom-Json).runId | Should -Be 'one'
    }

    It 'New-StorageTestRun refuses an instant in the past and an existing start file' {
        { New-StorageTestRun -Path $runFolder -StartAtUtc ([DateTime]::UtcNow.AddMinutes(-5)) -Force } | Should -Throw -ErrorId 'ExchStorageTest.InvalidStartTime,New-StorageTestRun'
        $null = New-StorageTestRun -Path $runFolder -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5)) -Confirm:$false
        { New-StorageTestRun -Path $runFolder -StartAtUtc ([DateTime]::UtcNow.AddMinutes(5)) -Confirm:$false } | Should -Throw -ErrorId 'ExchStorageTest.StartFileExists,New-StorageTestRun'
    }
}
