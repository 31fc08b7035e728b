# Multi-host runs over real PowerShell remoting: two sshd endpoints on loopback (SshRig.psm1), each in a UTS
# namespace of its own, so the two hosts are two machine names on one kernel. Invoke-StorageTest -Session,
# -ComputerName -UseSSH (with -Port, -UserName, -KeyFilePath, -SSHOptions) and -StartFile run with automatic
# tuning, and the tests assert structure, not verdicts (a shared kernel's other workloads can move a verdict):
# hosts named by machine, one measuring window on every host (each host's measuring start within 1 s of the
# others' and of the recorded agreed start), the aggregate the sum of the hosts, failures that fail only their
# host, a stop that leaves every host's partial result, a run where every host fails its check, a capacity
# search whose hosts step together, and -Session with the instants chosen from the plans. What the orchestrator decides is tested in-process, in milliseconds
# (tests/ExchStorageTest.Commands.Tests: the step loop, a lost host, the time bound, a stop during a search); this
# suite keeps what only real remoting shows.

Describe 'Invoke-StorageTest on several hosts over SSH' -Tag 'Needs:SshRig' -Skip:(Test-Missing SshRig) {
    BeforeAll {
        Import-Module -Name (Join-Path $PSScriptRoot 'SshRig.psm1') -Force
        $script:Manifest = (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '../../ExchStorageTest.psd1')).Path
        Import-Module -Name $script:Manifest -Global -ErrorAction Stop
        $script:Rig = Start-SshRig
        $script:MachineA = $Rig.Hosts[0].MachineName
        $script:MachineB = $Rig.Hosts[1].MachineName
        # Databases on a real disk (direct I/O), one folder per machine: {host} expands to the machine name.
        $script:Data = Join-Path '/var/tmp' ('exst-remote-data-' + [guid]::NewGuid().ToString('N').Substring(0, 8))
        $null = New-Item -ItemType Directory -Path (Join-Path $Data $MachineA), (Join-Path $Data $MachineB)
        $script:SessionA = New-SshRigSession -Rig $Rig -Index 0
        $script:SessionB = New-SshRigSession -Rig $Rig -Index 1
        # One small database per host; automatic tuning; a 10 s window sampled every 2 s.
        $script:Profile = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path $Data '{host}')
        $script:Short = @{ Duration = [TimeSpan]::FromSeconds(10); SampleIntervalSeconds = 2; Force = $true }

        function Stop-WhenUnderWay {
            # Starts a multi-host run in a runspace of its own, waits (at most 3 minutes) until -UnderWay says it is
            # where the stop should come, stops it, and holds what every stop must leave: each host ran one engine, the
            # command ends Stopped, no engine outlives it, and each host saved one results file marked Stopped, returned.
            param([string] $Script, [object[]] $ArgumentList, [scriptblock] $UnderWay)
            foreach ($machine in $MachineA, $MachineB) { Remove-Item -LiteralPath (Join-Path $Data "$machine/Results") -Recurse -Force -ErrorAction SilentlyContinue }
            $runspace = New-ModuleRunspace
            $started = Start-InRunspace -Runspace $runspace -Script $Script -ArgumentList $ArgumentList
            $ps = $started.PowerShell
            $pending = $started.Handle
            try {
                Wait-Until -Timeout ([TimeSpan]::FromMinutes(3)) -IntervalMilliseconds 250 -Condition { $pending.IsCompleted -or (& $UnderWay $ps) } | Out-Null
                # By count: enumerating a stream of a pipeline still running waits for its end.
                $ps.Streams.Error.Count | Should -Be 0 -Because ($(if ($ps.Streams.Error.Count) { "it wrote: $($ps.Streams.Error[0])" }))
                @(Get-SshRigProcess -Rig $Rig -Name 'exchstoragetest*').Count | Should -Be 2 -Because 'each host runs its engine'
                $ps.Stop()
                $pending.AsyncWaitHandle.WaitOne([TimeSpan]::FromMinutes(2)) | Should -BeTrue
                $ps.InvocationStateInfo.State | Should -Be 'Stopped'
            }
            finally {
                $ps.Dispose()
                $runspace.Dispose()
            }
            # No host's engine outlives the command, and each host judged and saved what it had.
            @(Get-SshRigProcess -Rig $Rig -Name 'exchstoragetest*') | Should -BeNullOrEmpty
            foreach ($machine in $MachineA, $MachineB) {
                $files = @(Get-ChildItem -LiteralPath (Join-Path $Data "$machine/Results") -Filter '*.json')
                $files | Should -HaveCount 1
                $stopped = Get-Content -Raw -LiteralPath $files[0].FullName | ConvertFrom-Json
                $stopped.completion | Should -Be 'Stopped'
                $stopped
            }
        }

        function Assert-OneWindow {
            # Structure, not verdicts: one result per host, distinct machine names, every host measuring within
            # 1 s of the agreed measuring start recorded in its results and of every other host, the aggregate the
            # sum of the hosts.
            param([object[]] $Results, $Aggregate, [string[]] $Machines)
            $Results.Count | Should -Be $Machines.Count
            @($Results.ComputerName | Sort-Object) | Should -Be @($Machines | Sort-Object)
            foreach ($result in $Results) {
                $json = Get-Content -Raw -LiteralPath $result.ResultsPath | ConvertFrom-Json
                $agreed = ([datetime]$json.settings.measureAtUtc).ToUniversalTime()
                $measured = ([datetime]$json.timeline.collectionStartUtc).ToUniversalTime()
                $result.MeasureAtUtc | Should -Be $agreed
                $result.MeasuringStartUtc | Should -Be $measured
                [Math]::Abs(($measured - $agreed).TotalSeconds) | Should -BeLessThan 1 -Because "$($result.ComputerName) measured from $($measured.ToString('o')), agreed $($agreed.ToString('o'))"
                $json.settings.autoTuned | Should -BeTrue
            }
            $starts = $Results.MeasuringStartUtc | Sort-Object
            ($starts[-1] - $starts[0]).TotalSeconds | Should -BeLessThan 1
            if ($null -ne $Aggregate) {
                $Aggregate.MeasuringStartSkewSeconds | Should -BeLessThan 1
                $Aggregate.AchievedIopsSource | Should -Be 'Report'
                # Each host's figure is rounded to 3 decimals; the engine's merge is of the unrounded counts.
                $sum = ($Results | Measure-Object -Property AchievedIops -Sum).Sum
                $Aggregate.AchievedIops | Should -BeGreaterOrEqual ($sum - 0.002 * $Results.Count)
                $Aggregate.AchievedIops | Should -BeLessOrEqual ($sum + 0.002 * $Results.Count)
                $Aggregate.TargetIops | Should -Be ($Results | Measure-Object -Property TargetIops -Sum).Sum
            }
        }
    }

    AfterAll {
        Get-PSSession | Remove-PSSession -ErrorAction SilentlyContinue
        Stop-SshRig -Rig $script:Rig
        if ($script:Data -and (Test-Path -LiteralPath $script:Data)) { Remove-Item -LiteralPath $script:Data -Recurse -Force }
    }

    It '-WhatIf checks every host and writes nothing on them or here; a host without the module is not copied to' {
        # Host A has the module loaded in its session; host B has nothing, and -WhatIf copies nothing.
        Invoke-Command -Session $SessionA -ScriptBlock { Import-Module -Name $using:Manifest }
        $collected = Join-Path $Data 'whatif'
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out) $p | Invoke-StorageTest -Session $s -OutputPath $out -WhatIf -Verbose' -ArgumentList $Profile, @($SessionA, $SessionB), $collected
        $run.Exception | Should -BeNullOrEmpty
        $run.Output | Should -BeNullOrEmpty
        $run.Verbose.Message | Where-Object { $_ -like "$MachineA (127.0.0.1): machine $MachineA*clock skew*" } | Should -HaveCount 1
        $run.Errors | Should -HaveCount 1
        $declined = $run.Errors[0]
        $declined.FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.HostFailed,*'
        $declined.TargetObject | Should -Be $MachineB
        $declined.Exception.Message | Should -BeLike "Host '$MachineB (127.0.0.2)' failed:*not copied*"
        Get-ChildItem -LiteralPath $Rig.Hosts[1].Temp -Filter 'ExchStorageTest-*' | Should -BeNullOrEmpty
        Test-Path -LiteralPath $collected | Should -BeFalse
        Get-ChildItem -LiteralPath $Data -Recurse -File | Should -BeNullOrEmpty
    }

    It 'refuses a start instant too close to start every host before any host is contacted' {
        $collected = Join-Path $Data 'soon'
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out, $at) $p | Invoke-StorageTest -Session $s -OutputPath $out -StartAtUtc $at -Force -Verbose' -ArgumentList $Profile, @($SessionA, $SessionB), $collected, ([DateTime]::UtcNow.AddSeconds(5))
        $run.Errors | Should -HaveCount 1
        $run.Errors[0].FullyQualifiedErrorId | Should -BeLike 'ExchStorageTest.StartTimeOutOfRange,*'
        $run.Verbose | Should -BeNullOrEmpty
        Test-Path -LiteralPath $collected | Should -BeFalse
    }

    It 'records every host''s reason and returns the failures when every host fails its check' {
        $collected = Join-Path $Data 'allfail'
        $missing = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path $Data 'missing/{host}')
        # A new session to host A, where the module is neither loaded nor installed: both hosts get a copy (later runs reuse it).
        $fresh = New-SshRigSession -Rig $Rig -Index 0
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out) $p | Invoke-StorageTest -Session $s -OutputPath $out -Force' -ArgumentList $missing, @($fresh, $SessionB), $collected
        Remove-PSSession -Session $fresh
        $run.Exception | Should -BeNullOrEmpty
        $run.Errors | Should -HaveCount 2
        $run.Errors.FullyQualifiedErrorId | ForEach-Object { $_ | Should -BeLike 'ExchStorageTest.HostFailed,*' }
        $run.Output | Should -HaveCount 1
        $aggregate = $run.Output[0]
        $aggregate.PSObject.TypeNames[0] | Should -Be 'ExchStorageTest.AggregateResult'
        $aggregate.Result | Should -Be 'Fail'
        $aggregate.HostCount | Should -Be 2
        $aggregate.Hosts | Should -BeNullOrEmpty
        @($aggregate.FailedHosts) | Should -Be @($MachineA, $MachineB)
        foreach ($failure in $aggregate.Failures) { $failure.Reason | Should -BeLike "*$(Join-Path $Data 'missing')/$($failure.Name)*" }
        @($aggregate.Failures | ForEach-Object Address) | Should -Be @('127.0.0.1', '127.0.0.2')
        $record = Get-Content -Raw -LiteralPath (Join-Path $collected 'run.json') | ConvertFrom-Json
        $record.hosts | Should -HaveCount 2
        foreach ($h in $record.hosts) {
            $h.failed | Should -BeTrue
            $h.reason | Should -BeLike "*$(Join-Path $Data 'missing')/$($h.name)*"
        }
        # The module was copied to each host, where it was missing: manifest, commands, help and the engine, still executable.
        @($record.hosts | Where-Object { $_.moduleCopied } | ForEach-Object computerName) | Should -Be @($MachineA, $MachineB)
        $engine = 'bin/linux-{0}/exchstoragetest-engine' -f $(if ([System.Runtime.InteropServices.RuntimeInformation]::OSArchitecture -eq 'Arm64') { 'arm64' } else { 'x64' })
        foreach ($h in $Rig.Hosts) {
            $copy = @(Get-ChildItem -LiteralPath $h.Temp -Directory -Filter 'ExchStorageTest-*')
            $copy | Should -HaveCount 1
            foreach ($file in 'ExchStorageTest.psd1', 'bin/ExchStorageTest.dll', 'en-US/ExchStorageTest.dll-Help.xml', $engine) {
                (Get-FileHash -LiteralPath (Join-Path $copy[0].FullName $file)).Hash | Should -Be (Get-FileHash -LiteralPath (Join-Path (Split-Path -Parent $Manifest) $file)).Hash
            }
            (Get-Item -LiteralPath (Join-Path $copy[0].FullName $engine)).UnixFileMode.HasFlag([System.IO.UnixFileMode]::UserExecute) | Should -BeTrue
        }
    }

    It '-TestType Capacity: every host steps together, one window a step; each host answers and the deployment answers by the every-host rule' {
        # A bound for about two steps of a 4 s window (1 s samples, 2 s settling) after a 2 s warm-up; the counts and
        # verdicts are the storage's, so the test holds the structure and the rule, not a number of mailboxes.
        $collected = Join-Path $Data 'capacity'
        # Room to check both hosts (copying the module to them when this test runs first).
        $at = [DateTime]::UtcNow.AddSeconds(45)
        $options = @{ TestType = 'Capacity'; Duration = [TimeSpan]::FromSeconds(26); SampleIntervalSeconds = 1; Warmup = [TimeSpan]::FromSeconds(2); Force = $true }
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out, $at, $o) $p | Invoke-StorageTest -Session $s -OutputPath $out -StartAtUtc $at @o -Verbose' -ArgumentList $Profile, @($SessionA, $SessionB), $collected, $at, $options
        $run.Exception | Should -BeNullOrEmpty
        $run.Errors | Should -BeNullOrEmpty
        $results = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $aggregate = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' })[0]
        $results | Should -HaveCount 2
        @($results.ComputerName | Sort-Object) | Should -Be @($MachineA, $MachineB | Sort-Object)

        # Each host ran one search in one engine (one results file) with the same steps: same counts, windows within 1 s.
        $a = $results[0].Capacity
        $b = $results[1].Capacity
        $a.Steps.Count | Should -BeGreaterOrEqual 2
        $b.Steps.Count | Should -Be $a.Steps.Count
        for ($k = 0; $k -lt $a.Steps.Count; $k++) {
            $b.Steps[$k].Mailboxes | Should -Be $a.Steps[$k].Mailboxes
            $skewA = [TimeSpan]::FromMilliseconds($results[0].ClockSkewMs)
            $skewB = [TimeSpan]::FromMilliseconds($results[1].ClockSkewMs)
            [Math]::Abs((($a.Steps[$k].MeasureStartUtc - $skewA) - ($b.Steps[$k].MeasureStartUtc - $skewB)).TotalSeconds) | Should -BeLessThan 1 -Because "step $($k + 1) must be measured over one window on both hosts"
        }
        $a.Steps[0].Mailboxes | Should -Be $Profile.MailboxCount
        $aggregate.MeasuringStartSkewSeconds | Should -BeLessThan 1

        # The deployment: step k carries both hosts' mailboxes and passes only when both passed it; its answer is the
        # largest deployment count that passed below the first that failed, and each host's stop reason is the deployment's.
        $deployment = $aggregate.Capacity
        $deployment | Should -Not -BeNullOrEmpty
        $deployment.Steps.Count | Should -Be $a.Steps.Count
        $firstFail = $null
        for ($k = 0; $k -lt $a.Steps.Count; $k++) {
            $step = $deployment.Steps[$k]
            $step.Mailboxes | Should -Be (2 * $a.Steps[$k].Mailboxes)
            $step.Result | Should -Be $(if ($a.Steps[$k].Result -eq 'Pass' -and $b.Steps[$k].Result -eq 'Pass') { 'Pass' } else { 'Fail' })
            $step.AchievedIops | Should -BeGreaterOrEqual ($a.Steps[$k].AchievedIops + $b.Steps[$k].AchievedIops - 0.01)
            $step.AchievedIops | Should -BeLessOrEqual ($a.Steps[$k].AchievedIops + $b.Steps[$k].AchievedIops + 0.01)
            if ($step.Result -eq 'Fail' -and ($null -eq $firstFail -or $step.Mailboxes -lt $firstFail)) { $firstFail = $step.Mailboxes }
        }
        $passed = @($deployment.Steps | Where-Object { $_.Result -eq 'Pass' -and ($null -eq $firstFail -or $_.Mailboxes -lt $firstFail) } | ForEach-Object Mailboxes)
        $deployment.Mailboxes | Should -Be $(if ($passed) { ($passed | Measure-Object -Maximum).Maximum } else { 0 })
        $deployment.StopReason | Should -BeIn 'Resolved', 'TimeBoundReached', 'MaximumReached'
        $a.StopReason | Should -Be $deployment.StopReason
        $b.StopReason | Should -Be $deployment.StopReason

        # The run said so as it went, and run.json and the merged report carry both answers.
        $run.Verbose.Message | Where-Object { $_ -like 'Step 1: * mailboxes a host (* in all): * for the deployment (*' } | Should -HaveCount 1
        $run.Progress | Where-Object { $_.ActivityId -eq 1 -and $_.StatusDescription -like 'Step 2: *' } | Should -Not -BeNullOrEmpty
        $record = Get-Content -Raw -LiteralPath (Join-Path $collected 'run.json') | ConvertFrom-Json
        $record.capacity.mailboxes | Should -Be $deployment.Mailboxes
        @($record.hosts.capacity.steps) | Should -Be @($a.Steps.Count, $b.Steps.Count)
        $aggregate.Report.Text | Should -BeLike '*Deployment capacity*'
    }

    It '-Session: every host measures over one window from the agreed instants; a closed session fails only its host' {
        $closed = New-SshRigSession -Rig $Rig -Index 0
        Remove-PSSession -Session $closed
        $collected = Join-Path $Data 'session'
        $at = [DateTime]::UtcNow.AddSeconds(20)
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out, $at, $o) $p | Invoke-StorageTest -Session $s -OutputPath $out -StartAtUtc $at @o -Verbose' -ArgumentList $Profile, @($SessionA, $closed, $SessionB), $collected, $at, $Short
        $run.Exception | Should -BeNullOrEmpty
        $run.Errors | Should -HaveCount 1
        $failed = $run.Errors[0]
        $failed.TargetObject | Should -Be '127.0.0.1'
        $failed.Exception.Message | Should -BeLike "Host '127.0.0.1' failed: its session is not available*"

        $results = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $aggregate = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' })[0]
        Assert-OneWindow -Results $results -Aggregate $aggregate -Machines $MachineA, $MachineB
        @($results | ForEach-Object Address | Sort-Object) | Should -Be @('127.0.0.1', '127.0.0.2')
        $aggregate.HostCount | Should -Be 3
        @($aggregate.FailedHosts) | Should -Be @('127.0.0.1')
        # The agreed load start is -StartAtUtc; each host measured from it + the same lead, as -Verbose said.
        $aggregate.StartAtUtc | Should -Be $at.AddTicks(- $at.Ticks % [TimeSpan]::TicksPerMillisecond)
        $announced = $run.Verbose.Message | Where-Object { $_ -like 'Run *: on this computer''s clock, loading (tuning, warm-up) starts at *; measuring starts at *' }
        $announced | Should -HaveCount 1
        $announced | Should -BeLike "*measuring starts at $($aggregate.MeasureAtUtc.ToString('yyyy-MM-dd''T''HH:mm:ss.fff''Z'''))*"
        foreach ($result in $results) {
            # The host's own clock: the agreed instant + its skew (to the millisecond the host's -StartAtUtc keeps).
            [Math]::Abs(($result.MeasureAtUtc.AddMilliseconds(- $result.ClockSkewMs) - $aggregate.MeasureAtUtc).TotalMilliseconds) | Should -BeLessThan 2
            Split-Path -Leaf (Split-Path -Parent $result.ResultsPath) | Should -Be $result.ComputerName
        }
        # One progress bar per host under the run's bar, named by machine, with the hosts' phases.
        $run.Progress | Where-Object { $_.ActivityId -eq 1 -and $_.StatusDescription -like 'Tuning and warming up; all hosts measure from*' } | Should -Not -BeNullOrEmpty
        foreach ($label in "$MachineA (127.0.0.1)", "$MachineB (127.0.0.2)") {
            $run.Progress | Where-Object { $_.ParentActivityId -eq 1 -and $_.Activity -eq $label -and $_.CurrentOperation -eq 'Measuring' } | Should -Not -BeNullOrEmpty
        }
        $record = Get-Content -Raw -LiteralPath (Join-Path $collected 'run.json') | ConvertFrom-Json
        ([datetime]$record.measureAtUtc).ToUniversalTime() | Should -Be $aggregate.MeasureAtUtc.AddTicks(- $aggregate.MeasureAtUtc.Ticks % [TimeSpan]::TicksPerMillisecond)
        @($record.hosts.name) | Should -Be @($MachineA, '127.0.0.1', $MachineB)
    }

    It '-FaultAt on two hosts: one fault window on both from the agreed instant, its script run on the first host only' {
        $faultScript = Join-Path $Data 'fault.sh'
        Set-Content -LiteralPath $faultScript -Value 'echo "fault on $(hostname) from $EXCHSTORAGETEST_FAULT_START_UTC"'
        $collected = Join-Path $Data 'fault'
        $o = @{ Duration = [TimeSpan]::FromSeconds(30); SampleIntervalSeconds = 5; ThreadCount = 2; Warmup = [TimeSpan]::Zero; Force = $true
                FaultAt = [TimeSpan]::FromSeconds(15); FaultLength = [TimeSpan]::FromSeconds(10); FaultScript = $faultScript }
        # The start instant taken inside the runspace, once the module is loaded there; 35 s ahead: planning on two cold hosts took over 15 s here.
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out, $o) $p | Invoke-StorageTest -Session $s -OutputPath $out -StartAtUtc ([DateTime]::UtcNow.AddSeconds(35)) @o' -ArgumentList $Profile, @($SessionA, $SessionB), $collected, $o
        $run.Exception | Should -BeNullOrEmpty
        $run.Errors | Should -HaveCount 0
        $results = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        $results | Should -HaveCount 2
        $starts = foreach ($result in $results) {
            $fm = (Get-Content -Raw -LiteralPath $result.ResultsPath | ConvertFrom-Json).failureMode
            $fm.window.lengthSeconds | Should -Be 10
            $fm.fault.summary | Should -Not -BeNullOrEmpty
            $result.FailureMode | Should -Not -BeNullOrEmpty
            $fm.script.host | Should -Be $MachineA
            if ($result.ComputerName -eq $MachineA) {
                $fm.script.ranHere | Should -BeTrue
                $fm.script.exitCode | Should -Be 0
                $fm.script.output | Should -BeLike "fault on $MachineA from *"
            }
            else {
                $fm.script.ranHere | Should -BeFalse
                $fm.script.startedUtc | Should -BeNullOrEmpty
            }
            ([datetime]$fm.window.startUtc).ToUniversalTime()
        }
        # One instant on both hosts: the agreed measuring start + FaultAt, each on its own clock.
        [Math]::Abs(($starts[0] - $starts[1]).TotalSeconds) | Should -BeLessThan 1
    }

    It '-ComputerName -UseSSH with a port, user, key and known_hosts of its own: hosts named by machine, each message once; an unreachable host and a host whose folders are in use fail alone' {
        # A second connection to host A is named <A>-2; its folder is A's own (a link), so one of the two finds its folders in use.
        $null = New-Item -ItemType SymbolicLink -Path (Join-Path $Data "$MachineA-2") -Target (Join-Path $Data $MachineA)
        $collected = Join-Path $Data 'computername'
        $exported = Join-Path $Data 'computername.clixml'
        # In a PowerShell process of its own, whose console is captured: a remote record printed by the host (not
        # relayed with the host's name) would show there. No -StartAtUtc: the command chooses the start from the plans.
        $began = [DateTime]::UtcNow
        $script = Join-Path $Data 'computername.ps1'
        @'
param($Manifest, $Data, $Collected, $Exported, $Port, $KeyFilePath, $KnownHosts)
$ErrorActionPreference = 'Continue'
$PSStyle.OutputRendering = 'PlainText'
Import-Module -Name $Manifest
$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path $Data '{host}')
$options = @{ UserKnownHostsFile = $KnownHosts; GlobalKnownHostsFile = '/dev/null'; StrictHostKeyChecking = 'yes'; BatchMode = 'yes' }
$output = $p | Invoke-StorageTest -ComputerName 127.0.0.1, nohost.invalid, 127.0.0.2, 127.0.0.1 -UseSSH -Port $Port -UserName root -KeyFilePath $KeyFilePath -SSHOptions $options `
    -OutputPath $Collected -Duration 00:00:10 -SampleIntervalSeconds 2 -Force -Verbose -ErrorVariable failures
[pscustomobject]@{ Output = $output; Errors = @($failures | ForEach-Object { [pscustomobject]@{ Id = $_.FullyQualifiedErrorId; Target = "$($_.TargetObject)"; Message = $_.Exception.Message } }) } |
    Export-Clixml -LiteralPath $Exported -Depth 5
exit 0
'@ | Set-Content -LiteralPath $script
        $command = Get-PowerShellCommand
        $console = & $command[0] @($command | Select-Object -Skip 1) -NoProfile -NonInteractive -File $script $Manifest $Data $collected $exported $Rig.Port $Rig.KeyFilePath $Rig.SshOptions.UserKnownHostsFile 2>&1 | ForEach-Object { "$_" -replace "`e\[[0-9;]*m", '' }
        $run = Import-Clixml -LiteralPath $exported
        $run.Output | Should -Not -BeNullOrEmpty -Because ($console -join "`n")

        $results = @($run.Output | Where-Object { $_.PSObject.TypeNames -contains 'Deserialized.ExchStorageTest.TestResult' })
        $aggregate = @($run.Output | Where-Object { $_.PSObject.TypeNames -contains 'Deserialized.ExchStorageTest.AggregateResult' })[0]
        Assert-OneWindow -Results $results -Aggregate $aggregate -Machines $MachineA, $MachineB
        $aggregate.HostCount | Should -Be 4
        # The start it chose: at least a minute after the command began (the least lead), plus the preparation estimate.
        ($aggregate.StartAtUtc - $began).TotalSeconds | Should -BeGreaterOrEqual 60
        $unreachable = $run.Errors | Where-Object { $_.Target -eq 'nohost.invalid' }
        $unreachable.Message | Should -BeLike "Host 'nohost.invalid' failed: no remoting session could be opened*"
        $inUse = $run.Errors | Where-Object { $_.Target -like "$MachineA*" }
        $inUse.Message | Should -BeLike "Host '$MachineA*(127.0.0.1)' failed:*is in use by another ExchStorageTest run*"
        $run.Errors | Should -HaveCount 2
        @($aggregate.FailedHosts) | Should -Contain 'nohost.invalid'

        # Every remote verbose message reached the console once, relayed with its host's name; none bare.
        $verbose = @($console | Where-Object { $_ -like 'VERBOSE: *' })
        $verbose | Where-Object { $_ -match '^VERBOSE: ExchStorageTest engine \S+ \(process \d+\): (plan|run)\.$' } | Should -BeNullOrEmpty
        $verbose | Where-Object { $_ -match "^VERBOSE: $MachineB \(127\.0\.0\.2\): ExchStorageTest engine \S+ \(process \d+\): run\.$" } | Should -HaveCount 1 -Because ($verbose -join "`n")
        @($verbose | Group-Object | Where-Object { $_.Count -gt 1 }).Name | Should -BeNullOrEmpty
    }

    It '-StartFile: hosts that meet on a share start from its instant and measure over one window' {
        $share = Join-Path $Data 'share'
        $null = New-Item -ItemType Directory -Path $share
        $startFile = (New-StorageTestRun -Path $share -StartAtUtc ([DateTime]::UtcNow.AddSeconds(15)) -HostCount 2 -Force).StartFile
        # Each host runs the module itself (no remoting into it during the run: Invoke-Command only starts it), on its own folders.
        $results = @(Invoke-Command -Session $SessionA, $SessionB -ScriptBlock {
                # A host where an earlier run imported the module (its copy) keeps that one: one module of a version per session.
                if (-not (Get-Module -Name ExchStorageTest)) { Import-Module -Name $using:Manifest }
                $p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path $using:Data ([Environment]::MachineName))
                $p | Invoke-StorageTest -StartFile $using:startFile -Duration 00:00:10 -SampleIntervalSeconds 2 -Force
            })
        $start = Get-Content -Raw -LiteralPath $startFile | ConvertFrom-Json
        foreach ($result in $results) { $result.StartAtUtc | Should -Be ([datetime]$start.startAtUtc).ToUniversalTime() }
        Assert-OneWindow -Results $results -Aggregate $null -Machines $MachineA, $MachineB
        # Both results on the share, one per machine; their merge states the skew and sums the hosts.
        @(Get-ChildItem -LiteralPath (Join-Path $share 'results') -Filter '*.json' | ForEach-Object BaseName | Sort-Object) | Should -Be @($MachineA, $MachineB | Sort-Object)
        $report = Get-TestReport -Path (Join-Path $share 'results')
        $report.Aggregate.Hosts | Should -Be 2
        $report.Aggregate.MeasuringStartSkewSeconds | Should -BeLessThan 1
        $sum = ($results | Measure-Object -Property AchievedIops -Sum).Sum
        [Math]::Abs($report.Aggregate.AchievedIops - $sum) | Should -BeLessOrEqual 0.004
        $report.Text | Should -Match 'Agreed measuring start: \S+ \S+ UTC; their measuring starts differ by at most 0\.\d{3} s\.'
    }

    It '-Session with the instants chosen from the plans, automatic tuning, {host} and -OutputPath: both hosts run, neither fails' {
        # The combination of the report of "Host '...' failed: Object reference not set to an instance of an object": a
        # plan's channel ended after its pipeline was stopped. The runs here never stop a pipeline of theirs (no host falls
        # silent or answers unreadably), which is why this suite missed it; the race itself is held in-process
        # (tests/ExchStorageTest.Commands.Tests, MultiHost: the fake transport refuses input after a stop) and shown over
        # SSH by tests/Remoting/Show-ChannelStopRace.ps1 (not a CI test: stopping pipelines that way can crash PowerShell's client).
        $collected = Join-Path $Data 'combination'
        $run = Invoke-InModuleRunspace -Script 'param($p, $s, $out, $o) $p | Invoke-StorageTest -Session $s -OutputPath $out @o' -ArgumentList $Profile, @($SessionA, $SessionB), $collected, $Short
        $run.Exception | Should -BeNullOrEmpty
        $run.Errors | Should -BeNullOrEmpty
        $results = @($run.Output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.TestResult' })
        @($results.ComputerName | Sort-Object) | Should -Be @($MachineA, $MachineB | Sort-Object)
        foreach ($result in $results) { Split-Path -Leaf (Split-Path -Parent $result.ResultsPath) | Should -Be $result.ComputerName }
        Test-Path -LiteralPath (Join-Path $collected 'run.json') | Should -BeTrue
    }

    It 'a stop stops every host''s engine cleanly and each keeps its partial result' {
        # Stopped once both hosts measure: a given thread count and no warm-up measure from the agreed start.
        # The instant is taken in the run's own runspace, once the module is loaded there, and 30 s ahead: a multi-host start
        # must be 10 s ahead when the command begins, and both hosts must be planned before it. A loaded CI run once saw an
        # error before the stop that it did not name (the assertion now quotes it); an instant taken 15 s ahead before the
        # runspace was made and the module loaded in it is the likely one.
        $stopped = Stop-WhenUnderWay -Script 'param($p, $s, $out) $p | Invoke-StorageTest -Session $s -OutputPath $out -StartAtUtc ([DateTime]::UtcNow.AddSeconds(30)) -Duration 00:10:00 -ThreadCount 2 -Warmup 0 -SampleIntervalSeconds 2 -Force' `
            -ArgumentList $Profile, @($SessionA, $SessionB), (Join-Path $Data 'stopped') `
            -UnderWay { param($ps) @($ps.Streams.Progress | Where-Object { $_.ParentActivityId -eq 1 -and $_.CurrentOperation -eq 'Measuring' } | Select-Object -ExpandProperty Activity -Unique).Count -ge 2 }
        $stopped | Should -HaveCount 2
        foreach ($result in $stopped) { $result.timeline.collectionStartUtc | Should -Not -BeNullOrEmpty }
    }
}
