function Write-EngineProgress {
    <#
    .SYNOPSIS
    Shows engine progress with Write-Progress, at most about four updates a second.

    .DESCRIPTION
    Write-Progress is slow in Windows PowerShell 5.1, and the engine may report far more often
    than a person can read. $State (a hashtable owned by Invoke-EngineProcess) keeps the last
    phase, percent, ETA and sample between calls; a phase change is always shown at once.
    #>
    [CmdletBinding()]
    param(
        [Parameter(Mandatory = $true)]
        [hashtable] $State,

        [Parameter(Mandatory = $true)]
        [string] $Activity,

        [switch] $Force
    )

    if (-not $Force -and $State.Watch.IsRunning -and $State.Watch.ElapsedMilliseconds -lt 250) {
        return
    }
    $State.Watch.Reset()
    $State.Watch.Start()

    $percent = -1
    if ($null -ne $State.Percent) {
        $percent = [int][System.Math]::Max(0, [System.Math]::Min(100, [double]$State.Percent))
    }
    $seconds = -1
    if ($null -ne $State.EtaSeconds) {
        $seconds = [int][System.Math]::Max(0, [double]$State.EtaSeconds)
    }
    $phase = [string]$State.Phase
    if ([string]::IsNullOrWhiteSpace($phase)) {
        $phase = 'Starting'
    }
    $status = Format-LiveStatus -Status $State.Status -Sample $State.Sample

    Write-Progress -Id 1 -Activity $Activity -Status $status -CurrentOperation $phase -PercentComplete $percent -SecondsRemaining $seconds
}
