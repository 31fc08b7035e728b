# Every TimeSpan parameter of the module: a bare number binds to a TimeSpan as ticks (-Duration 30 is 3 microseconds)
# and a string of digits as days, so both are refused at binding with the fix in the message (00:00:30,
# New-TimeSpan -Seconds 30), as is any time span under one second; nothing is written. Zero passes to the rules.

BeforeDiscovery {
    # One row a TimeSpan parameter of each command; Value is what a user types for "30 seconds".
    $script:Cases = @(
        @{ Case = 'Invoke-StorageTest -Duration 30'; Command = '$Fixture.NewProfile() | Invoke-StorageTest -Duration 30 -Confirm:$false' }
        @{ Case = "Invoke-StorageTest -Duration '30'"; Command = "`$Fixture.NewProfile() | Invoke-StorageTest -Duration '30' -Confirm:`$false" }
        @{ Case = 'Invoke-StorageTest -Duration 0.5 s'; Command = '$Fixture.NewProfile() | Invoke-StorageTest -Duration 00:00:00.5 -Confirm:$false' }
        @{ Case = 'Invoke-StorageTest -Warmup 30'; Command = '$Fixture.NewProfile() | Invoke-StorageTest -Warmup 30 -Confirm:$false' }
        @{ Case = 'Invoke-StorageTest -StressDuration 30'; Command = '$Fixture.NewProfile() | Invoke-StorageTest -TestType EsrpSuite -StressDuration 30 -Confirm:$false' }
        @{ Case = 'Invoke-StorageTest -StartFileTimeout 30'; Command = '$Fixture.NewProfile() | Invoke-StorageTest -StartFile (Join-Path $Target start.json) -StartFileTimeout 30 -Confirm:$false' }
        @{ Case = 'Register-StorageTestTask -Duration 30'; Command = 'Register-StorageTestTask -Name t -ProfilePath (Join-Path $Target p.json) -OutputPath $Target -Daily -At 02:00 -Duration 30 -WhatIf' }
    )
}

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
}

Describe 'A TimeSpan parameter given a bare number or under one second' {
    BeforeEach { $Fixture = New-RunFixture 'timespan'; $Target = $Fixture.Folder }
    AfterEach { $Fixture.Remove() }

    It '<Case>: refused at binding with the fix, nothing written' -ForEach $Cases {
        $caught = $null
        $output = @(try { & ([scriptblock]::Create($Command)) 2>&1 } catch { $caught = $_ })
        $caught | Should -Not -BeNullOrEmpty -Because 'the command must stop before it runs'
        $caught.FullyQualifiedErrorId | Should -BeLike 'ParameterArgumentTransformationError,*'
        $caught.Exception.Message | Should -BeLike '*00:00:30*'
        $caught.Exception.Message | Should -BeLike '*New-TimeSpan -Seconds 30*'
        $output | Should -BeNullOrEmpty
        Get-FolderEntry $Target | Should -BeNullOrEmpty
    }

    It 'says what PowerShell would have made of the number: ticks for a number, days for digits in quotes' {
        { $Fixture.NewProfile() | Invoke-StorageTest -Duration 30 -Confirm:$false } | Should -Throw -ExpectedMessage '*00:00:00.0000030 (30 ticks of 100 ns)*'
        { $Fixture.NewProfile() | Invoke-StorageTest -Duration '30' -Confirm:$false } | Should -Throw -ExpectedMessage '*30.00:00:00 (30 days)*'
    }

    It 'takes a time span, its text and zero as before' {
        { $Fixture.NewProfile() | Invoke-StorageTest -Duration '00:00:30' -Warmup 0 -WhatIf } | Should -Not -Throw
        { $Fixture.NewProfile() | Invoke-StorageTest -Duration (New-TimeSpan -Seconds 30) -Warmup ([timespan]::Zero) -WhatIf } | Should -Not -Throw
        Get-FolderEntry $Target | Should -BeNullOrEmpty
    }
}
