using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// The results document: the one source of truth for a run (docs/results-schema.md). Every report
/// (text, HTML, XML, CSV, PDH-CSV, ESRP tables) and the verdict are pure functions of it.
/// Units are in the field names.
/// </summary>
public sealed class TestResults
{
    public const string SchemaName = "exchstoragetest/results";
    public const int CurrentSchemaVersion = 1;

    public string Schema { get; set; } = SchemaName;
    public int SchemaVersion { get; set; } = CurrentSchemaVersion;
    public string TestId { get; set; } = "";
    public TestType TestType { get; set; }
    public string EngineVersion { get; set; } = "";
    /// <summary>
    /// Complete = ran to the end; Stopped = Ctrl+C or cancel; Failed = stopped by an error;
    /// Interrupted = a checkpoint of a run that never finished (killed, crashed, host stopped).
    /// </summary>
    public string Completion { get; set; } = "Complete";
    public MailboxProfile Profile { get; set; } = new();
    public RunSettings Settings { get; set; } = new();
    public EnvironmentInfo Environment { get; set; } = new();
    public Timeline Timeline { get; set; } = new();
    public DatabaseSizing Sizing { get; set; } = new();
    public List<InstanceResult> Instances { get; set; } = new();
    public List<SamplePoint> TimeSeries { get; set; } = new();
    /// <summary>Per instance and interval: Database Page Fault Stalls/sec and Database Cache Size.</summary>
    public List<InstanceSample> InstanceSeries { get; set; } = new();
    public List<HostCounter> HostCounters { get; set; } = new();
    public List<IoErrorRecord> Errors { get; set; } = new();
    public List<TuningStep> TuningLog { get; set; } = new();
    /// <summary>NotRun (thread count given), Succeeded, or Failed (a Fail reason).</summary>
    public string TuningOutcome { get; set; } = "NotRun";
    /// <summary>Why the tuning search stopped where it did (also in the test log).</summary>
    public string? TuningStopReason { get; set; }
    public List<TestLogLine> TestLog { get; set; } = new();
    public BackupResult? Backup { get; set; }
    public SoftRecoveryResult? SoftRecovery { get; set; }
    public ChecksumResult? Checksum { get; set; }
    /// <summary>A capacity search's steps and answer (docs/capacity.md); null for every other test type.</summary>
    public CapacityResult? Capacity { get; set; }
    /// <summary>The system-log check for the test window (Reliability: no storage errors while testing).</summary>
    public SystemLogReport? SystemLog { get; set; }
    public EngineStats Engine { get; set; } = new();
    public VerdictResult Verdict { get; set; } = new();

    /// <summary>Where this document was last saved (set by whoever saved or loaded it; not stored in the file).</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? SavedPath { get; set; }

    /// <summary>Why the final save failed (full disk, share gone); null when it succeeded. Not stored in the file.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public string? SaveError { get; set; }
}

/// <summary>The settings the run actually used (after defaults and overrides).</summary>
public sealed class RunSettings
{
    public double DurationSeconds { get; set; }
    /// <summary>The warm-up's bound (the request's, or the default); what the warm-up took is its phase in the timeline.</summary>
    public double WarmupSeconds { get; set; }
    /// <summary>The agreed UTC instant this host started loading (tuning, warm-up); null when the run started at once.</summary>
    public DateTime? StartAtUtc { get; set; }
    /// <summary>The agreed UTC instant every host of the run started measuring; the actual start is timeline.collectionStartUtc.</summary>
    public DateTime? MeasureAtUtc { get; set; }
    public double SampleIntervalSeconds { get; set; } = 15;
    public int ThreadCount { get; set; }
    public bool AutoTuned { get; set; }
    /// <summary>
    /// Closed (sessions, no think time), Paced (tuned sessions that think between transactions so
    /// the transactional load holds <see cref="PacedIops"/>) or Open (arrivals at TargetRateIops).
    /// </summary>
    public string LoadModel { get; set; } = "Closed";
    public double? TargetRateIops { get; set; }
    /// <summary>Paced runs: the transactional IOPS the sessions' think time holds the load to (a ceiling).</summary>
    public double? PacedIops { get; set; }
    public bool ContinueOnError { get; set; }
    public DatabaseSource DatabaseSource { get; set; }
    public Thresholds Thresholds { get; set; } = new();
    public int InsertPercent { get; set; } = 40;
    public int DeletePercent { get; set; } = 20;
    public int ReplacePercent { get; set; } = 5;
    public int ReadPercent { get; set; } = 35;
    public int LazyCommitPercent { get; set; } = 70;
    public string OutputPath { get; set; } = "";
}

