<#
.SYNOPSIS
    Measures how long a multi-host run takes from the command to its agreed measuring start, and to every host being
    ready, with -Count namespace hosts of the SSH rig (tests/Remoting/SshRig.psm1) and a tiny load.

.DESCRIPTION
    Starts the rig with each count of hosts in turn and runs Invoke-StorageTest -ComputerName ... -UseSSH twice on them:
    first with no copy of the module on the hosts (cold: the module and its engine are copied to each), then again
    (warm: the copies are reused). The load is tiny (20 mailboxes of 10 MB, one database, one session, no warm-up, a 5 s
    window), so what is measured is the orchestration: opening the sessions, checking every host (module, machine name,
    clock, plan), starting the engines and their database creation.

    For each run it prints:
      Sessions  the command's start to every SSH session open (-Verbose: "Opened N of N SSH sessions in X s")
      Checked   to every host checked and planned ("Checked N hosts at once in X s")
      Ready     to the last host's engine ready and waiting for the agreed start: the agreed start less the wait the
                engine announces ("Waiting for the agreed start at ... (W s)"); what a start chosen by measurement could be
      Measure   to the agreed measuring start the command chose (the preparation estimate, at least 60 s, + the lead)

    Needs what the SSH suite needs (Linux, root, openssh-server, unshare: Get-SshRigSkipReason) and a built module.

.EXAMPLE
    dotnet pwsh -NoProfile -File tests/Remoting/Measure-MultiHostStart.ps1 -Count 2, 6
#>
[CmdletBinding()]
param(
    # The host counts to measure, one rig each.
    [int[]] $Count = @(2, 6),

    # Where the hosts' databases go (a real disk: direct I/O).
    [string] $DataRoot = '/var/tmp'
)

$ErrorActionPreference = 'Stop'
Import-Module -Name (Join-Path $PSScriptRoot 'SshRig.psm1') -Force
$reason = Get-SshRigSkipReason
if ($reason) { throw "The SSH rig cannot run here: $reason" }
$manifest = (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '../../ExchStorageTest.psd1')).Path

function Invoke-Measured {
    # One run in a runspace of its own.
    param($Rig, [string] $Data, [string] $Collected)
    $runspace = [runspacefactory]::CreateRunspace()
    $runspace.Open()
    $ps = [powershell]::Create()
    $ps.Runspace = $runspace
    try {
        $script = @'
param($Manifest, $Data, $Collected, $Addresses, $Port, $KeyFilePath, $Options)
Import-Module -Name $Manifest
$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 1 -Path (Join-Path $Data '{host}')
$p | Invoke-StorageTest -ComputerName $Addresses -UseSSH -Port $Port -UserName root -KeyFilePath $KeyFilePath -SSHOptions $Options `
    -OutputPath $Collected -Duration 00:00:05 -ThreadCount 1 -Warmup 0 -SampleIntervalSeconds 1 -Force -Verbose
'@
        $null = $ps.AddScript($script).AddArgument($manifest).AddArgument($Data).AddArgument($Collected).AddArgument(@($Rig.Hosts | ForEach-Object Address)).AddArgument($Rig.Port).AddArgument($Rig.KeyFilePath).AddArgument($Rig.SshOptions)
        $began = [DateTime]::UtcNow
        $pending = $ps.BeginInvoke()
        # Every verbose record stamped as it arrives (polled every 50 ms; by index, the collection is still being written).
        $stamped = [System.Collections.Generic.List[object]]::new()
        do {
            $done = $pending.AsyncWaitHandle.WaitOne(50)
            while ($stamped.Count -lt $ps.Streams.Verbose.Count) { $stamped.Add([pscustomobject]@{ At = [DateTime]::UtcNow; Message = $ps.Streams.Verbose[$stamped.Count].Message }) }
        } until ($done)
        $output = $ps.EndInvoke($pending)
        $aggregate = @($output | Where-Object { $_.PSObject.TypeNames[0] -eq 'ExchStorageTest.AggregateResult' })[0]
        # Every host measured (its verdict is the storage's business, not the orchestration's).
        if (-not $aggregate -or @($aggregate.Hosts).Count -ne $Rig.Hosts.Count) {
            throw "The run did not complete on every host: $(@($ps.Streams.Error) -join '; ')"
        }
        $since = { param($pattern) $m = @($stamped | Where-Object { $_.Message -like $pattern })[0]; if ($m) { [Math]::Round(($m.At - $began).TotalSeconds, 1) } }
        # Each host's engine: ready when the agreed start (on its clock) less the wait it announced.
        $ready = foreach ($m in $stamped) {
            if ($m.Message -match ': Waiting for the agreed start at (\S+) \(([\d.]+) s\)') {
                ([datetime]::Parse($Matches[1], [cultureinfo]::InvariantCulture, 'AdjustToUniversal')).AddSeconds(- [double]$Matches[2])
            }
        }
        [pscustomobject]@{
            Hosts    = $Rig.Hosts.Count
            Sessions = & $since 'Opened * SSH session* in *'
            Checked  = & $since 'Checked * host* at once in *'
            Ready    = [Math]::Round((($ready | Measure-Object -Maximum).Maximum - $began).TotalSeconds, 1)
            Measure  = [Math]::Round(($aggregate.MeasureAtUtc - $began).TotalSeconds, 1)
            Copied   = @($stamped | Where-Object { $_.Message -like 'Copying ExchStorageTest*' }).Count
        }
    }
    finally {
        $ps.Dispose()
        $runspace.Dispose()
    }
}

$rows = foreach ($n in $Count) {
    $rig = Start-SshRig -Count $n
    $data = Join-Path $DataRoot ('exst-measure-' + [guid]::NewGuid().ToString('N').Substring(0, 8))
    try {
        foreach ($h in $rig.Hosts) { $null = New-Item -ItemType Directory -Path (Join-Path $data $h.MachineName) }
        foreach ($pass in 'cold', 'warm') {
            $row = Invoke-Measured -Rig $rig -Data $data -Collected (Join-Path $data "collected-$pass")
            $row | Add-Member -NotePropertyName Run -NotePropertyValue $pass
            Write-Host ("{0} hosts, {1}: {2}" -f $n, $pass, ($row | ConvertTo-Json -Compress))
            $row
            # The next run re-creates nothing it may not: every host's databases are attached again, so remove them.
            foreach ($h in $rig.Hosts) { Get-ChildItem -LiteralPath (Join-Path $data $h.MachineName) | Remove-Item -Recurse -Force }
        }
    }
    finally {
        Stop-SshRig -Rig $rig
        Remove-Item -LiteralPath $data -Recurse -Force -ErrorAction SilentlyContinue
    }
}
$rows | Format-Table -Property 'Hosts', 'Run', 'Copied', 'Sessions', 'Checked', 'Ready', 'Measure' -AutoSize | Out-String -Width 200 | Write-Host
$rows
