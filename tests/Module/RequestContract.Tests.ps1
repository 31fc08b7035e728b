# The module's requests against the engine's request gate: every command that talks to the engine is run with every
# optional setting it sends, through a stand-in that records the request and hands it to the real engine. The
# engine refuses a field a command does not take (UnknownField), a field given twice (DuplicateField), a value of
# the wrong kind (RequestMalformed) and a missing one; none of the module's requests may get a code of that section
# of the catalogue. Later refusals (a folder that does not exist, no results) are expected: they come after the gate.

BeforeAll {
    Import-Module (Join-Path $PSScriptRoot '../Support/TestSupport.psm1')
    Import-ExchStorageTest
    $GateCodes = @([ExchStorageTest.Contract.ErrorCodes]::All | Where-Object { $_.Group -eq [ExchStorageTest.Contract.ErrorGroups]::Request } | ForEach-Object Code)

    function Invoke-Recorded([scriptblock] $Command) {
        # Runs the command with the recording engine; returns the requests it sent and its errors.
        $log = Join-Path $Dir ('requests-' + [guid]::NewGuid().ToString('N') + '.jsonl')
        $engine = @(Get-ChildItem -Path (Join-Path (Get-RepositoryRoot) 'bin/*/exchstoragetest-engine') -File | Where-Object { $_.Directory.Name -notlike 'win-*' })[0].FullName
        $script = Join-Path $Dir ('engine-' + [guid]::NewGuid().ToString('N') + '.sh')
        # The request is the first line; the real engine gets it as a file, the module's stop channel stays with it.
        New-ExecutableScript -Path $script -Text "#!/bin/sh`nIFS= read -r request`nprintf '%s\n' `"`$request`" >> '$log'`nf=`$(mktemp)`nprintf '%s\n' `"`$request`" > `"`$f`"`n'$engine' --request `"`$f`"`ncode=`$?`nrm -f `"`$f`"`nexit `$code`n"
        $env:EXCHSTORAGETEST_ENGINE = $script
        $errors = @()
        try { $null = & $Command -ErrorVariable +errors -ErrorAction SilentlyContinue }
        catch { $errors += $_ }
        finally { $env:EXCHSTORAGETEST_ENGINE = $null }
        $requests = @(if (Test-Path -LiteralPath $log) { Get-Content -LiteralPath $log | ForEach-Object { $_ | ConvertFrom-Json } })
        [pscustomobject]@{ Requests = $requests; Errors = @($errors) }
    }

    function Assert-PassedTheGate($Recorded, [string] $Command, [string] $RefusedAfterTheGate) {
        @($Recorded.Requests | Where-Object { $_.command -eq $Command }).Count | Should -BeGreaterThan 0 -Because "the module sends a '$Command' request"
        foreach ($e in $Recorded.Errors) {
            $code = ($e.FullyQualifiedErrorId -split ',')[0] -replace '^ExchStorageTest\.', ''
            $GateCodes | Should -Not -Contain $code -Because "the engine's gate took the module's '$Command' request ($($e.Exception.Message))"
        }
        if ($RefusedAfterTheGate) {
            # The engine's own refusal of the request's content reaches the errors seen here (so a gate code would too).
            @($Recorded.Errors | ForEach-Object FullyQualifiedErrorId) | Should -BeLike "ExchStorageTest.$RefusedAfterTheGate,*"
        }
    }
}