public sealed class EnvironmentInfo
{
    public string MachineName { get; set; } = "";
    public string OperatingSystem { get; set; } = "";
    public string Runtime { get; set; } = "";
    public int ProcessorCount { get; set; }
    public long MemoryBytes { get; set; }
    /// <summary>The I/O backend named in every result (io_uring, pread-threads, sync, iocp).</summary>
    public string IoBackend { get; set; } = "";
    /// <summary>The CPU each I/O worker thread was pinned to (-1: the OS refused); empty when pinning was off.</summary>
    public List<int> WorkerCpus { get; set; } = new();
    /// <summary>False only when the user opted in to buffered I/O; every report then says so.</summary>
    public bool DirectIo { get; set; } = true;
    public List<VolumeReport> Volumes { get; set; } = new();
    /// <summary>The ESRP "storage software" table as far as the host can discover it.</summary>
    public StorageSoftwareReport? StorageSoftware { get; set; }
}

/// <summary>ESRP "storage software" rows: multipathing, host OS, HBA (the rest is supplied by the user).</summary>
public sealed class StorageSoftwareReport
{
    public string? Multipathing { get; set; }
    public string? HostOperatingSystem { get; set; }
    public List<string> HostBusAdapters { get; set; } = new();
}

/// <summary>What the engine knows about a volume under a database or log path.</summary>
public sealed class VolumeReport
{
    public string Path { get; set; } = "";
    /// <summary>Where the volume is mounted (Linux mount point, Windows volume root).</summary>
    public string? MountPoint { get; set; }
    public string? FileSystem { get; set; }
    /// <summary>The driver's own name when it differs from the on-disk format (ntfs-3g reports "fuseblk").</summary>
    public string? FileSystemDriver { get; set; }
    public long? ClusterSizeBytes { get; set; }
    public int? LogicalSectorBytes { get; set; }
    public int? PhysicalSectorBytes { get; set; }
    public long? PartitionOffsetBytes { get; set; }
    public long? TotalBytes { get; set; }
    public long? FreeBytes { get; set; }
    public string? Device { get; set; }
    public string? Vendor { get; set; }
    public string? Model { get; set; }
    /// <summary>The firmware revision the device reports (SCSI rev, NVMe firmware_rev, Windows ProductRevision).</summary>
    public string? FirmwareRevision { get; set; }
    /// <summary>How the host reaches the device: "SATA", "SAS", "Fibre Channel", "iSCSI", "NVMe", "virtio", "USB" (Windows: STORAGE_BUS_TYPE names).</summary>
    public string? BusType { get; set; }
    /// <summary>True when unbuffered I/O (O_DIRECT / FILE_FLAG_NO_BUFFERING) works here; null when not probed.</summary>
    public bool? DirectIoSupported { get; set; }
    public MultipathReport? Multipath { get; set; }
    public List<Finding> Findings { get; set; } = new();
}

public sealed class MultipathReport
{
    public string? Name { get; set; }
    /// <summary>"Linux dm-multipath", "Microsoft MPIO (Microsoft DSM)", ...</summary>
    public string? Provider { get; set; }
    public int PathCount { get; set; }
    public string? Policy { get; set; }
    public List<string> PathStates { get; set; } = new();
}

/// <summary>An environment finding (Test-StorageVolume): severity Info | Warning | Error.</summary>
public sealed class Finding
{
    public string Severity { get; set; } = "Info";
    public string Code { get; set; } = "";
    public string Message { get; set; } = "";
    public string? Advice { get; set; }
}

public sealed class Timeline
{
    public DateTime TestStartUtc { get; set; }
    public DateTime TestEndUtc { get; set; }
    public DateTime? CollectionStartUtc { get; set; }
    public DateTime? CollectionEndUtc { get; set; }
    public List<PhaseMark> Phases { get; set; } = new();
}

public sealed class PhaseMark
{
    public string Name { get; set; } = "";
    public DateTime StartUtc { get; set; }
    public DateTime? EndUtc { get; set; }
}

public sealed class DatabaseSizing
{
    public double TargetTransactionalIops { get; set; }
    public double AchievedTransactionalIops { get; set; }
    public long InitialDatabaseSizeBytes { get; set; }
    public long FinalDatabaseSizeBytes { get; set; }
    public int DatabaseFileCount { get; set; }
    public long LogFileSizeBytes { get; set; } = 1 << 20;
    public int PageSizeBytes { get; set; } = 32768;
}

