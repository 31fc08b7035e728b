#Requires -Modules @{ ModuleName = 'Pester'; ModuleVersion = '5.0.0' }
# Multi-host runs on this machine with real remoting where it exists:
#   - PowerShell 7 SSH remoting to localhost (sshd started here when installed: openssh-server),
#   - or WinRM loopback sessions on Windows (New-PSSession -ComputerName localhost),
# two sessions standing in for two hosts, each on its own database folder ({host} in the path).
# Without any remoting, the start-file fallback still runs two real, independent processes
# (Start-Job) that meet on one start instant. Tiny profiles, short durations.
# Every skip states its reason.

BeforeDiscovery {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    Import-Module -Name (Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1') -Force
    $module = Get-Module -Name ExchStorageTest
    $engineReason = $null
    try {
        $null = & $module { Get-EnginePath }
        # A remote session has no EXCHSTORAGETEST_ENGINE: the module copy it receives needs bin/<rid>.
        $runtimeId = & $module { Get-EngineRuntimeId }
        if (-not (Test-Path -LiteralPath (Join-Path -Path $repoRoot -ChildPath "bin/$runtimeId"))) {
            $engineReason = "bin/$runtimeId is missing (./build.ps1 Build publishes the engine there)"
        }
    }
    catch {
        $engineReason = "engine helper not built: $($_.Exception.Message)"
    }

    $remotingReason = $null
    $transport = $null
    if ($null -ne $engineReason) {
        $remotingReason = $engineReason
    }
    elseif ($PSVersionTable.PSEdition -eq 'Core' -and -not $IsWindows) {
        $newSession = Get-Command -Name New-PSSession
        if (-not $newSession.Parameters.ContainsKey('HostName')) {
            $remotingReason = 'New-PSSession -HostName (SSH remoting) is not available in this PowerShell'
        }
        elseif ($null -eq (Get-Command -Name ssh -CommandType Application -ErrorAction SilentlyContinue)) {
            $remotingReason = 'no ssh client on this machine'
        }
        else {
            $sshd = Get-Command -Name sshd -CommandType Application -ErrorAction SilentlyContinue
            if ($null -eq $sshd -and (Test-Path -LiteralPath '/usr/sbin/sshd')) {
                $sshd = Get-Command -Name '/usr/sbin/sshd' -ErrorAction SilentlyContinue
            }
            if ($null -eq $sshd) {
                $remotingReason = 'no sshd (install openssh-server to run the SSH remoting tests)'
            }
            else {
                try {
                    # Starting sshd needs root; an sshd already running on port 22 is used as is.
                    if (-not (Get-Process -Name sshd -ErrorAction SilentlyContinue)) {
                        $null = New-Item -Path '/run/sshd' -ItemType Directory -Force -ErrorAction SilentlyContinue
                        & ssh-keygen -A 2>&1 | Out-Null
                        & $sshd.Source 2>&1 | Out-Null
                        Start-Sleep -Seconds 1
                    }
                    $probe = New-PSSession -HostName localhost -ErrorAction Stop
                    Remove-PSSession -Session $probe
                    $transport = 'SSH'
                }
                catch {
                    $remotingReason = "SSH remoting to localhost failed (sshd needs a 'Subsystem powershell' line and key-based login for this user): $($_.Exception.Message)"
                }
            }
        }
    }
    else {
        try {
            $probe = New-PSSession -ComputerName localhost -ErrorAction Stop
            Remove-PSSession -Session $probe
            $transport = 'WinRM'
        }
        catch {
            $remotingReason = "WinRM loopback remoting is not available (Enable-PSRemoting, as administrator): $($_.Exception.Message)"
        }
    }
    $skipRemoting = $null -ne $remotingReason
    if ($skipRemoting) {
        Write-Warning -Message "Multi-host remoting tests skipped: $remotingReason"
    }
    $skipStartFile = $null -ne $engineReason
    if ($skipStartFile) {
        Write-Warning -Message "Start-file multi-process tests skipped: $engineReason"
    }
}

BeforeAll {
    $repoRoot = (Resolve-Path -Path (Join-Path -Path $PSScriptRoot -ChildPath '../..')).Path
    $manifestPath = Join-Path -Path $repoRoot -ChildPath 'ExchStorageTest.psd1'
    Import-Module -Name $manifestPath -Force

    function Get-IsoInstant {
        param([string] $Json, [string] $Name)
        $match = [regex]::Match($Json, '"' + $Name + '"\s*:\s*"([^"]+)"')
        if (-not $match.Success) {
            return $null
        }
        [datetime]::Parse($match.Groups[1].Value, [System.Globalization.CultureInfo]::InvariantCulture, [System.Globalization.DateTimeStyles]::RoundtripKind).ToUniversalTime()
    }
}

AfterAll {
    Remove-Module -Name ExchStorageTest -ErrorAction SilentlyContinue
}

Describe 'Multi-host run over real remoting sessions to this machine' -Skip:$skipRemoting {
    BeforeAll {
        $sessions = @()
        for ($i = 0; $i -lt 2; $i++) {
            if ($transport -eq 'SSH') {
                $sessions += New-PSSession -HostName localhost
            }
            else {
                $sessions += New-PSSession -ComputerName localhost -EnableNetworkAccess
            }
        }
        $root = Join-Path -Path $TestDrive -ChildPath 'hosts'
        $null = New-Item -Path (Join-Path -Path $root -ChildPath 'localhost') -ItemType Directory -Force
        $null = New-Item -Path (Join-Path -Path $root -ChildPath 'localhost-2') -ItemType Directory -Force
        $profilePath = Join-Path -Path $TestDrive -ChildPath 'mh.profile.json'
        $null = New-MailboxProfile -Name 'multihost' -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path -Path $root -ChildPath '{host}') -SaveTo $profilePath -Force
        $collect = Join-Path -Path $TestDrive -ChildPath 'collected'
        $hostErrors = $null
        $output = @(Invoke-StorageTest -Session $sessions -ProfilePath $profilePath -Duration 00:00:10 -SampleIntervalSeconds 1 -Warmup 00:00:01 -AllowBufferedIo -OutputPath $collect -StartAtUtc ([DateTime]::UtcNow.AddSeconds(40)) -Force -ErrorVariable hostErrors)
        $results = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $aggregate = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' }) | Select-Object -First 1
    }

    AfterAll {
        # Sessions passed with -Session belong to the caller (this test) and stay open until here.
        $sessions | Remove-PSSession -ErrorAction SilentlyContinue
    }

    It 'returns a result from every host, with no host failure' {
        @($hostErrors | Where-Object { $_.FullyQualifiedErrorId -like 'ExchStorageTest.HostFailed*' }).Count | Should -Be 0
        $results.Count | Should -Be 2
        foreach ($result in $results) {
            $result.AchievedIops | Should -BeGreaterThan 0
            Test-Path -LiteralPath $result.ResultsPath | Should -BeTrue
        }
    }

    It 'aggregates: the summed IOPS equal the sum of the per-host achieved IOPS' {
        $aggregate | Should -Not -BeNullOrEmpty
        $sum = 0.0
        foreach ($result in $results) {
            $sum += [double]$result.AchievedIops
        }
        [System.Math]::Abs([double]$aggregate.AchievedIops - $sum) | Should -BeLessThan (0.01 * [System.Math]::Max(1, $sum))
    }

    It 'starts every host measuring at the same instant, within the measured skew + 2 s' {
        $starts = @(
            foreach ($result in $results) {
                Get-IsoInstant -Json (Get-Content -LiteralPath $result.ResultsPath -Raw) -Name 'collectionStartUtc'
            }
        )
        $starts.Count | Should -Be 2
        $null -in $starts | Should -BeFalse
        $skew = 0.0
        foreach ($result in $results) {
            $skew = [System.Math]::Max($skew, [System.Math]::Abs([double]$result.ClockSkewMs) / 1000)
        }
        [System.Math]::Abs(($starts[0] - $starts[1]).TotalSeconds) | Should -BeLessOrEqual ($skew + 2)
    }
}

