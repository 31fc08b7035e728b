function Assert-StorageTestSettings {
    <#
    .SYNOPSIS
    Validates Invoke-StorageTest's run settings and returns them normalised in a hashtable.

    .DESCRIPTION
    Checked before the engine is started and before anything is written. Each rule has its own
    ErrorId: InvalidDuration, InvalidSampleInterval, InvalidThreadCount, InvalidTargetRate,
    ConflictingLoadSettings, InvalidWarmup, InvalidLogFilesToReplay, InvalidCapacityPercent,
    RestorePathRequired, RestorePathNotFound, RestorePathWithoutRestore, OutputPathNotFound,
    PathNotWritable, InvalidThresholds.
    #>
    [CmdletBinding()]
    [OutputType([hashtable])]
    param(
        [Parameter(Mandatory = $true)]
        [System.Collections.IDictionary] $BoundParameters,

        [Parameter(Mandatory = $true)]
        [string] $TestType,

        [Parameter(Mandatory = $true)]
        [string] $DatabaseSource,

        [double] $SampleIntervalSeconds = 15,

        [int] $LogFilesToReplay = 500,

        [double] $CapacityPercent = 20
    )

    $settings = @{
        TestType              = $TestType
        DatabaseSource        = $DatabaseSource
        Duration              = $null
        DurationSeconds       = $null
        OutputPath            = $null
        RestoreFromPath       = $null
        ThreadCount           = $null
        TargetRateIops        = $null
        WarmupSeconds         = $null
        ContinueOnError       = $BoundParameters.ContainsKey('ContinueOnError') -and [bool]$BoundParameters['ContinueOnError']
        AllowBufferedIo       = $BoundParameters.ContainsKey('AllowBufferedIo') -and [bool]$BoundParameters['AllowBufferedIo']
        NoCpuAffinity         = $BoundParameters.ContainsKey('NoCpuAffinity') -and [bool]$BoundParameters['NoCpuAffinity']
        SampleIntervalSeconds = ConvertTo-CheckedNumber -Name 'SampleIntervalSeconds' -Value $SampleIntervalSeconds -Minimum 1 -Maximum 3600 -ErrorId 'InvalidSampleInterval'
        LogFilesToReplay      = [int](ConvertTo-CheckedNumber -Name 'LogFilesToReplay' -Value $LogFilesToReplay -Minimum 1 -Maximum 100000 -Integer -ErrorId 'InvalidLogFilesToReplay')
        CapacityPercent       = ConvertTo-CheckedNumber -Name 'CapacityPercent' -Value $CapacityPercent -Minimum 1 -Maximum 95 -ErrorId 'InvalidCapacityPercent'
        Thresholds            = Get-TestThresholds -TestType $TestType -Override $BoundParameters['Thresholds']
    }

    if ($BoundParameters.ContainsKey('Duration')) {
        $duration = [timespan]$BoundParameters['Duration']
        if ($duration -le [timespan]::Zero -or $duration -gt [timespan]::FromDays(30)) {
            throw (New-ModuleErrorRecord -ErrorId 'InvalidDuration' -Message "Duration '$duration' is not valid: it must be greater than zero and at most 30 days (for example 00:30:00)." -Category InvalidArgument -TargetObject $duration)
        }
        $settings.Duration = $duration
        $settings.DurationSeconds = $duration.TotalSeconds
    }
    if ($BoundParameters.ContainsKey('Warmup')) {
        $warmup = [timespan]$BoundParameters['Warmup']
        if ($warmup -lt [timespan]::Zero -or $warmup -gt [timespan]::FromDays(1)) {
            throw (New-ModuleErrorRecord -ErrorId 'InvalidWarmup' -Message "Warmup '$warmup' is not valid: it must be zero or more and at most one day." -Category InvalidArgument -TargetObject $warmup)
        }
        $settings.WarmupSeconds = $warmup.TotalSeconds
    }

    if ($BoundParameters.ContainsKey('ThreadCount') -and $BoundParameters.ContainsKey('TargetRateIops')) {
        throw (New-ModuleErrorRecord -ErrorId 'ConflictingLoadSettings' -Message 'ThreadCount and TargetRateIops cannot be used together: a fixed thread count drives a closed loop, a target rate an open loop. Give one of them.' -Category InvalidArgument -TargetObject $null)
    }
    if ($BoundParameters.ContainsKey('ThreadCount')) {
        $settings.ThreadCount = [int](ConvertTo-CheckedNumber -Name 'ThreadCount' -Value $BoundParameters['ThreadCount'] -Minimum 1 -Maximum 1024 -Integer -ErrorId 'InvalidThreadCount')
    }
    if ($BoundParameters.ContainsKey('TargetRateIops')) {
        $settings.TargetRateIops = ConvertTo-CheckedNumber -Name 'TargetRateIops' -Value $BoundParameters['TargetRateIops'] -Minimum 0 -ExclusiveMinimum -Maximum 10000000 -ErrorId 'InvalidTargetRate'
    }

    $restoreGiven = $BoundParameters.ContainsKey('RestoreFromPath') -and -not [string]::IsNullOrWhiteSpace([string]$BoundParameters['RestoreFromPath'])
    if ($DatabaseSource -eq 'Restore') {
        if (-not $restoreGiven) {
            throw (New-ModuleErrorRecord -ErrorId 'RestorePathRequired' -Message 'DatabaseSource Restore needs -RestoreFromPath: the folder holding the backup set to restore.' -Category InvalidArgument -TargetObject $null)
        }
        $restorePath = Resolve-UserPath -Path ([string]$BoundParameters['RestoreFromPath'])
        if (-not [System.IO.Directory]::Exists($restorePath)) {
            throw (New-ModuleErrorRecord -ErrorId 'RestorePathNotFound' -Message "The restore folder '$restorePath' does not exist." -Category ObjectNotFound -TargetObject $restorePath)
        }
        $settings.RestoreFromPath = $restorePath
    }
    elseif ($restoreGiven) {
        throw (New-ModuleErrorRecord -ErrorId 'RestorePathWithoutRestore' -Message "RestoreFromPath is only used with -DatabaseSource Restore (DatabaseSource is '$DatabaseSource')." -Category InvalidArgument -TargetObject $BoundParameters['RestoreFromPath'])
    }

    if ($BoundParameters.ContainsKey('OutputPath') -and -not [string]::IsNullOrWhiteSpace([string]$BoundParameters['OutputPath'])) {
        $outputPath = Resolve-UserPath -Path ([string]$BoundParameters['OutputPath'])
        $existing = $outputPath
        if (-not [System.IO.Directory]::Exists($existing)) {
            $existing = [System.IO.Path]::GetDirectoryName($outputPath)
        }
        if ([string]::IsNullOrEmpty($existing) -or -not [System.IO.Directory]::Exists($existing)) {
            throw (New-ModuleErrorRecord -ErrorId 'OutputPathNotFound' -Message "The output folder '$outputPath' does not exist, and neither does its parent folder." -Category ObjectNotFound -TargetObject $outputPath)
        }
        Assert-StorageTestPath -Path $existing -Purpose 'output'
        $settings.OutputPath = $outputPath
    }
    $settings
}