Describe 'The module''s requests' -Tag 'Needs:Unix' -Skip:(Test-Missing Unix) {
    BeforeEach {
        $Dir = New-ScratchFolder 'reqc'
        $Db = Join-Path $Dir 'db'
        $null = New-Item -ItemType Directory -Path $Db, (Join-Path $Dir 'logs'), (Join-Path $Dir 'backup'), (Join-Path $Dir 'out')
        $TheProfile = New-MailboxProfile -Name 'Contract' -Description 'every field' -MailboxCount 20 -IopsPerMailbox 0.5 -HeadroomPercent 20 `
            -MailboxSizeMB 20 -DatabaseCount 2 -CopiesPerDatabase 2 -ThreadCount 2 -BackgroundMaintenance $true `
            -MinimumDatabaseCacheMB 64 -MaximumDatabaseCacheMB 128 -Path $Db -LogPath (Join-Path $Dir 'logs') -SaveTo (Join-Path $Dir 'profile.json')
    }
    AfterEach { Remove-ScratchFolder $Dir }

    It 'pass the engine''s gate for a plan with every run setting' -ForEach @(
        @{ Settings = @{ TestType = 'Performance'; Duration = [timespan]::FromMinutes(5); Warmup = [timespan]::FromSeconds(30); SampleIntervalSeconds = 5; TargetRateIops = 10; Thresholds = @{ averageDatabaseReadLatencyMs = 25 }; ContinueOnError = $true; AllowBufferedIo = $true; AllowUnsupportedPlatform = $true; NoCpuAffinity = $true; StartAtUtc = [datetime]::UtcNow.AddHours(1) } }
        @{ Settings = @{ TestType = 'Stress'; ThreadCount = 3; DatabaseSource = 'Restore'; RestoreFromPath = 'backup' } }
        @{ Settings = @{ TestType = 'Throughput'; CapacityPercent = 50; DatabaseSource = 'Attach' } }
        @{ Settings = @{ TestType = 'SoftRecovery'; LogFilesToReplay = 10 } }
    ) {
        $settings = $Settings.Clone()
        if ($settings.ContainsKey('RestoreFromPath')) { $settings.RestoreFromPath = Join-Path $Dir $settings.RestoreFromPath }
        $settings.OutputPath = Join-Path $Dir 'out'
        $recorded = Invoke-Recorded { $TheProfile | Invoke-StorageTest @settings -WhatIf }
        Assert-PassedTheGate $recorded 'plan'
        $plan = @($recorded.Requests | Where-Object command -eq 'plan')[0]
        foreach ($name in $settings.Keys) {
            # Each setting given reaches the request (its name there is the contract's, so the gate checks it).
            if ($name -in 'ContinueOnError', 'AllowBufferedIo', 'AllowUnsupportedPlatform', 'NoCpuAffinity', 'Duration', 'Warmup', 'TestType') { continue }
            $plan.PSObject.Properties.Name | Should -Contain ($name.Substring(0, 1).ToLowerInvariant() + $name.Substring(1)) -Because "-$name is sent"
        }
    }

    It 'pass the engine''s gate for Test-StorageVolume, Test-DatabaseChecksum and the validation state' {
        Assert-PassedTheGate (Invoke-Recorded { Test-StorageVolume -Path $Db -LogPath (Join-Path $Dir 'logs') }) 'inspect'
        Assert-PassedTheGate (Invoke-Recorded { Test-DatabaseChecksum -Path (Join-Path $Db 'missing.edb') }) 'verify' 'PathNotFound'
        $module = Get-Module ExchStorageTest
        $recorded = Invoke-Recorded { & $module { param($p, $o) Get-StorageValidationState -ProfilePath $p -OutputPath $o -TestType Stress -MaxResultAgeHours 5 } (Join-Path $Dir 'profile.json') (Join-Path $Dir 'out') }
        Assert-PassedTheGate $recorded 'validation'
    }

    It 'pass the engine''s gate for Get-TestReport, by paths and by labelled runs' {
        $missing = Join-Path $Dir 'no-results'
        Assert-PassedTheGate (Invoke-Recorded { Get-TestReport -Path $missing -Format 'Html', 'EsrpHtml' -OutputPath (Join-Path $Dir 'out') -MetadataPath (Join-Path $Dir 'meta.json') }) 'report' 'ResultsNotFound'
        Assert-PassedTheGate (Invoke-Recorded { Get-TestReport -Path $missing, (Join-Path $Dir 'other') -Label 'one', 'two' -Format Html -OutputPath (Join-Path $Dir 'out') }) 'report' 'ResultsNotFound'
    }
}
