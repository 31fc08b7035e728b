#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# The ExchStorageValidation DSC resource on fixture results files: Get and Test only read them;
# Set runs Invoke-StorageTest (mocked) and throws on a failing verdict.

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force

    function New-ResultsFixture {
        param([string] $Path, [string] $ProfileName = 'gate', [string] $Result = 'Pass', [datetime] $EndUtc = [DateTime]::UtcNow, [string] $Completion = 'Complete', [string] $TestType = 'Performance')
        $folder = Split-Path -Path $Path -Parent
        if (-not (Test-Path -LiteralPath $folder)) {
            $null = New-Item -Path $folder -ItemType Directory -Force
        }
        $reasons = @()
        if ($Result -eq 'Fail') {
            $reasons = @([ordered]@{ code = 'DbReadLatencyAverage'; message = 'Average DB read latency 25 ms exceeds 20 ms.' })
        }
        $document = [ordered]@{
            schema        = 'exchstoragetest/results'
            schemaVersion = 1
            testId        = [System.IO.Path]::GetFileNameWithoutExtension($Path)
            testType      = $TestType
            completion    = $Completion
            profile       = [ordered]@{ name = $ProfileName }
            timeline      = [ordered]@{ testStartUtc = $EndUtc.AddMinutes(-5).ToString('o'); testEndUtc = $EndUtc.ToString('o') }
            verdict       = [ordered]@{ result = $Result; reasons = $reasons }
        }
        Set-Content -LiteralPath $Path -Value (ConvertTo-Json -InputObject $document -Depth 5) -Encoding UTF8
    }

    function New-Validation {
        param([string] $ProfilePath, [string] $OutputPath, [int] $MaxResultAgeHours = 24)
        InModuleScope ExchStorageTest -Parameters @{ P = $ProfilePath; O = $OutputPath; M = $MaxResultAgeHours } {
            param($P, $O, $M)
            $resource = [ExchStorageValidation]::new()
            $resource.Name = 'gate'
            $resource.ProfilePath = $P
            $resource.OutputPath = $O
            $resource.MaxResultAgeHours = $M
            $resource
        }
    }
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'ExchStorageValidation' {
    BeforeEach {
        $case = Join-Path -Path $TestDrive -ChildPath ([guid]::NewGuid().ToString('N').Substring(0, 8))
        $db = Join-Path -Path $case -ChildPath 'db'
        $null = New-Item -Path $db -ItemType Directory -Force
        $profilePath = Join-Path -Path $case -ChildPath 'gate.profile.json'
        $null = New-MailboxProfile -Name 'gate' -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $db -SaveTo $profilePath -Force
        $out = Join-Path -Path $case -ChildPath 'out'
        $null = New-Item -Path $out -ItemType Directory -Force
    }

    It 'Get returns the newest result of the profile; Test is true for a fresh pass' {
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'old.json') -Result 'Fail' -EndUtc ([DateTime]::UtcNow.AddHours(-10))
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'run2/new.json') -Result 'Pass' -EndUtc ([DateTime]::UtcNow.AddHours(-2))
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'other.json') -ProfileName 'someone-else' -Result 'Fail' -EndUtc ([DateTime]::UtcNow.AddHours(-1))
        $resource = New-Validation -ProfilePath $profilePath -OutputPath $out

        $state = $resource.Get()

        $state.LastResult | Should -Be 'Pass'
        $state.Name | Should -Be 'gate'
        ([datetime]::Parse($state.LastRunUtc, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToUniversalTime() - [DateTime]::UtcNow.AddHours(-2)).TotalMinutes | Should -BeLessThan 1
        @($state.Reasons).Count | Should -Be 0
        $resource.Test() | Should -BeTrue
    }

    It 'Test is false when the newest result is older than MaxResultAgeHours' {
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'r.json') -Result 'Pass' -EndUtc ([DateTime]::UtcNow.AddHours(-30))
        $resource = New-Validation -ProfilePath $profilePath -OutputPath $out -MaxResultAgeHours 24

        $resource.Test() | Should -BeFalse
        @($resource.Get().Reasons | ForEach-Object { $_.Code }) | Should -Be @('ExchStorageValidation:ExchStorageValidation:ResultTooOld')
    }

    It 'Test is false when the newest result failed, with the verdict reason as the phrase' {
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'pass.json') -Result 'Pass' -EndUtc ([DateTime]::UtcNow.AddHours(-5))
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'fail.json') -Result 'Fail' -EndUtc ([DateTime]::UtcNow.AddHours(-1))
        $resource = New-Validation -ProfilePath $profilePath -OutputPath $out

        $resource.Test() | Should -BeFalse
        $state = $resource.Get()
        $state.LastResult | Should -Be 'Fail'
        $state.Reasons[0].Phrase | Should -Match '25 ms exceeds 20 ms'
    }

    It 'Test is false for a stopped run, even a passing one' {
        New-ResultsFixture -Path (Join-Path -Path $out -ChildPath 'stopped.json') -Result 'Pass' -Completion 'Stopped' -EndUtc ([DateTime]::UtcNow.AddHours(-1))
        (New-Validation -ProfilePath $profilePath -OutputPath $out).Test() | Should -BeFalse
    }

    It 'Get says NotRun when there are no results, and when the profile is missing' {
        $state = (New-Validation -ProfilePath $profilePath -OutputPath $out).Get()
        $state.LastResult | Should -Be 'NotRun'
        $state.Reasons[0].Code | Should -BeLike '*:NoResult'
        $missing = (New-Validation -ProfilePath (Join-Path -Path $case -ChildPath 'nope.json') -OutputPath $out).Get()
        $missing.Reasons[0].Code | Should -BeLike '*:ProfileNotFound'
    }

    It 'looks in <first database path>/Results when OutputPath is not set' {
        New-ResultsFixture -Path (Join-Path -Path $db -ChildPath 'Results/r.json') -Result 'Pass' -EndUtc ([DateTime]::UtcNow.AddHours(-1))
        (New-Validation -ProfilePath $profilePath -OutputPath '').Test() | Should -BeTrue
    }

    It 'Set runs the test without prompting and throws on a failing verdict' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-StorageTest -MockWith {
            [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; Result = 'Fail'; Completion = 'Complete'; Reasons = @([pscustomobject]@{ Message = 'Average DB read latency 25 ms exceeds 20 ms.' }); ResultsPath = 'x.json' }
        }
        $resource = New-Validation -ProfilePath $profilePath -OutputPath $out
        { $resource.Set() } | Should -Throw -ExpectedMessage '*failed*25 ms*'
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-StorageTest -Times 1 -Exactly -ParameterFilter {
            $ProfilePath -eq $profilePath -and $OutputPath -eq $out -and $Confirm -eq $false -and $Force -and $TestType -eq 'Performance'
        }
    }

    It 'Set succeeds on a passing verdict' {
        Mock -ModuleName ExchStorageTest -CommandName Invoke-StorageTest -MockWith {
            [pscustomobject]@{ PSTypeName = 'ExchStorageTest.TestResult'; Result = 'Pass'; Completion = 'Complete'; Reasons = @(); ResultsPath = 'x.json' }
        }
        $resource = New-Validation -ProfilePath $profilePath -OutputPath $out
        $resource.Duration = '00:10:00'
        { $resource.Set() } | Should -Not -Throw
        Should -Invoke -ModuleName ExchStorageTest -CommandName Invoke-StorageTest -Times 1 -Exactly -ParameterFilter { $Duration -eq [timespan]::FromMinutes(10) }
    }
}
