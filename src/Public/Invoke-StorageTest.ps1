function Invoke-StorageTest {
    <#
    .SYNOPSIS
    Runs a Jetstress-style storage test (Performance, Stress, DatabaseBackup, SoftRecovery or Throughput) for a mailbox profile.

    .DESCRIPTION
    Takes a mailbox profile from the pipeline (New-MailboxProfile) or from a file saved with
    New-MailboxProfile -SaveTo, validates it and the run settings, asks the engine for a plan
    (every file and its size, the target load; the engine refuses here when space is short),
    confirms through ShouldProcess and then runs the engine out of process.

    While it runs, a progress bar shows the phase, percent complete, time remaining, and live
    IOPS and latencies. Engine log lines go to the verbose, information and warning streams.
    The output is one ExchStorageTest.TestResult: test id, type, Pass or Fail with every reason,
    target and achieved IOPS, database read/write and log write latency (average and p99), and
    the paths of the results JSON and the report files.

    Ctrl+C stops the engine cleanly: it writes a partial result, whose path the command shows
    (render it with Get-TestReport -Path). -AsJob runs the test in a background job.

    Database objects from Get-MailboxDatabase can be piped in to test the folders of existing
    databases: EdbFilePath binds to -DatabasePath and LogFolderPath to -LogPath; the profile's
    paths and database count are then replaced by the piped databases.

    Nothing is written before validation passes. Unattended runs (scheduled tasks, DSC, CI)
    should pass -Confirm:$false or -Force.

    .PARAMETER MailboxProfile
    The mailbox profile to test (from New-MailboxProfile, a saved file loaded with
    ConvertFrom-Json, a job or a remote session). Binds from the pipeline. Alias: Profile.

    .PARAMETER ProfilePath
    Path of a profile saved with New-MailboxProfile -SaveTo (UTF-8 JSON).

    .PARAMETER TestType
    Performance (default; strict thresholds), Stress (lenient maxima, then a checksum pass),
    DatabaseBackup (sequential backup reads), SoftRecovery (log generation and replay) or
    Throughput (find the highest load that still passes).

    .PARAMETER Duration
    Length of the measured window, for example 00:30:00 or (New-TimeSpan -Hours 2). Greater
    than zero and at most 30 days. Omitted: the engine's default for the test type (2 hours for
    Performance, 24 hours for Stress).

    .PARAMETER OutputPath
    Folder for the results JSON and report files. It must exist or its parent must exist.
    Omitted: the engine's default location.

    .PARAMETER DatabaseSource
    Where the databases come from: Create (default; new files, reusing a compatible set the tool
    created earlier), Attach (use an existing set) or Restore (copy a backup set from
    -RestoreFromPath, then attach).

    .PARAMETER RestoreFromPath
    Folder holding the backup set to restore; required with -DatabaseSource Restore.

    .PARAMETER DatabasePath
    Database folders that replace the profile's: one per database. Binds by property name from
    Get-MailboxDatabase (EdbFilePath; the .edb file's folder is used). Alias: EdbFilePath.

    .PARAMETER LogPath
    Log folders that replace the profile's. Binds by property name from Get-MailboxDatabase
    (LogFolderPath). Alias: LogFolderPath.

    .PARAMETER ThreadCount
    Fixed number of sessions (threads), 1 to 1024, overriding the profile (closed loop, as
    Jetstress). Cannot be combined with -TargetRateIops.

    .PARAMETER TargetRateIops
    Open-loop pacing: drive transactional I/O at this rate (IOPS) with latency measured from
    each I/O's intended start. Cannot be combined with -ThreadCount.

    .PARAMETER Thresholds
    Threshold overrides as a hashtable or object with any of averageDatabaseReadLatencyMs,
    maximumDatabaseReadLatencyMs, averageLogWriteLatencyMs, maximumLogWriteLatencyMs,
    maximumPageFaultStallsPerSecond (and optionally name). Other limits keep the test type's
    defaults.

    .PARAMETER ContinueOnError
    Keep running after I/O errors; every error is counted and reported, and the verdict fails.

    .PARAMETER SampleIntervalSeconds
    Counter sampling interval in seconds (1 to 3600, default 15, as Jetstress).

    .PARAMETER Warmup
    Cache warm-up before the measured window. Omitted: until the database cache model is
    nearly full (bounded by the engine).

    .PARAMETER LogFilesToReplay
    SoftRecovery only: log files (1 MiB each) to generate and replay per database (default 500).

    .PARAMETER CapacityPercent
    Throughput only: share of the free capacity the databases may take (1 to 95, default 20).

    .PARAMETER AllowBufferedIo
    Allow buffered I/O where direct (unbuffered) I/O is impossible. Results then say so; latencies
    measured through a cache do not describe the disks.

    .PARAMETER AsJob
    Runs the test in a background job (Start-Job) and returns the job. Receive-Job returns the
    TestResult. Validation, the plan and confirmation happen before the job starts.

    .PARAMETER Force
    Runs without asking for confirmation (also for unattended use), unless -Confirm is given.

    .PARAMETER WhatIf
    Lists every file the test would create or reuse, with sizes, and the load; runs nothing.

    .PARAMETER Confirm
    Asks for confirmation before the test starts.

    .EXAMPLE
    New-MailboxProfile -MailboxCount 100 -IopsPerMailbox 0.5 -MailboxSizeMB 50 -DatabaseCount 2 -Path D:\ExchStorageTest | Invoke-StorageTest -Duration 00:00:30

    Runs a 30-second performance test of a small profile and returns the TestResult.

    .EXAMPLE
    Invoke-StorageTest -ProfilePath .\dag1.profile.json -TestType Stress -Duration 1.00:00:00 -OutputPath E:\Results -Force

    Runs a 24-hour stress test of a saved profile without prompting.

    .EXAMPLE
    Get-MailboxDatabase -Server EX01 | Invoke-StorageTest -MailboxProfile $profile -WhatIf

    Lists the files a test on the folders of EX01's databases would create, and the load.

    .EXAMPLE
    $job = $profile | Invoke-StorageTest -Duration 02:00:00 -AsJob -Force; $job | Wait-Job | Receive-Job

    Runs a long test in the background and collects its result.

    .EXAMPLE
    $profile | Invoke-StorageTest -Duration 00:10:00 -Thresholds @{ averageDatabaseReadLatencyMs = 15 } | Get-TestReport -Format Html

    Runs with a stricter average read latency limit and renders an HTML report.

    .INPUTS
    ExchStorageTest.MailboxProfile, or objects with EdbFilePath and LogFolderPath (Get-MailboxDatabase).

    .OUTPUTS
    ExchStorageTest.TestResult

    .OUTPUTS
    System.Management.Automation.Job (with -AsJob)

    .LINK
    New-MailboxProfile

    .LINK
    Get-TestReport

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(DefaultParameterSetName = 'Profile', SupportsShouldProcess = $true, ConfirmImpact = 'Medium')]
    [OutputType('ExchStorageTest.TestResult')]
    [OutputType([System.Management.Automation.Job])]
    param(
        [Parameter(Mandatory = $true, ParameterSetName = 'Profile', ValueFromPipeline = $true)]
        [Alias('Profile')]
        [psobject] $MailboxProfile,

        [Parameter(Mandatory = $true, ParameterSetName = 'ProfilePath')]
        [string] $ProfilePath,

        [ValidateSet('Performance', 'Stress', 'DatabaseBackup', 'SoftRecovery', 'Throughput')]
        [string] $TestType = 'Performance',

        [timespan] $Duration,

        [string] $OutputPath,

        [ValidateSet('Create', 'Attach', 'Restore')]
        [string] $DatabaseSource = 'Create',

        [string] $RestoreFromPath,

        [Parameter(ValueFromPipelineByPropertyName = $true)]
        [Alias('EdbFilePath')]
        [object[]] $DatabasePath,

        [Parameter(ValueFromPipelineByPropertyName = $true)]
        [Alias('LogFolderPath')]
        [object[]] $LogPath,

        [int] $ThreadCount,

        [double] $TargetRateIops,

        [object] $Thresholds,

        [switch] $ContinueOnError,

        [double] $SampleIntervalSeconds = 15,

        [timespan] $Warmup,

        [int] $LogFilesToReplay = 500,

        [double] $CapacityPercent = 20,

        [switch] $AllowBufferedIo,

        [switch] $AsJob,

        [switch] $Force
    )

    begin {
        $profiles = New-Object -TypeName System.Collections.Generic.List[object]
        $databasePaths = New-Object -TypeName System.Collections.Generic.List[string]
        $logPaths = New-Object -TypeName System.Collections.Generic.List[string]
        if ($Force -and -not $PSBoundParameters.ContainsKey('Confirm')) {
            $ConfirmPreference = 'None'
        }
    }

    process {
        try {
            # A profile given as an argument is the same object on every pipeline input (the
            # databases of Get-MailboxDatabase); keep it once.
            if ($PSCmdlet.ParameterSetName -eq 'Profile' -and $null -ne $MailboxProfile) {
                $last = $null
                if ($profiles.Count -gt 0) {
                    $last = $profiles[$profiles.Count - 1]
                }
                if (-not [object]::ReferenceEquals($last, $MailboxProfile)) {
                    $profiles.Add($MailboxProfile)
                }
            }
            foreach ($item in @(ConvertTo-PathString -InputObject $DatabasePath)) {
                $databasePaths.Add((ConvertTo-DatabaseFolder -Path (Resolve-UserPath -Path $item)))
            }
            foreach ($item in @(ConvertTo-PathString -InputObject $LogPath)) {
                $logPaths.Add((Resolve-UserPath -Path $item))
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }

    end {
        try {
            if ($PSCmdlet.ParameterSetName -eq 'ProfilePath') {
                $profiles.Add((Read-MailboxProfileFile -Path (Resolve-UserPath -Path $ProfilePath)))
            }

            $settings = Assert-StorageTestSettings -BoundParameters $PSBoundParameters -TestType $TestType -DatabaseSource $DatabaseSource -SampleIntervalSeconds $SampleIntervalSeconds -LogFilesToReplay $LogFilesToReplay -CapacityPercent $CapacityPercent

            foreach ($candidate in $profiles) {
                $checked = ConvertTo-StorageTestProfile -InputObject $candidate -DatabasePath $databasePaths.ToArray() -LogPath $logPaths.ToArray()
                foreach ($folder in @($checked.DatabasePaths)) {
                    Assert-StorageTestPath -Path $folder -Purpose 'database'
                }
                foreach ($folder in @($checked.LogPaths)) {
                    Assert-StorageTestPath -Path $folder -Purpose 'log'
                }

                $request = New-StorageTestRequest -Command 'plan' -MailboxProfile $checked -Settings $settings
                $plan = @(Invoke-EngineProcess -Request $request -Activity "Planning storage test '$($checked.Name)'" | Where-Object { [string](Get-EventValue -InputObject $_ -Name 'type') -eq 'plan' }) | Select-Object -First 1
                $description = Format-TestPlan -Plan $plan -MailboxProfile $checked -TestType $TestType -Duration $settings.Duration
                $warning = "Run a $TestType storage test with profile '$($checked.Name)'? It creates the files listed and loads the disks."
                if (-not $PSCmdlet.ShouldProcess($description, $warning, 'Invoke-StorageTest')) {
                    continue
                }

                if ($AsJob) {
                    Start-StorageTestJob -MailboxProfile $checked -BoundParameters $PSBoundParameters -Settings $settings
                    continue
                }

                $request = New-StorageTestRequest -Command 'run' -MailboxProfile $checked -Settings $settings
                $activity = "$TestType storage test '$($checked.Name)' ($($request.testId))"
                foreach ($engineEvent in @(Invoke-EngineProcess -Request $request -Activity $activity)) {
                    if ([string](Get-EventValue -InputObject $engineEvent -Name 'type') -eq 'result') {
                        ConvertTo-TestResult -EngineEvent $engineEvent -ProfileName $checked.Name
                    }
                    else {
                        Write-Verbose -Message ("Ignored engine event '{0}'." -f (Get-EventValue -InputObject $engineEvent -Name 'type'))
                    }
                }
            }
        }
        catch {
            $PSCmdlet.ThrowTerminatingError($_)
        }
    }
}
