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

    Several hosts at once (ESRP solutions tested against shared storage): -ComputerName or
    -Session runs the same profile on every host over PowerShell remoting (WinRM, or SSH with
    -UseSSH or sessions from New-PSSession -HostName). Each host is checked first (module and
    engine, copied over with Copy-Item -ToSession when missing; clock skew against this computer,
    corrected for the round trip; free space; the engine's plan on the host). After one
    confirmation all hosts prepare their databases and start measuring at one agreed UTC
    instant (now + the longest preparation estimate, at least 60 s, or -StartAtUtc), each on its
    own clock corrected by its skew. One progress bar per host shows the live figures. Each
    host's results JSON is copied back to -OutputPath\<host>\, and the output is one TestResult
    per host (with ComputerName) followed by one ExchStorageTest.AggregateResult: the merge of
    all results by the engine (rates summed, latency histograms merged). A host that fails is
    reported as a non-terminating error ExchStorageTest.HostFailed whose TargetObject is the
    host name; the other hosts' results are kept. Database and log paths may contain {host},
    replaced by each host's name. Sessions the command opened are removed at the end.

    Hosts that cannot be remoted into use -StartFile instead: every host runs the command
    itself with the same start file on a share. The first host to arrive creates the file with a
    start instant (or New-StorageTestRun creates it beforehand; -StartFileTimeout then waits for
    it), every host's engine waits for that instant, and each host copies its results JSON to
    <share>\results\<host>.json, which Get-TestReport -Path <share>\results merges afterwards.

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

    .PARAMETER NoCpuAffinity
    Leaves the I/O worker threads to the operating system's scheduler. By default each worker is
    pinned to one processor, round-robin (as DiskSpd does), so thread migrations do not add to the
    latencies measured; the report lists the processors used.

    .PARAMETER ComputerName
    Runs the test on these hosts at once over PowerShell remoting (WinRM by default, SSH with
    -UseSSH), synchronised on one start instant. Returns a TestResult per host and an
    AggregateResult. Use the profile's paths as they are on the hosts.

    .PARAMETER Credential
    The account for the WinRM sessions opened for -ComputerName. Omitted: the current user.

    .PARAMETER UseSSH
    Opens the -ComputerName sessions over SSH (New-PSSession -HostName; PowerShell 7 on both
    sides, key-based authentication).

    .PARAMETER Session
    Existing remoting sessions (New-PSSession, WinRM or SSH) to run the multi-host test on. They
    are left open.

    .PARAMETER StartAtUtc
    Multi-host and start-file runs: the UTC instant at which every host starts measuring
    (after preparing its databases). Omitted: now + the longest preparation estimate, at least
    60 seconds. With -StartFile it is used only when this host creates the start file.

    .PARAMETER StartFile
    A start file on a share (from New-StorageTestRun, or created by the first host to arrive):
    this host waits for the start instant it holds and copies its results JSON to the results
    folder next to it. For hosts that cannot be remoted into.

    .PARAMETER StartFileTimeout
    With -StartFile: wait up to this long for the start file to appear instead of creating it
    (for runs whose start file New-StorageTestRun writes later).

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

    .EXAMPLE
    Invoke-StorageTest -ComputerName EX01, EX02, EX03 -ProfilePath .\esrp.profile.json -Duration 02:00:00 -OutputPath D:\Esrp\Run1 -Force

    Runs the profile on three servers against shared storage, synchronised on one start instant,
    and returns a TestResult per server and the aggregate (rates summed, histograms merged).

    .EXAMPLE
    $sessions = New-PSSession -HostName lnx1, lnx2; Invoke-StorageTest -Session $sessions -ProfilePath ./lab.json -Duration 00:10:00 -OutputPath ./run -Force -ErrorVariable failed

    Runs over SSH sessions opened beforehand; hosts that failed are in $failed (ErrorId
    ExchStorageTest.HostFailed, TargetObject = host name).

    .EXAMPLE
    Invoke-StorageTest -StartFile \\fs\esrp\run1\start.json -ProfilePath \\fs\esrp\esrp.profile.json -Duration 02:00:00 -Force

    Run on every server that cannot be remoted into; all start together, and Get-TestReport
    -Path \\fs\esrp\run1\results merges their results afterwards.

    .INPUTS
    ExchStorageTest.MailboxProfile, or objects with EdbFilePath and LogFolderPath (Get-MailboxDatabase).

    .OUTPUTS
    ExchStorageTest.TestResult

    .OUTPUTS
    System.Management.Automation.Job (with -AsJob)

    .OUTPUTS
    ExchStorageTest.AggregateResult (with -ComputerName or -Session, after the per-host results)

    .LINK
    New-MailboxProfile

    .LINK
    Get-TestReport

    .LINK
    New-StorageTestRun

    .LINK
    about_ExchStorageTest
    #>
    [CmdletBinding(DefaultParameterSetName = 'Profile', SupportsShouldProcess = $true, ConfirmImpact = 'Medium')]
    [OutputType('ExchStorageTest.TestResult')]
    [OutputType([System.Management.Automation.Job])]
    [OutputType('ExchStorageTest.AggregateResult')]
    param(
        [Parameter(Mandatory = $true, ParameterSetName = 'Profile', ValueFromPipeline = $true)]
        [Parameter(ParameterSetName = 'ComputerName', ValueFromPipeline = $true)]
        [Parameter(ParameterSetName = 'Session', ValueFromPipeline = $true)]
        [Parameter(ParameterSetName = 'StartFile', ValueFromPipeline = $true)]
        [Alias('Profile')]
        [psobject] $MailboxProfile,

        [Parameter(Mandatory = $true, ParameterSetName = 'ProfilePath')]
        [Parameter(ParameterSetName = 'ComputerName')]
        [Parameter(ParameterSetName = 'Session')]
        [Parameter(ParameterSetName = 'StartFile')]
        [string] $ProfilePath,

        [Parameter(Mandatory = $true, ParameterSetName = 'ComputerName')]
        [ValidateNotNullOrEmpty()]
        [string[]] $ComputerName,

        [Parameter(ParameterSetName = 'ComputerName')]
        [System.Management.Automation.PSCredential] $Credential,

        [Parameter(ParameterSetName = 'ComputerName')]
        [switch] $UseSSH,

        [Parameter(Mandatory = $true, ParameterSetName = 'Session')]
        [ValidateNotNullOrEmpty()]
        [System.Management.Automation.Runspaces.PSSession[]] $Session,

        [Parameter(ParameterSetName = 'ComputerName')]
        [Parameter(ParameterSetName = 'Session')]
        [Parameter(ParameterSetName = 'StartFile')]
        [datetime] $StartAtUtc,

        [Parameter(Mandatory = $true, ParameterSetName = 'StartFile')]
        [ValidateNotNullOrEmpty()]
        [string] $StartFile,

        [Parameter(ParameterSetName = 'StartFile')]
        [timespan] $StartFileTimeout,

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

        [switch] $NoCpuAffinity,

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
            if ($null -ne $MailboxProfile) {
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
        $hostStates = @()
        try {
            $multiHost = $PSCmdlet.ParameterSetName -eq 'ComputerName' -or $PSCmdlet.ParameterSetName -eq 'Session'
            $startFileMode = $PSCmdlet.ParameterSetName -eq 'StartFile'
            if ($PSBoundParameters.ContainsKey('ProfilePath')) {
                if ($profiles.Count -gt 0) {
                    throw (New-ModuleErrorRecord -ErrorId 'ConflictingProfileSettings' -Message 'Give the profile once: either -MailboxProfile (or the pipeline) or -ProfilePath, not both.' -Category InvalidArgument -TargetObject $ProfilePath)
                }
                $profiles.Add((Read-MailboxProfileFile -Path (Resolve-UserPath -Path $ProfilePath)))
            }
            if ($profiles.Count -eq 0) {
                throw (New-ModuleErrorRecord -ErrorId 'ProfileRequired' -Message 'No mailbox profile was given: pipe one from New-MailboxProfile, or give -MailboxProfile or -ProfilePath.' -Category InvalidArgument -TargetObject $null)
            }
            if (($multiHost -or $startFileMode) -and $AsJob) {
                throw (New-ModuleErrorRecord -ErrorId 'AsJobNotSupported' -Message '-AsJob runs one local test in the background; multi-host and start-file runs already manage their own jobs and waiting. Start them in a job of your own with Start-Job if needed.' -Category InvalidArgument -TargetObject $null)
            }

            $settings = Assert-StorageTestSettings -BoundParameters $PSBoundParameters -TestType $TestType -DatabaseSource $DatabaseSource -SampleIntervalSeconds $SampleIntervalSeconds -LogFilesToReplay $LogFilesToReplay -CapacityPercent $CapacityPercent

            if ($multiHost) {
                $hostStates = @(New-StorageTestHostState -ComputerName @($ComputerName | Where-Object { $null -ne $_ }) -Session @($Session | Where-Object { $null -ne $_ }) -Credential $Credential -UseSSH:$UseSSH -Cmdlet $PSCmdlet)
            }

            foreach ($candidate in $profiles) {
                $checked = ConvertTo-StorageTestProfile -InputObject $candidate -DatabasePath $databasePaths.ToArray() -LogPath $logPaths.ToArray()

                if ($multiHost) {
                    # The paths are the hosts' paths: they are checked there, not here.
                    $runId = '{0}-{1}' -f [DateTime]::UtcNow.ToString('yyyyMMdd-HHmmss', [System.Globalization.CultureInfo]::InvariantCulture), [guid]::NewGuid().ToString('N').Substring(0, 8)
                    $collectPath = $settings.OutputPath
                    if ([string]::IsNullOrWhiteSpace($collectPath)) {
                        $collectPath = Resolve-UserPath -Path ('ExchStorageTest-{0}' -f $runId)
                    }
                    $startParameter = $null
                    if ($PSBoundParameters.ContainsKey('StartAtUtc')) {
                        $startParameter = $StartAtUtc
                    }
                    # A second profile reuses the sessions; each run starts with clean per-run state.
                    foreach ($item in $hostStates) {
                        $item.Job = $null
                        $item.Done = $false
                        $item.ResultEvent = $null
                        $item.Result = $null
                        $item.Errors.Clear()
                    }
                    Invoke-MultiHostStorageTest -HostState $hostStates -MailboxProfile $checked -Settings $settings -OutputPath $collectPath -RunId $runId -StartAtUtc $startParameter -Cmdlet $PSCmdlet
                    continue
                }

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
                if ($startFileMode) {
                    $description = "$description$([System.Environment]::NewLine)Start instant: from the start file '$StartFile'."
                }
                if (-not $PSCmdlet.ShouldProcess($description, $warning, 'Invoke-StorageTest')) {
                    continue
                }

                if ($AsJob) {
                    Start-StorageTestJob -MailboxProfile $checked -BoundParameters $PSBoundParameters -Settings $settings
                    continue
                }

                $startAt = $null
                $runFolder = $null
                if ($startFileMode) {
                    $startPath = Resolve-UserPath -Path $StartFile
                    $runFolder = [System.IO.Path]::GetDirectoryName($startPath)
                    if ([string]::IsNullOrEmpty($runFolder) -or -not [System.IO.Directory]::Exists($runFolder)) {
                        throw (New-ModuleErrorRecord -ErrorId 'StartFileFolderNotFound' -Message "The folder of the start file '$startPath' does not exist (or the share cannot be reached)." -Category ObjectNotFound -TargetObject $startPath)
                    }
                    if (-not $PSBoundParameters.ContainsKey('StartFileTimeout') -and -not [System.IO.File]::Exists($startPath)) {
                        # First host to arrive: propose an instant; CreateNew lets exactly one host win.
                        $proposed = $null
                        if ($PSBoundParameters.ContainsKey('StartAtUtc')) {
                            $proposed = ConvertTo-UtcDateTime -Value $StartAtUtc
                        }
                        else {
                            $proposed = [DateTime]::UtcNow.AddSeconds([System.Math]::Max(60, (Get-PreparationEstimate -Plan $plan)))
                        }
                        $newRunId = '{0}-{1}' -f $proposed.ToString('yyyyMMdd-HHmmss', [System.Globalization.CultureInfo]::InvariantCulture), [guid]::NewGuid().ToString('N').Substring(0, 8)
                        if (Write-StorageTestStartFile -Path $startPath -StartAtUtc $proposed -RunId $newRunId -HostCount $null) {
                            Write-Verbose -Message "Created the start file '$startPath' (start at $(ConvertTo-IsoUtcString -Value $proposed))."
                        }
                    }
                    $timeout = [timespan]::Zero
                    if ($PSBoundParameters.ContainsKey('StartFileTimeout')) {
                        $timeout = $StartFileTimeout
                    }
                    $start = Read-StorageTestStartFile -Path $startPath -Timeout $timeout
                    if ($start.StartAtUtc -le [DateTime]::UtcNow) {
                        throw (New-ModuleErrorRecord -ErrorId 'StartTimePassed' -Message "The start instant $(ConvertTo-IsoUtcString -Value $start.StartAtUtc) in '$startPath' has passed: this host would start late and measure a different window. Start the run again with a new start file (New-StorageTestRun)." -Category InvalidOperation -TargetObject $startPath)
                    }
                    $startAt = $start.StartAtUtc
                    Write-Verbose -Message "Run $($start.RunId): this host starts measuring at $(ConvertTo-IsoUtcString -Value $startAt) (its own clock; keep the hosts' clocks synchronised with NTP)."
                }

                $request = New-StorageTestRequest -Command 'run' -MailboxProfile $checked -Settings $settings -StartAtUtc $startAt
                $activity = "$TestType storage test '$($checked.Name)' ($($request.testId))"
                foreach ($engineEvent in @(Invoke-EngineProcess -Request $request -Activity $activity)) {
                    if ([string](Get-EventValue -InputObject $engineEvent -Name 'type') -eq 'result') {
                        $result = ConvertTo-TestResult -EngineEvent $engineEvent -ProfileName $checked.Name
                        if ($startFileMode) {
                            $shared = $null
                            if (-not [string]::IsNullOrWhiteSpace([string]$result.ResultsPath)) {
                                $shared = Copy-StorageTestResultToShare -ResultsPath ([string]$result.ResultsPath) -RunFolder $runFolder -TestId ([string]$result.TestId)
                            }
                            Add-Member -InputObject $result -MemberType NoteProperty -Name ComputerName -Value ([System.Environment]::MachineName)
                            Add-Member -InputObject $result -MemberType NoteProperty -Name SharedResultsPath -Value $shared
                            Add-Member -InputObject $result -MemberType NoteProperty -Name StartAtUtc -Value $startAt
                        }
                        $result
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
        finally {
            foreach ($item in $hostStates) {
                if ($item.Opened -and $null -ne $item.Session) {
                    Remove-PSSession -Session $item.Session -ErrorAction SilentlyContinue
                }
            }
        }
    }
}