/// <summary>One simulated database: its file, its log stream and its measured streams.</summary>
public sealed class InstanceResult
{
    /// <summary>Jetstress-style name, e.g. "Instance.1".</summary>
    public string Name { get; set; } = "";
    public int Index { get; set; }
    public string DatabasePath { get; set; } = "";
    public string LogPath { get; set; } = "";
    public long DatabaseSizeBytes { get; set; }
    /// <summary>Transactional sessions that ran against this database; 0 when not recorded (no transactional load, or results written before this field).</summary>
    public int Sessions { get; set; }
    public List<StreamResult> Streams { get; set; } = new();
    public double PageFaultStallsPerSecond { get; set; }
    public double MaximumPageFaultStallsPerSecond { get; set; }
    /// <summary>Samples of the measured window with a non-zero stall rate.</summary>
    public int PageFaultStallSamplesAboveZero { get; set; }
    public long DatabaseCacheSizeBytes { get; set; }
    public long MinimumDatabaseCacheBytes { get; set; }
    public long MaximumDatabaseCacheBytes { get; set; }
    /// <summary>Random 64-bit id of this database (from its header); pages carry it.</summary>
    public string InstanceId { get; set; } = "";
    /// <summary>Created by this run (true) or re-used / attached (false).</summary>
    public bool DatabaseCreated { get; set; }
    public long Transactions { get; set; }
    /// <summary>Pages read during the run whose identity or CRC32C was wrong.</summary>
    public long ChecksumErrors { get; set; }
    /// <summary>Maintenance reads that met a page mid-write by the flusher (not errors).</summary>
    public long ChecksumRaces { get; set; }
    public List<string> ChecksumProblems { get; set; } = new();
    public long LogGenerationsWritten { get; set; }

    public StreamResult? Stream(string name) => Streams.Find(s => s.Stream == name);
}

/// <summary>Names of the measured streams (SPEC section 3).</summary>
public static class StreamNames
{
    public const string DatabaseRead = "DatabaseRead";
    public const string DatabaseWrite = "DatabaseWrite";
    public const string LogWrite = "LogWrite";
    public const string LogRead = "LogRead";
    public const string MaintenanceRead = "MaintenanceRead";
    public const string LogReplicationRead = "LogReplicationRead";
    public const string BackupRead = "BackupRead";
}

/// <summary>Counters, latency statistics and the merged histogram of one stream over the measured window.</summary>
public sealed class StreamResult
{
    public string Stream { get; set; } = "";
    public string Operation { get; set; } = "Read";
    public long Operations { get; set; }
    public long Bytes { get; set; }
    public long ErrorCount { get; set; }
    public double DurationSeconds { get; set; }
    public double OperationsPerSecond { get; set; }
    public double AverageBytes { get; set; }
    public LatencySummary LatencyMs { get; set; } = new();
    /// <summary>Open loop only: latency measured from the intended start (no coordinated omission).</summary>
    public LatencySummary? ScheduledLatencyMs { get; set; }
    public long LateIssues { get; set; }
    public double MaxScheduleLagMs { get; set; }
    public double MeanQueueDepth { get; set; }
    /// <summary>Highest per-sample average latency: the Jetstress "maximum" the thresholds judge.</summary>
    public double MaxSampleAverageLatencyMs { get; set; }
    public HistogramData Histogram { get; set; } = new();
    public HistogramData? ScheduledHistogram { get; set; }
}

public sealed class LatencySummary
{
    public double Mean { get; set; }
    public double Min { get; set; }
    public double P50 { get; set; }
    public double P90 { get; set; }
    public double P99 { get; set; }
    public double P999 { get; set; }
    public double Max { get; set; }
}

/// <summary>A latency histogram as stored: non-zero buckets of the engine's log-linear layout.</summary>
public sealed class HistogramData
{
    public string Layout { get; set; } = "log-linear-ns-sub7";
    public long Count { get; set; }
    public long SumNs { get; set; }
    public long MinNs { get; set; }
    public long MaxNs { get; set; }
    /// <summary>[bucketIndex, count] pairs.</summary>
    public List<long[]> Buckets { get; set; } = new();
}

/// <summary>One stream of one instance over one sample interval.</summary>
public sealed class SamplePoint
{
    public DateTime TimeUtc { get; set; }
    public double ElapsedSeconds { get; set; }
    public int Instance { get; set; }
    public string Stream { get; set; } = "";
    public double OperationsPerSecond { get; set; }
    public double AverageBytes { get; set; }
    public double AverageLatencyMs { get; set; }
    public double P99LatencyMs { get; set; }
    public double MaxLatencyMs { get; set; }
}

