using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>Small fixed results documents for derivation and golden tests (deterministic: seeded, fixed times).</summary>
internal static class ReportFixtures
{
    public static readonly DateTime Start = new(2014, 3, 3, 13, 44, 8, DateTimeKind.Utc);

    /// <summary>A stream with only the Jetstress table figures (no histogram), as in the reference reports.</summary>
    public static StreamResult Stream(string name, double rate, double bytes, double latencyMs = 0) => new()
    {
        Stream = name,
        Operation = name.Contains("Write", StringComparison.Ordinal) ? "Write" : "Read",
        OperationsPerSecond = rate,
        AverageBytes = bytes,
        LatencyMs = new LatencySummary { Mean = latencyMs },
    };

    /// <summary>
    /// An instance from the 12 transactional columns plus BDM and replication figures, exactly as a
    /// Jetstress report prints them.
    /// </summary>
    public static InstanceResult Instance(int index, string name,
        double dbReadMs, double dbWriteMs, double dbReads, double dbWrites, double dbReadBytes, double dbWriteBytes,
        double logReadMs, double logWriteMs, double logReads, double logWrites, double logReadBytes, double logWriteBytes,
        double bdmReads, double bdmBytes, double repReads = 0, double repBytes = 0, double repMs = 0)
    {
        var i = new InstanceResult { Index = index, Name = name, DatabasePath = $@"C:\DB\DB{index}\Jetstress00{index}001.edb", LogPath = $@"C:\DB\DB{index}" };
        i.Streams.Add(Stream(StreamNames.DatabaseRead, dbReads, dbReadBytes, dbReadMs));
        i.Streams.Add(Stream(StreamNames.DatabaseWrite, dbWrites, dbWriteBytes, dbWriteMs));
        i.Streams.Add(Stream(StreamNames.LogWrite, logWrites, logWriteBytes, logWriteMs));
        if (logReads > 0) i.Streams.Add(Stream(StreamNames.LogRead, logReads, logReadBytes, logReadMs));
        if (bdmReads > 0) i.Streams.Add(Stream(StreamNames.MaintenanceRead, bdmReads, bdmBytes, 0));
        if (repReads > 0) i.Streams.Add(Stream(StreamNames.LogReplicationRead, repReads, repBytes, repMs));
        return i;
    }

    /// <summary>Server JS13, Performance test (ESRP Dell SC4020 report, tables 9-12).</summary>
    public static TestResults Js13() => Host("JS13", 270,
        Instance(1, "Instance3148.1", 16.694, 2.125, 45.795, 25.798, 33013.296, 37247.702, 0, 1.354, 0, 6.418, 0, 20549.960, 8.806, 261254.035, 0.563, 212134.336, 14.844),
        Instance(2, "Instance3148.2", 17.927, 2.065, 45.933, 25.615, 32995.539, 37201.330, 0, 1.271, 0, 6.364, 0, 20264.550, 8.855, 261254.316, 0.549, 204504.136, 17.143),
        Instance(3, "Instance3148.3", 18.357, 2.083, 45.680, 25.572, 33029.292, 37309.667, 0, 1.298, 0, 6.326, 0, 20698.387, 8.650, 261223.347, 0.556, 210679.713, 17.733),
        Instance(4, "Instance3148.4", 17.671, 2.029, 45.826, 25.760, 33045.730, 37278.053, 0, 1.247, 0, 6.416, 0, 20286.691, 8.547, 261220.836, 0.555, 207773.267, 16.099));

    /// <summary>Server JS14, Performance test (tables 18-21).</summary>
    public static TestResults Js14() => Host("JS14", 270,
        Instance(1, "Instance3172.1", 14.934, 1.984, 41.830, 23.362, 33064.979, 37237.813, 0, 1.390, 0, 5.771, 0, 20771.793, 9.054, 261289.155, 0.511, 195562.372, 14.325),
        Instance(2, "Instance3172.2", 16.518, 1.973, 41.680, 23.062, 33064.013, 37254.729, 0, 1.324, 0, 5.789, 0, 20570.146, 8.735, 261242.725, 0.508, 195146.659, 12.887),
        Instance(3, "Instance3172.3", 16.073, 1.956, 41.745, 23.160, 33038.865, 37119.612, 0, 1.363, 0, 5.758, 0, 20486.741, 8.836, 261261.528, 0.503, 195080.040, 13.747),
        Instance(4, "Instance3172.4", 14.932, 1.961, 41.777, 23.261, 33067.297, 37166.192, 0, 1.273, 0, 5.783, 0, 20648.314, 9.039, 261315.590, 0.510, 194597.180, 13.172));

