function Start-StorageTestJob {
    <#
    .SYNOPSIS
    Starts Invoke-StorageTest for a validated profile in a background job and returns the job.

    .DESCRIPTION
    Start-Job exists in 5.1 and 7 (Start-ThreadJob is not built into 5.1). The job imports this
    module by its manifest path, since a job's process has its own module path and working
    folder; every path is therefore already absolute. The profile travels serialized and is
    validated again inside the job. Confirmation already happened here, so the job runs with
    -Force -Confirm:$false; switches travel as booleans because serialized SwitchParameters do
    not splat.
    #>
    [CmdletBinding()]
    [OutputType([System.Management.Automation.Job])]
    param(
        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile,

        [Parameter(Mandatory = $true)]
        [System.Collections.IDictionary] $BoundParameters,

        [Parameter(Mandatory = $true)]
        [hashtable] $Settings
    )

    $parameters = @{
        MailboxProfile        = $MailboxProfile
        TestType              = $Settings.TestType
        DatabaseSource        = $Settings.DatabaseSource
        SampleIntervalSeconds = $Settings.SampleIntervalSeconds
        LogFilesToReplay      = $Settings.LogFilesToReplay
        CapacityPercent       = $Settings.CapacityPercent
        ContinueOnError       = [bool]$Settings.ContinueOnError
        AllowBufferedIo       = [bool]$Settings.AllowBufferedIo
        NoCpuAffinity         = [bool]$Settings.NoCpuAffinity
        Force                 = $true
        Confirm               = $false
    }
    if ($null -ne $Settings.Duration) {
        $parameters.Duration = $Settings.Duration
    }
    if ($null -ne $Settings.OutputPath) {
        $parameters.OutputPath = $Settings.OutputPath
    }
    if ($null -ne $Settings.RestoreFromPath) {
        $parameters.RestoreFromPath = $Settings.RestoreFromPath
    }
    if ($null -ne $Settings.ThreadCount) {
        $parameters.ThreadCount = $Settings.ThreadCount
    }
    if ($null -ne $Settings.TargetRateIops) {
        $parameters.TargetRateIops = $Settings.TargetRateIops
    }
    if ($null -ne $Settings.WarmupSeconds) {
        $parameters.Warmup = [timespan]::FromSeconds($Settings.WarmupSeconds)
    }
    if ($BoundParameters.ContainsKey('Thresholds')) {
        # The merged set: identical in the job whatever the test type defaults are.
        $thresholds = @{}
        foreach ($key in $Settings.Thresholds.Keys) {
            $thresholds[$key] = $Settings.Thresholds[$key]
        }
        $parameters.Thresholds = $thresholds
    }

    $jobName = 'ExchStorageTest-{0}-{1}' -f $Settings.TestType, $MailboxProfile.Name
    Start-Job -Name $jobName -ArgumentList $script:ModuleManifestPath, $parameters -ScriptBlock {
        param($ModulePath, $Parameters)
        Import-Module -Name $ModulePath -ErrorAction Stop
        Invoke-StorageTest @Parameters
    }
}