/// <summary>One instance over one sample interval: the ESE counters that are not per-stream I/O.</summary>
public sealed class InstanceSample
{
    public DateTime TimeUtc { get; set; }
    public double ElapsedSeconds { get; set; }
    public int Instance { get; set; }
    public double PageFaultStallsPerSecond { get; set; }
    public long DatabaseCacheSizeBytes { get; set; }
}

public sealed class HostCounter
{
    /// <summary>Counter path as users know it, e.g. "% Processor Time" or "\LogicalDisk(sdb)\Avg. Disk sec/Read".</summary>
    public string Name { get; set; } = "";
    /// <summary>Where it came from: "PDH" or "/proc" (named as the Linux equivalent).</summary>
    public string Source { get; set; } = "";
    /// <summary>Exactly what was measured: the PDH English path, or the /proc fields and formula of the Linux equivalent.</summary>
    public string? Origin { get; set; }
    public double Average { get; set; }
    public double Minimum { get; set; }
    public double Maximum { get; set; }
    public int Samples { get; set; }
}

public sealed class IoErrorRecord
{
    public DateTime TimeUtc { get; set; }
    public string Instance { get; set; } = "";
    public string Stream { get; set; } = "";
    public string File { get; set; } = "";
    public long Offset { get; set; }
    public int Length { get; set; }
    /// <summary>errno (Linux) or Win32/NTSTATUS (Windows).</summary>
    public int ErrorCode { get; set; }
    public string ErrorName { get; set; } = "";
    public string Message { get; set; } = "";
}

/// <summary>
/// One phase of one automatic tuning step: Transient (until the per-instance database read latency
/// slope settles) or Stable (the figures the step is judged on).
/// </summary>
public sealed class TuningStep
{
    public DateTime TimeUtc { get; set; }
    public int ThreadCount { get; set; }
    public double? TargetRateIops { get; set; }
    public string Phase { get; set; } = "";
    /// <summary>Sample intervals the phase ran.</summary>
    public int Samples { get; set; }
    public double AchievedIops { get; set; }
    public double DatabaseReadLatencyMs { get; set; }
    public double LogWriteLatencyMs { get; set; }
    public double LogReadLatencyMs { get; set; }
    /// <summary>Steepest per-instance database read latency slope (least squares, ms per sample interval).</summary>
    public double ReadLatencySlopeMsPerSample { get; set; }
    /// <summary>Transactional database reads per database write (Stable).</summary>
    public double ReadsPerWrite { get; set; }
    /// <summary>Transactional database transfers per log write (Stable).</summary>
    public double TransfersPerLogWrite { get; set; }
    public List<TuningInstance> Instances { get; set; } = new();
    public bool Passed { get; set; }
    public string Note { get; set; } = "";
}

/// <summary>One instance's figures in a tuning phase (the Jetstress tuning log's per-instance lines).</summary>
public sealed class TuningInstance
{
    public string Instance { get; set; } = "";
    public double DatabaseReadLatencyMs { get; set; }
    public double LogWriteLatencyMs { get; set; }
    public double LogReadLatencyMs { get; set; }
    public double ReadLatencySlopeMsPerSample { get; set; }
}

public sealed class TestLogLine
{
    public DateTime TimeUtc { get; set; }
    public string Message { get; set; } = "";
}

public sealed class BackupResult
{
    public List<BackupInstance> Instances { get; set; } = new();
    public double AverageMBPerSecond { get; set; }
    public double TotalMBPerSecond { get; set; }
}

public sealed class BackupInstance
{
    public string Instance { get; set; } = "";
    public double DatabaseSizeMB { get; set; }
    public double ElapsedSeconds { get; set; }
    public double MBPerSecond { get; set; }
}

public sealed class SoftRecoveryResult
{
    public List<RecoveryInstance> Instances { get; set; } = new();
    public int LogsReplayedTotal { get; set; }
    public double ElapsedSecondsTotal { get; set; }
    public double SecondsPerLog { get; set; }
}

public sealed class RecoveryInstance
{
    public string Instance { get; set; } = "";
    public int LogsReplayed { get; set; }
    public double ElapsedSeconds { get; set; }
    public long PagesReplayed { get; set; }
    public double SecondsPerLog { get; set; }
}