    public static TestResults Host(string machine, double target, params InstanceResult[] instances)
    {
        var r = new TestResults
        {
            TestType = TestType.Performance,
            // The hosts of one ESRP run (JS13, JS14 ... of the Dell report): one run id, so they merge as one deployment.
            RunId = "esrp-sc4020",
            EngineVersion = "0.1.0",
            // As the Dell report states it: 0.10 IOPS per mailbox planned, 20% headroom, 0.12 tested.
            Profile = new MailboxProfile { MailboxCount = 2250, IopsPerMailbox = 0.10, HeadroomPercent = 20, MailboxSizeMB = 1024, DatabaseCount = 4, CopiesPerDatabase = 2 },
            Environment = new EnvironmentInfo { MachineName = machine, OperatingSystem = "Windows Server 2008 R2 Enterprise Service Pack 1 (6.1.7601.65536)" },
            Timeline = new Timeline { TestStartUtc = Start, TestEndUtc = Start.AddHours(2) },
            Sizing = new DatabaseSizing { TargetTransactionalIops = target, InitialDatabaseSizeBytes = 1882022215680, FinalDatabaseSizeBytes = 1882886242304, DatabaseFileCount = 4 },
        };
        r.Instances.AddRange(instances);
        r.Sizing.AchievedTransactionalIops = TransactionalIops.Achieved(r.Instances);
        r.Verdict.Result = "Pass";
        return r;
    }

    public static TestResults Backup(string machine, params (string Name, double SizeMB, double Seconds, double MBps)[] rows)
    {
        var r = Host(machine, 0);
        r.TestType = TestType.DatabaseBackup;
        r.Backup = BackupOf(rows.Select(x => new BackupInstance { Instance = x.Name, DatabaseSizeMB = x.SizeMB, ElapsedSeconds = x.Seconds, MBPerSecond = x.MBps }));
        return r;
    }

    public static TestResults SoftRecovery(string machine, params (string Name, int Logs, double Seconds)[] rows)
    {
        var r = Host(machine, 0);
        r.TestType = TestType.SoftRecovery;
        r.SoftRecovery = new SoftRecoveryResult
        {
            Instances = rows.Select(x => new RecoveryInstance { Instance = x.Name, LogsReplayed = x.Logs, ElapsedSeconds = x.Seconds }).ToList(),
        };
        return r;
    }

