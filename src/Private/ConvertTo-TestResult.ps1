function ConvertTo-TestResult {
    <#
    .SYNOPSIS
    Turns the engine's 'result' event into an ExchStorageTest.TestResult object.

    .DESCRIPTION
    The event carries the summary; the full document stays in the results JSON file named by
    ResultsPath (Get-TestReport reads it). Missing fields become $null instead of failing, so
    a partial result from a stopped run still converts.
    #>
    [CmdletBinding()]
    [OutputType('ExchStorageTest.TestResult')]
    param(
        [Parameter(Mandatory = $true)]
        [object] $EngineEvent,

        [string] $ProfileName
    )

    $reasons = foreach ($reason in @(Get-EventValue -InputObject $EngineEvent -Name 'reasons')) {
        if ($null -eq $reason) {
            continue
        }
        [pscustomobject]@{
            PSTypeName = 'ExchStorageTest.Reason'
            Code       = Get-EventValue -InputObject $reason -Name 'code'
            Instance   = Get-EventValue -InputObject $reason -Name 'instance'
            Message    = Get-EventValue -InputObject $reason -Name 'message'
            Measured   = Get-EventValue -InputObject $reason -Name 'measured'
            Limit      = Get-EventValue -InputObject $reason -Name 'limit'
        }
    }

    $dbRead = Get-EventValue -InputObject $EngineEvent -Name 'dbReadLatencyMs'
    $dbWrite = Get-EventValue -InputObject $EngineEvent -Name 'dbWriteLatencyMs'
    $logWrite = Get-EventValue -InputObject $EngineEvent -Name 'logWriteLatencyMs'

    [pscustomobject]@{
        PSTypeName           = 'ExchStorageTest.TestResult'
        TestId               = Get-EventValue -InputObject $EngineEvent -Name 'testId'
        TestType             = Get-EventValue -InputObject $EngineEvent -Name 'testType'
        ProfileName          = $ProfileName
        Result               = Get-EventValue -InputObject $EngineEvent -Name 'result'
        Completion           = Get-EventValue -InputObject $EngineEvent -Name 'completion' -Default 'Complete'
        Reasons              = @($reasons)
        TargetIops           = Get-EventValue -InputObject $EngineEvent -Name 'targetIops'
        AchievedIops         = Get-EventValue -InputObject $EngineEvent -Name 'achievedIops'
        DbReadLatencyAvgMs   = Get-EventValue -InputObject $dbRead -Name 'average', 'mean'
        DbReadLatencyP99Ms   = Get-EventValue -InputObject $dbRead -Name 'p99'
        DbWriteLatencyAvgMs  = Get-EventValue -InputObject $dbWrite -Name 'average', 'mean'
        DbWriteLatencyP99Ms  = Get-EventValue -InputObject $dbWrite -Name 'p99'
        LogWriteLatencyAvgMs = Get-EventValue -InputObject $logWrite -Name 'average', 'mean'
        LogWriteLatencyP99Ms = Get-EventValue -InputObject $logWrite -Name 'p99'
        ResultsPath          = Get-EventValue -InputObject $EngineEvent -Name 'resultsPath'
        ReportPath           = [string[]]@(Get-EventValue -InputObject $EngineEvent -Name 'reportPaths', 'reportPath' | Where-Object { -not [string]::IsNullOrWhiteSpace([string]$_) })
    }
}