public sealed class ChecksumResult
{
    public long PagesChecked { get; set; }
    public long BadPages { get; set; }
    public int LogsChecked { get; set; }
    public int BadLogs { get; set; }
    public double ElapsedSeconds { get; set; }
    public List<string> Problems { get; set; } = new();
    /// <summary>Per file: pages or log blocks checked and the bad ones.</summary>
    public List<ChecksumFile> Files { get; set; } = new();
}

public sealed class ChecksumFile
{
    public string Path { get; set; } = "";
    /// <summary>Database or Log.</summary>
    public string Kind { get; set; } = "";
    public long Checked { get; set; }
    public long Bad { get; set; }
}

public sealed class EngineStats
{
    public double ProcessCpuSeconds { get; set; }
    public int WorkerCount { get; set; }
    public double CpuMicrosecondsPerIo { get; set; }
    public long TotalOperations { get; set; }
    /// <summary>The I/O backend's optimisations in the last load phase: used by how many workers, and why not.</summary>
    public List<IoFeatureUse> IoFeatures { get; set; } = new();
}

/// <summary>
/// One backend optimisation over a load phase's workers (registeredBuffers, registeredFiles,
/// skipCompletionPortOnSuccess, overlappedRange): <see cref="WorkersUsing"/> of <see cref="Workers"/>
/// used it; <see cref="Reason"/> says why the others did not (the first refusal), null when all did.
/// </summary>
public sealed class IoFeatureUse
{
    public string Name { get; set; } = "";
    public int Workers { get; set; }
    public int WorkersUsing { get; set; }
    public string? Reason { get; set; }

    /// <summary>One line for the test log, e.g. "registeredBuffers: used by 2 of 2 workers".</summary>
    public string Describe() =>
        $"{Name}: used by {WorkersUsing} of {Workers} worker{(Workers == 1 ? "" : "s")}" + (Reason is null ? "" : $" ({Reason})");

    /// <summary>Merges the features the workers' backends reported, feature by feature in first-seen order.</summary>
    public static List<IoFeatureUse> Of(IEnumerable<IReadOnlyList<Io.IoFeature>> workers)
    {
        var uses = new List<IoFeatureUse>();
        foreach (var features in workers)
        {
            foreach (var f in features)
            {
                var use = uses.Find(u => u.Name == f.Name);
                if (use is null) uses.Add(use = new IoFeatureUse { Name = f.Name });
                use.Workers++;
                if (f.Used) use.WorkersUsing++;
                else use.Reason ??= f.Reason;
            }
        }
        return uses;
    }
}

public sealed class VerdictResult
{
    /// <summary>Pass or Fail.</summary>
    public string Result { get; set; } = "Fail";
    public List<VerdictReason> Reasons { get; set; } = new();
}

public sealed class VerdictReason
{
    public string Code { get; set; } = "";
    public string? Instance { get; set; }
    public string Message { get; set; } = "";
    public double? Measured { get; set; }
    public double? Limit { get; set; }
}

/// <summary>System-log entries of the test window; <see cref="Checked"/> false when no log could be read.</summary>
public sealed class SystemLogReport
{
    public bool Checked { get; set; }
    /// <summary>Where the entries came from: "journalctl -k", "/dev/kmsg" or "Windows System/Application".</summary>
    public string Source { get; set; } = "";
    public DateTime FromUtc { get; set; }
    public DateTime ToUtc { get; set; }
    public List<SystemLogEntry> Events { get; set; } = new();
    /// <summary>
    /// The kernel names (and major:minor) of the devices under the test's folders, which storage errors are judged
    /// against; empty when they are not known (Windows), and then every storage error counts.
    /// </summary>
    public List<string> Devices { get; set; } = new();
    /// <summary>Storage errors the verdict counts: on the test's devices, or naming no device (they may be the test's).</summary>
    public int StorageErrorCount => Events.Count(e => e.Judged);
    /// <summary>Storage errors of other devices: listed as information, not judged.</summary>
    public int OtherDeviceStorageErrorCount => Events.Count(e => e.IsStorageError && e.OtherDevice);
}

public sealed class SystemLogEntry
{
    public DateTime TimeUtc { get; set; }
    public string Provider { get; set; } = "";
    public int? EventId { get; set; }
    public string Level { get; set; } = "";
    public string Message { get; set; } = "";
    public bool IsStorageError { get; set; }
    public string? Device { get; set; }
    public string? Reason { get; set; }
    /// <summary>The entry names a device that holds none of the test's folders (an error there is information, not judged).</summary>
    public bool OtherDevice { get; set; }

    /// <summary>A storage error the verdict counts.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Judged => IsStorageError && !OtherDevice;
}
