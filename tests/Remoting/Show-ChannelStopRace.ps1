<#
.SYNOPSIS
    Shows over real SSH remoting the race behind "Host '...' failed: Object reference not set to an instance of an
    object": a host's channel stopped by the orchestrator, then its input ended, on two hosts at once, repeated.

.DESCRIPTION
    The orchestrator stops a host's pipeline when it gives the host up (silent past the channel's limit, an answer it
    cannot read), and a plan, a run's collection, a search's end and the release then end the channel's input.
    PowerShell's remoting client tears the command's transport down as the stop begins but leaves the input attached,
    so a line or the end of input written then throws a NullReferenceException from its fragmentor. A silence limit of
    zero makes each channel (RemoteEngine over RunspaceAgentPipeline, the module's own) stop its pipeline at its first look, while
    the host's agent starts; each channel is then closed and waited for. Before the fix every try failed so (20 of 20);
    with it none does.

    Not a CI test: stopping remote pipelines this way also trips PowerShell's own client (it may break the session
    while reading an answer that came as the stop began, which this script replaces; and a stop signal's timer that
    fires after its session was removed can end the PowerShell process: ObjectDisposedException in
    OutOfProcessClientCommandTransportManager.OnSignalTimeOutTimerElapsed, 1 run in 4 here).

    Needs what the SSH suite needs (Linux, root, openssh-server, unshare: Get-SshRigSkipReason) and a built module.

.EXAMPLE
    dotnet pwsh -NoProfile -File tests/Remoting/Show-ChannelStopRace.ps1 -Repeat 5
#>
[CmdletBinding()]
param(
    # How many times both hosts' channels are stopped and ended.
    [ValidateRange(1, 100)][int] $Repeat = 5
)
$ErrorActionPreference = 'Stop'
Import-Module -Name (Join-Path $PSScriptRoot 'SshRig.psm1') -Force
$manifest = (Resolve-Path -LiteralPath (Join-Path $PSScriptRoot '../../ExchStorageTest.psd1')).Path
Import-Module -Name $manifest
$skip = Get-SshRigSkipReason
if ($skip) { throw "The SSH rig cannot run here: $skip." }

$assembly = [ExchStorageTest.MultiHost.HostAgent].Assembly
$linkType = $assembly.GetType('ExchStorageTest.MultiHost.RunspaceAgentPipeline', $true)
$channelType = $assembly.GetType('ExchStorageTest.MultiHost.RemoteEngine', $true)
$rig = Start-SshRig
$sessions = @($null, $null)
try {
    $failures = for ($i = 1; $i -le $Repeat; $i++) {
        for ($h = 0; $h -lt 2; $h++) {
            if ($null -eq $sessions[$h] -or $sessions[$h].Runspace.RunspaceStateInfo.State -ne 'Opened') {
                if ($sessions[$h]) { Remove-PSSession -Session $sessions[$h] }
                $sessions[$h] = New-SshRigSession -Rig $rig -Index $h
                Invoke-Command -Session $sessions[$h] -ScriptBlock { Import-Module -Name $using:manifest }
            }
        }
        $channels = foreach ($session in $sessions) {
            $link = [Activator]::CreateInstance($linkType, @($session.Runspace))
            [Activator]::CreateInstance($channelType, @($link, [Nullable[TimeSpan]][TimeSpan]::Zero))
        }
        try {
            foreach ($channel in $channels) { $channel.Open('{"protocol":1,"command":"plan"}') }
            foreach ($channel in $channels) { $null = $channel.Take() }
            foreach ($channel in $channels) {
                try {
                    if (-not $channel.CloseAndWait([TimeSpan]::FromSeconds(30))) { "try ${i}: the stopped pipeline did not end within 30 s" }
                    elseif ($channel.Lost -notlike 'the host sent nothing for 0 s*') { "try ${i}: lost '$($channel.Lost)', not for its silence" }
                }
                catch { "try ${i}: $($_.Exception.GetBaseException().GetType().Name): $($_.Exception.GetBaseException().Message)" }
            }
        }
        finally { foreach ($channel in $channels) { $channel.Dispose() } }
    }
    if ($failures) { $failures; throw "$(@($failures).Count) of $(2 * $Repeat) channel ends failed." }
    "All $(2 * $Repeat) channel ends after a stop wrote nothing to the stopped pipeline."
}
finally {
    foreach ($session in $sessions) { if ($session) { Remove-PSSession -Session $session } }
    Stop-SshRig -Rig $rig
}
