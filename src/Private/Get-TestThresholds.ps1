function Get-TestThresholds {
    <#
    .SYNOPSIS
    Returns the latency thresholds for a test type with the user's overrides applied.

    .DESCRIPTION
    Defaults follow Jetstress (SPEC section 4): Strict for every type but Stress (20/100 ms DB
    read, 10/100 ms log write, 1 page-fault stall/s), Lenient for Stress (maxima 200 ms). The
    module merges here, not the engine, so a partial override never silently resets the other
    limits to Strict during a Stress run. Errors: ExchStorageTest.InvalidThresholds.
    #>
    [CmdletBinding()]
    [OutputType([System.Collections.Specialized.OrderedDictionary])]
    param(
        [Parameter(Mandatory = $true)]
        [string] $TestType,

        [AllowNull()]
        [object] $Override
    )

    $thresholds = [ordered]@{
        name                            = 'Strict'
        averageDatabaseReadLatencyMs    = 20.0
        maximumDatabaseReadLatencyMs    = 100.0
        averageLogWriteLatencyMs        = 10.0
        maximumLogWriteLatencyMs        = 100.0
        maximumPageFaultStallsPerSecond = 1.0
    }
    if ($TestType -eq 'Stress') {
        $thresholds.name = 'Lenient'
        $thresholds.maximumDatabaseReadLatencyMs = 200.0
        $thresholds.maximumLogWriteLatencyMs = 200.0
    }
    if ($null -eq $Override) {
        return $thresholds
    }

    if ($Override -is [System.Collections.IDictionary]) {
        $pairs = @(foreach ($key in $Override.Keys) { New-Object -TypeName psobject -Property @{ Name = [string]$key; Value = $Override[$key] } })
    }
    else {
        $pairs = @($Override.PSObject.Properties | ForEach-Object { New-Object -TypeName psobject -Property @{ Name = $_.Name; Value = $_.Value } })
    }

    $known = @($thresholds.Keys | Where-Object { $_ -ne 'name' })
    $customised = $false
    foreach ($pair in $pairs) {
        if ($pair.Name -eq 'name') {
            continue
        }
        $match = $known | Where-Object { $_ -eq $pair.Name } | Select-Object -First 1
        if ($null -eq $match) {
            throw (New-ModuleErrorRecord -ErrorId 'InvalidThresholds' -Message "Threshold '$($pair.Name)' is not known: use $([string]::Join(', ', $known))." -Category InvalidArgument -TargetObject $pair.Name)
        }
        $thresholds[$match] = ConvertTo-CheckedNumber -Name $match -Value $pair.Value -Minimum 0 -ExclusiveMinimum -Maximum 100000 -ErrorId 'InvalidThresholds'
        $customised = $true
    }
    if ($customised) {
        $thresholds.name = 'Custom'
    }
    $nameOverride = Get-EventValue -InputObject $Override -Name 'name'
    if (-not [string]::IsNullOrWhiteSpace([string]$nameOverride)) {
        $thresholds.name = [string]$nameOverride
    }
    $thresholds
}
