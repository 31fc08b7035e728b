function New-AggregateResult {
    <#
    .SYNOPSIS
    Builds the ExchStorageTest.AggregateResult of a multi-host or start-file run.

    .DESCRIPTION
    The merged figures come from the engine's report over every collected results file
    (Get-TestReport: rates summed, latency histograms merged, never percentiles averaged). The
    per-host sum of achieved IOPS is kept next to it as a cross-check; when the report carries
    no aggregate (an older engine), AchievedIops falls back to that sum and AchievedIopsSource
    says so. The run passes only when every host ran and passed.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.AggregateResult')]
    param(
        [Parameter(Mandatory = $true)]
        [string] $RunId,

        [AllowNull()]
        [object] $StartAtUtc,

        [AllowEmptyCollection()]
        [object[]] $HostState = @(),

        [AllowEmptyCollection()]
        [object[]] $Result = @(),

        [AllowNull()]
        [object] $Report,

        [string] $OutputPath
    )

    $targetSum = [double]0
    $achievedSum = [double]0
    foreach ($item in $Result) {
        $targetSum += [double](Get-EventValue -InputObject $item -Name 'TargetIops' -Default 0)
        $achievedSum += [double](Get-EventValue -InputObject $item -Name 'AchievedIops' -Default 0)
    }

    $achieved = $achievedSum
    $target = $targetSum
    $source = 'PerHostSum'
    if ($null -ne $Report) {
        $merged = $null
        foreach ($candidate in @((Get-EventValue -InputObject $Report -Name 'Aggregate'), (Get-EventValue -InputObject (Get-EventValue -InputObject $Report -Name 'Esrp') -Name 'aggregate'))) {
            if ($null -ne $candidate -and $null -eq $merged) {
                $merged = $candidate
            }
        }
        $mergedAchieved = Get-EventValue -InputObject $merged -Name 'achievedTransactionalIops', 'achievedIops'
        if ($null -ne $mergedAchieved) {
            $achieved = [double]$mergedAchieved
            $source = 'Report'
            $mergedTarget = Get-EventValue -InputObject $merged -Name 'targetTransactionalIops', 'targetIops'
            if ($null -ne $mergedTarget) {
                $target = [double]$mergedTarget
            }
        }
    }

    $failedHosts = [string[]]@($HostState | Where-Object { $_.Failed } | ForEach-Object { [string]$_.ComputerName })
    $passed = @($Result | Where-Object { [string](Get-EventValue -InputObject $_ -Name 'Result') -eq 'Pass' })
    $overall = 'Fail'
    if ($Result.Count -gt 0 -and $failedHosts.Count -eq 0 -and $passed.Count -eq $Result.Count) {
        $overall = 'Pass'
    }
    $hosts = @(
        foreach ($item in $Result) {
            [pscustomobject]@{
                ComputerName = Get-EventValue -InputObject $item -Name 'ComputerName'
                Result       = Get-EventValue -InputObject $item -Name 'Result'
                AchievedIops = Get-EventValue -InputObject $item -Name 'AchievedIops'
                ClockSkewMs  = Get-EventValue -InputObject $item -Name 'ClockSkewMs'
                ResultsPath  = Get-EventValue -InputObject $item -Name 'ResultsPath'
            }
        }
    )

    $startText = $null
    if ($null -ne $StartAtUtc) {
        $startText = ConvertTo-UtcDateTime -Value $StartAtUtc
    }
    [pscustomobject]@{
        PSTypeName             = 'ExchStorageTest.AggregateResult'
        RunId                  = $RunId
        Result                 = $overall
        StartAtUtc             = $startText
        HostCount              = @($HostState).Count
        PassedHostCount        = $passed.Count
        FailedHosts            = $failedHosts
        Hosts                  = $hosts
        TargetIops             = $target
        AchievedIops           = $achieved
        AchievedIopsPerHostSum = $achievedSum
        AchievedIopsSource     = $source
        ResultsPath            = [string[]]@($Result | ForEach-Object { Get-EventValue -InputObject $_ -Name 'ResultsPath' } | Where-Object { -not [string]::IsNullOrWhiteSpace([string]$_) })
        OutputPath             = $OutputPath
        Report                 = $Report
    }
}