Describe 'Start-file run with two independent processes on this machine' -Skip:$skipStartFile {
    BeforeAll {
        $run = New-StorageTestRun -Path (Join-Path -Path $TestDrive -ChildPath 'run') -StartAtUtc ([DateTime]::UtcNow.AddSeconds(45)) -HostCount 2 -Force
        $jobs = @(
            foreach ($name in @('p1', 'p2')) {
                $db = Join-Path -Path $TestDrive -ChildPath $name
                $null = New-Item -Path $db -ItemType Directory -Force
                Start-Job -ArgumentList $manifestPath, $run.StartFile, $db, $env:EXCHSTORAGETEST_ENGINE -ScriptBlock {
                    param($ManifestPath, $StartFile, $Database, $Engine)
                    if (-not [string]::IsNullOrEmpty($Engine)) {
                        $env:EXCHSTORAGETEST_ENGINE = $Engine
                    }
                    Import-Module -Name $ManifestPath -ErrorAction Stop
                    New-MailboxProfile -Name 'startfile' -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path $Database |
                        Invoke-StorageTest -StartFile $StartFile -Duration 00:00:10 -SampleIntervalSeconds 1 -Warmup 00:00:01 -AllowBufferedIo -OutputPath (Join-Path -Path $Database -ChildPath 'Results') -Force
                }
            }
        )
        $results = @($jobs | Wait-Job -Timeout 600 | Receive-Job)
        $jobs | Remove-Job -Force
        $report = Get-TestReport -Path $run.ResultsPath
    }

    It 'both processes return a result and copy it to the run folder' {
        $results.Count | Should -Be 2
        @(Get-ChildItem -LiteralPath $run.ResultsPath -Filter '*.json').Count | Should -Be 2
        foreach ($result in $results) {
            Test-Path -LiteralPath $result.SharedResultsPath | Should -BeTrue
        }
    }

    It 'both measured windows start together (one clock: within 2 s)' {
        $starts = @(
            foreach ($file in @(Get-ChildItem -LiteralPath $run.ResultsPath -Filter '*.json')) {
                Get-IsoInstant -Json (Get-Content -LiteralPath $file.FullName -Raw) -Name 'collectionStartUtc'
            }
        )
        [System.Math]::Abs(($starts[0] - $starts[1]).TotalSeconds) | Should -BeLessOrEqual 2
    }

    It 'Get-TestReport merges the results folder' {
        $report | Should -Not -BeNullOrEmpty
        @($report.TestId).Count | Should -Be 2
    }
}
