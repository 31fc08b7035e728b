# The data profile of database pages: -CompressibilityPercent and -DuplicatePercent reach the databases a run
# creates, and the result, the reports and -Verbose state the assumption; the default states the worst case. What the
# database files then hold, measured with a compressor and a block hash, is the engine's test (DataProfileTests).

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
}

Describe 'Data profile' {
    BeforeEach { $Fixture = New-RunFixture 'dataprofile' -DatabaseCount 1 }
    AfterEach { $Fixture.Remove() }

    It 'creates the databases with the profile and states it in the result, every report and -Verbose' {
        $stated = '50% compressible, 30% duplicate 4 KiB blocks and 512-byte sectors (about 2.9:1 on an array that deduplicates and compresses)'
        $output = $Fixture.NewProfile() |
            Invoke-StorageTest -Duration 00:00:05 -ThreadCount 1 -Warmup 0 -SampleIntervalSeconds 1 -CompressibilityPercent 50 -DuplicatePercent 30 -Force -Verbose -ErrorAction Stop 4>&1
        $result = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $result.Count | Should -Be 1
        @($output | Where-Object { $_ -is [System.Management.Automation.VerboseRecord] -and $_.Message -like "*Database pages: $stated*" }) | Should -Not -BeNullOrEmpty

        $json = Get-Content -LiteralPath $result[0].ResultsPath -Raw | ConvertFrom-Json
        $json.settings.dataProfile.compressibilityPercent | Should -Be 50
        $json.settings.dataProfile.duplicatePercent | Should -Be 30
        $json.settings.dataProfile.blockBytes | Should -Be 4096
        $json.settings.dataProfile.description | Should -Be $stated

        $reports = New-Item -ItemType Directory -Path (Join-Path $Fixture.Folder 'Reports')
        $resultsPath = $result[0].ResultsPath
        Get-TestReport -Path $resultsPath -Format 'Text', 'Html', 'Xml' -OutputPath $reports.FullName | Out-Null
        $files = @(Get-ChildItem -LiteralPath $reports.FullName -File)
        @($files | ForEach-Object Extension | Sort-Object -Unique) | Should -Be @('.html', '.txt', '.xml')
        foreach ($file in $files) { Get-Content -LiteralPath $file.FullName -Raw | Should -BeLike "*Database Page Data*$stated*" -Because $file.Name }

        # Every page still carries its identity and checksum: the checksum pass finds none bad.
        $check = Test-DatabaseChecksum -Path (Join-Path (Join-Path $Fixture.Folder 'DB1') 'ExchStorageTest001.edb')
        $database = @($check | Where-Object Kind -eq 'Database')
        $database.Count | Should -Be 1
        $database[0].Result | Should -Be 'Pass'
        $database[0].BadPages | Should -Be 0
        $database[0].PagesChecked | Should -BeGreaterThan 0
    }

    It 'states the default, incompressible and unique pages, in the plan -WhatIf prints' {
        $text = Get-WhatIfText "$($Fixture.Profile) | Invoke-StorageTest -Duration 00:10:00"
        $text | Should -BeLike '*Database pages: incompressible, unique pages (the worst case for data-reducing arrays).*'
        Get-FolderEntry $Fixture.Folder | Should -BeNullOrEmpty
    }
}
