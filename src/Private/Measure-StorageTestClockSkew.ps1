function Measure-StorageTestClockSkew {
    <#
    .SYNOPSIS
    Measures how far a remote host's clock is from the local one, corrected for the round trip.

    .DESCRIPTION
    Asks the host for its UTC time a few times and keeps the sample with the shortest round trip:
    the remote reading is compared with the local instant half-way through that round trip, so
    the error is at most half the shortest round trip (reported as Uncertainty). Skew is remote
    minus local: a host whose clock runs 2 s ahead has a skew of +2 s, and its start instant on
    its own clock is the agreed instant plus 2 s.
    #>
    [CmdletBinding()]
    [OutputType([pscustomobject])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $Session,

        [ValidateRange(1, 20)]
        [int] $Samples = 3
    )

    $best = $null
    for ($i = 0; $i -lt $Samples; $i++) {
        $before = [DateTime]::UtcNow
        $remoteTicks = Invoke-Command -Session $Session -ScriptBlock { [DateTime]::UtcNow.Ticks } -ErrorAction Stop
        $after = [DateTime]::UtcNow
        $roundTrip = $after - $before
        $middle = $before.AddTicks([long]($roundTrip.Ticks / 2))
        $skew = [timespan]::FromTicks([long]$remoteTicks - $middle.Ticks)
        if ($null -eq $best -or $roundTrip -lt $best.RoundTrip) {
            $best = [pscustomobject]@{
                PSTypeName  = 'ExchStorageTest.ClockSkew'
                Skew        = $skew
                RoundTrip   = $roundTrip
                Uncertainty = [timespan]::FromTicks([long]($roundTrip.Ticks / 2))
            }
        }
    }
    $best
}
