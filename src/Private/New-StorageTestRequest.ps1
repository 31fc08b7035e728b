function New-StorageTestRequest {
    <#
    .SYNOPSIS
    Builds the engine request (docs/protocol.md) for a plan or a run of a storage test.

    .DESCRIPTION
    camelCase keys in the protocol's order; a fresh test id per request, sortable by time.
    #>
    [CmdletBinding()]
    [OutputType([System.Collections.Specialized.OrderedDictionary])]
    param(
        [Parameter(Mandatory = $true)]
        [ValidateSet('plan', 'run')]
        [string] $Command,

        [Parameter(Mandatory = $true)]
        [object] $MailboxProfile,

        [Parameter(Mandatory = $true)]
        [hashtable] $Settings,

        # Multi-host runs: the engine prepares its databases, then waits for this instant (UTC,
        # on the host's own clock) before warm-up and measurement start.
        [AllowNull()]
        [object] $StartAtUtc
    )

    $testId = '{0}-{1}' -f [DateTime]::UtcNow.ToString('yyyyMMdd-HHmmss', [System.Globalization.CultureInfo]::InvariantCulture), [guid]::NewGuid().ToString('N').Substring(0, 8)
    $request = [ordered]@{
        protocol              = $script:EngineProtocolVersion
        command               = $Command
        testId                = $testId
        profile               = ConvertTo-EngineProfile -MailboxProfile $MailboxProfile
        testType              = $Settings.TestType
        durationSeconds       = $Settings.DurationSeconds
        outputPath            = $Settings.OutputPath
        databaseSource        = $Settings.DatabaseSource
        restoreFromPath       = $Settings.RestoreFromPath
        threadCount           = $Settings.ThreadCount
        targetRateIops        = $Settings.TargetRateIops
        thresholds            = $Settings.Thresholds
        continueOnError       = [bool]$Settings.ContinueOnError
        sampleIntervalSeconds = $Settings.SampleIntervalSeconds
        allowBufferedIo       = [bool]$Settings.AllowBufferedIo
        pinWorkerThreads      = -not [bool]$Settings.NoCpuAffinity
        warmupSeconds         = $Settings.WarmupSeconds
        logFilesToReplay      = $Settings.LogFilesToReplay
        capacityPercent       = $Settings.CapacityPercent
        paths                 = [string[]]@()
    }
    if ($null -ne $StartAtUtc) {
        $request['startAtUtc'] = ConvertTo-IsoUtcString -Value $StartAtUtc
    }
    $request
}
