function Format-LiveStatus {
    <#
    .SYNOPSIS
    Builds the progress status line: phase text plus live IOPS and latency from the last sample.

    .DESCRIPTION
    Sample events carry the live rate and latencies. Latency fields may be plain numbers or
    {average, p99} objects depending on the engine version; both are read.
    #>
    [CmdletBinding()]
    [OutputType([string])]
    param(
        [AllowNull()]
        [AllowEmptyString()]
        [string] $Status,

        [AllowNull()]
        [object] $Sample
    )

    $parts = New-Object -TypeName System.Collections.Generic.List[string]
    if (-not [string]::IsNullOrWhiteSpace($Status)) {
        $parts.Add($Status)
    }
    if ($null -ne $Sample) {
        $iops = Get-EventValue -InputObject $Sample -Name 'achievedIops', 'iops', 'transactionalIops'
        if ($null -ne $iops) {
            $parts.Add(('{0:N0} IOPS' -f [double]$iops))
        }
        $labels = [ordered]@{ 'dbReadLatencyMs' = 'DB read'; 'dbWriteLatencyMs' = 'DB write'; 'logWriteLatencyMs' = 'log write' }
        foreach ($field in $labels.Keys) {
            $value = Get-EventValue -InputObject $Sample -Name $field
            if ($null -ne $value -and -not ($value -is [System.ValueType]) -and -not ($value -is [string])) {
                $value = Get-EventValue -InputObject $value -Name 'average', 'mean'
            }
            if ($null -ne $value) {
                $parts.Add(('{0} {1:N1} ms' -f $labels[$field], [double]$value))
            }
        }
    }
    if ($parts.Count -eq 0) {
        return 'Running'
    }
    [string]::Join(' | ', $parts.ToArray())
}