    /// <summary>
    /// A small, complete Performance result with histograms, a time series, host counters, a test
    /// log, tuning steps, an error and volume findings: the input of the golden tests.
    /// </summary>
    public static TestResults Small(TestType type = TestType.Performance, bool directIo = true)
    {
        var rng = new Random(20140303);
        var r = new TestResults
        {
            TestId = "golden-0001",
            TestType = type,
            EngineVersion = "0.1.0",
            Profile = new MailboxProfile
            {
                Name = "Golden", MailboxCount = 500, IopsPerMailbox = 0.12, MailboxSizeMB = 100, DatabaseCount = 2, CopiesPerDatabase = 2,
                DatabasePaths = new[] { "/mnt/db" }, LogPaths = new[] { "/mnt/log" },
            },
            Settings = new RunSettings { DurationSeconds = 120, WarmupSeconds = 10, SampleIntervalSeconds = 15, ThreadCount = 4, AutoTuned = true, Thresholds = Thresholds.For(type) },
            TuningOutcome = "Succeeded",
            Environment = new EnvironmentInfo
            {
                MachineName = "LAB01", OperatingSystem = "Linux 6.1 (Debian 12)", Runtime = ".NET 8.0", ProcessorCount = 8, MemoryBytes = 16L << 30,
                IoBackend = "io_uring", DirectIo = directIo,
                Volumes =
                {
                    new VolumeReport
                    {
                        Path = "/mnt/db", FileSystem = "xfs", ClusterSizeBytes = 65536, LogicalSectorBytes = 512, PhysicalSectorBytes = 4096,
                        PartitionOffsetBytes = 1 << 20, TotalBytes = 500L << 30, FreeBytes = 400L << 30, MountPoint = "/mnt/db", Device = "/dev/dm-2", Vendor = "ACME", Model = "FlashArray X", FirmwareRevision = "6.1.0", BusType = "Fibre Channel",
                        Multipath = new MultipathReport { Name = "dm-multipath", PathCount = 4, Policy = "round-robin", PathStates = { "active", "active", "active", "active" } },
                        Findings = { new Finding { Severity = "Warning", Code = "SmallTestFiles", Message = "The test files (1.2 GB) are smaller than 4x the array cache.", Advice = "Use larger databases." } },
                    },
                },
            },
            Timeline = new Timeline
            {
                TestStartUtc = Start, TestEndUtc = Start.AddSeconds(140),
                CollectionStartUtc = Start.AddSeconds(15), CollectionEndUtc = Start.AddSeconds(135),
            },
            Sizing = new DatabaseSizing { TargetTransactionalIops = 60, InitialDatabaseSizeBytes = 1L << 30, FinalDatabaseSizeBytes = (1L << 30) + (24L << 20), DatabaseFileCount = 2 },
        };

        var streams = new (string Name, double Rate, double Bytes, double LatencyMs)[]
        {
            (StreamNames.DatabaseRead, 22.5, 32768, 6.0),
            (StreamNames.DatabaseWrite, 12.25, 36864, 1.5),
            (StreamNames.LogWrite, 3.1, 16384, 0.8),
            (StreamNames.MaintenanceRead, 9.0, 262144, 3.0),
            (StreamNames.LogReplicationRead, 0.5, 200704, 4.0),
        };
        if (type == TestType.DatabaseBackup) streams = new[] { (StreamNames.BackupRead, 300.0, 262144.0, 4.2) };
        if (type == TestType.SoftRecovery) streams = new[] { (StreamNames.DatabaseRead, 200.0, 40960.0, 20.0), (StreamNames.DatabaseWrite, 1.4, 24576.0, 0.9), (StreamNames.LogRead, 1.7, 153600.0, 13.0), (StreamNames.MaintenanceRead, 7.9, 262144.0, 3.0) };

        for (int i = 1; i <= 2; i++)
        {
            var inst = new InstanceResult { Index = i, Name = $"Instance.{i}", DatabasePath = $"/mnt/db/DB{i}/DB{i}.edb", LogPath = $"/mnt/log/DB{i}", DatabaseSizeBytes = 512L << 20, Sessions = 2 };
            foreach (var (name, rate, bytes, latency) in streams)
            {
                var h = new LatencyHistogram();
                double seconds = 120;
                long ops = (long)(rate * seconds * (1 + 0.05 * i));
                for (long k = 0; k < ops; k++)
                {
                    // Log-normal-ish latencies around the stream's mean.
                    double ms = latency * Math.Exp(0.5 * Normal(rng)) * (1 + 0.1 * i);
                    h.Record((long)(ms * 1_000_000));
                }
                var data = HistogramMath.ToData(h);
                inst.Streams.Add(new StreamResult
                {
                    Stream = name, Operation = name.Contains("Write", StringComparison.Ordinal) ? "Write" : "Read",
                    Operations = ops, Bytes = (long)(ops * bytes), DurationSeconds = seconds, OperationsPerSecond = ops / seconds,
                    AverageBytes = bytes, LatencyMs = HistogramMath.Summary(data), Histogram = data,
                    MaxSampleAverageLatencyMs = latency * 1.4 * (1 + 0.1 * i),
                });
            }
            r.Instances.Add(inst);
        }
        for (int s = 0; s <= 8; s++)
        {
            foreach (var inst in r.Instances)
                foreach (var st in inst.Streams)
                    r.TimeSeries.Add(new SamplePoint
                    {
                        TimeUtc = Start.AddSeconds(15 + 15 * s), ElapsedSeconds = 15 * s, Instance = inst.Index, Stream = st.Stream,
                        OperationsPerSecond = Math.Round(st.OperationsPerSecond * (0.9 + 0.2 * rng.NextDouble()), 3),
                        AverageBytes = st.AverageBytes,
                        AverageLatencyMs = Math.Round(st.LatencyMs.Mean * (0.8 + 0.4 * rng.NextDouble()), 3),
                        P99LatencyMs = Math.Round(st.LatencyMs.P99, 3), MaxLatencyMs = Math.Round(st.LatencyMs.Max, 3),
                    });
        }
        for (int s = 0; s <= 8; s++)
            foreach (var inst in r.Instances)
                r.InstanceSeries.Add(new InstanceSample { TimeUtc = Start.AddSeconds(15 + 15 * s), ElapsedSeconds = 15 * s, Instance = inst.Index, PageFaultStallsPerSecond = s == 4 ? 0.25 * inst.Index : 0, DatabaseCacheSizeBytes = 64L << 20 });
        r.Sizing.AchievedTransactionalIops = TransactionalIops.Achieved(r.Instances);
        // The /proc counters a Linux run records (no Free System Page Table Entries: Linux has none).
        r.HostCounters.Add(new HostCounter { Name = "% Processor Time", Source = "/proc", Average = 3.25, Minimum = 0.5, Maximum = 9.75, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = "Available MBytes", Source = "/proc", Average = 12000.5, Minimum = 11990, Maximum = 12010, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = "Transition Pages RePurposed/sec", Source = "/proc", Average = 0, Minimum = 0, Maximum = 0, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = "Pool Nonpaged Bytes", Source = "/proc", Average = 71519033.186, Minimum = 71512064, Maximum = 71565312, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = "Pool Paged Bytes", Source = "/proc", Average = 178341541.678, Minimum = 178323456, Maximum = 178376704, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = "Page Tables Bytes", Source = "/proc", Average = 4981418.667, Minimum = 2617344, Maximum = 6823936, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = @"\LogicalDisk(dm-2)\Avg. Disk sec/Read", Source = "/proc", Average = 0.000412, Minimum = 0.000201, Maximum = 0.0031, Samples = 9 });
        r.HostCounters.Add(new HostCounter { Name = @"\LogicalDisk(dm-2)\Disk Reads/sec", Source = "/proc", Average = 63.5, Minimum = 50.25, Maximum = 71, Samples = 9 });
        r.TestLog.Add(new TestLogLine { TimeUtc = Start, Message = "Preparing for testing ..." });
        r.TestLog.Add(new TestLogLine { TimeUtc = Start.AddSeconds(2), Message = "Operation mix: Sessions 4, Inserts 40%, Deletes 20%, Replaces 5%, Reads 35%, Lazy Commits 70%." });
        r.TestLog.Add(new TestLogLine { TimeUtc = Start.AddSeconds(15), Message = "Performance logging started (interval: 15000 ms)." });
        r.TestLog.Add(new TestLogLine { TimeUtc = Start.AddSeconds(139), Message = "Instance.1 has 6.6 for I/O Database Reads Average Latency." });
        r.TuningLog.Add(new TuningStep { TimeUtc = Start.AddSeconds(3), ThreadCount = 4, TargetRateIops = 60, Phase = "Transient", DatabaseReadLatencyMs = 6.1, Note = "latency slope settled" });
        r.TuningLog.Add(new TuningStep { TimeUtc = Start.AddSeconds(5), ThreadCount = 4, TargetRateIops = 60, Phase = "Stable", AchievedIops = 71.2, DatabaseReadLatencyMs = 6.5, LogWriteLatencyMs = 0.9, Passed = true, Note = "meets target" });
        r.Errors.Add(new IoErrorRecord { TimeUtc = Start.AddSeconds(77), Instance = "Instance.2", Stream = StreamNames.DatabaseRead, File = "/mnt/db/DB2/DB2.edb", Offset = 1 << 20, Length = 32768, ErrorCode = 5, ErrorName = "EIO", Message = "Input/output error" });
        r.Settings.ContinueOnError = true;
        r.Verdict = new VerdictResult
        {
            Result = "Fail",
            Reasons = { new VerdictReason { Code = "IoErrors", Message = "1 I/O error occurred (the run continued on error).", Measured = 1, Limit = 0 } },
        };
        if (type == TestType.DatabaseBackup)
            r.Backup = BackupOf(r.Instances.Select(i => new BackupInstance { Instance = i.Name, DatabaseSizeMB = 512, ElapsedSeconds = 6.5 + i.Index, MBPerSecond = 512 / (6.5 + i.Index) }));
        if (type == TestType.SoftRecovery)
            r.SoftRecovery = new SoftRecoveryResult { Instances = r.Instances.Select(i => new RecoveryInstance { Instance = i.Name, LogsReplayed = 20 + i.Index, ElapsedSeconds = 60.123456 + i.Index }).ToList() };
        return r;
    }

    /// <summary>A backup whose figures are those BackupRun derives: the mean of the databases' rates, and their sum.</summary>
    private static BackupResult BackupOf(IEnumerable<BackupInstance> instances)
    {
        var list = instances.ToList();
        return new BackupResult
        {
            Instances = list,
            AverageMBPerSecond = list.Average(i => i.MBPerSecond),
            TotalMBPerSecond = list.Sum(i => i.MBPerSecond),
        };
    }

    private static double Normal(Random rng) =>
        Math.Sqrt(-2 * Math.Log(1 - rng.NextDouble())) * Math.Cos(2 * Math.PI * rng.NextDouble());
}
