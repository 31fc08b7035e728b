using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// Turns a request into a <see cref="TestPlan"/> or refuses it with a stable error code naming the
/// bad value and the rule — always before anything is written: ranges, folders, space (with a
/// margin), and every existing file the run would touch (ours or refused).
/// </summary>
public static partial class TestPlanner
{
    /// <summary>Circular log generations kept per instance outside soft recovery.</summary>
    public const int CircularLogGenerations = 8;

    /// <summary>Room kept free on every volume beyond the files themselves (file-system metadata, the lock file).</summary>
    public const long FixedMarginBytes = 8L << 20;

    public static TestPlan Plan(EngineRequest request)
    {
        if (request.Protocol != HelperProtocol.Version)
            throw EngineException.InvalidArgument("ProtocolMismatch", $"The request speaks protocol {request.Protocol}; this engine speaks {HelperProtocol.Version}.");
        var p = request.Profile ?? throw EngineException.InvalidArgument("ProfileMissing", "The request has no profile.");
        string testId = CheckTestId(request.TestId);

        Range("MailboxCount", p.MailboxCount, 1, 1_000_000, "MailboxCountOutOfRange");
        if (!(p.IopsPerMailbox > 0) || p.IopsPerMailbox > 100)
            throw Bad("IopsPerMailboxOutOfRange", $"IopsPerMailbox {p.IopsPerMailbox} is out of range: it must be greater than 0 and at most 100.");
        if (!(p.HeadroomPercent >= 0) || p.HeadroomPercent > 1000)
            throw Bad("HeadroomOutOfRange", $"HeadroomPercent {p.HeadroomPercent} is out of range: it must be between 0 and 1000.");
        if (p.MailboxSizeMB < 1 || p.MailboxSizeMB > 1_048_576)
            throw Bad("MailboxSizeOutOfRange", $"MailboxSizeMB {p.MailboxSizeMB} is out of range: it must be between 1 and 1048576.");
        Range("DatabaseCount", p.DatabaseCount, 1, 256, "DatabaseCountOutOfRange");
        Range("CopiesPerDatabase", p.CopiesPerDatabase, 1, 16, "CopiesOutOfRange");
        int? threads = request.ThreadCount ?? p.ThreadCount;
        if (threads is int t && (t < 1 || t > 1024))
            throw Bad("ThreadCountOutOfRange", $"ThreadCount {t} is out of range: it must be between 1 and 1024 (omit it for automatic tuning).");
        if (p.MinimumDatabaseCacheMB < 1 || p.MaximumDatabaseCacheMB < p.MinimumDatabaseCacheMB)
            throw Bad("CacheSizeInvalid", $"Database cache {p.MinimumDatabaseCacheMB} MB .. {p.MaximumDatabaseCacheMB} MB is invalid: the minimum must be at least 1 MB and not above the maximum.");
        if (request.TargetRateIops is double rate && (!(rate > 0) || double.IsInfinity(rate)))
            throw Bad("TargetRateOutOfRange", $"TargetRateIops {rate} is out of range: it must be greater than 0.");
        if (request.TuningSeconds is double tuning && !(tuning >= 4 && tuning <= 3600))
            throw Bad("TuningSecondsOutOfRange", $"TuningSeconds {tuning} is out of range: it must be between 4 and 3600 (omit it for the default, the test duration within 12..180 s).");

        var type = request.TestType;
        double duration = request.DurationSeconds ?? DefaultDuration(type);
        if (!(duration > 0) || duration > 30 * 86400)
            throw Bad("DurationOutOfRange", $"Duration {duration} s is out of range: it must be greater than 0 and at most 30 days.");
        double interval = request.SampleIntervalSeconds;
        if (!(interval >= 1) || interval > 3600)
            throw Bad("SampleIntervalOutOfRange", $"SampleIntervalSeconds {interval} is out of range: it must be between 1 and 3600.");
        if (request.WarmupSeconds is double warmup && (!(warmup >= 0) || warmup > 86400))
            throw Bad("WarmupOutOfRange", $"WarmupSeconds {warmup} is out of range: it must be between 0 and 86400 (omit it for the automatic warm-up).");
        if (request.LogFilesToReplay < 1 || request.LogFilesToReplay > 100_000)
            throw Bad("LogFilesToReplayOutOfRange", $"LogFilesToReplay {request.LogFilesToReplay} is out of range: it must be between 1 and 100000.");
        if (request.StartAtUtc is DateTime at && at.ToUniversalTime() > DateTime.UtcNow.AddDays(7))
            throw Bad("StartTimeOutOfRange", $"StartAtUtc {at.ToUniversalTime():o} is more than 7 days ahead.");
        if (request.DatabaseSource == DatabaseSource.Restore && string.IsNullOrWhiteSpace(request.RestoreFromPath))
            throw Bad("RestorePathMissing", "DatabaseSource Restore needs RestoreFromPath: the folder holding the backup copy.");
        var thresholds = request.Thresholds ?? Thresholds.For(type);
        CheckThresholds(thresholds);

        var dbRoots = p.DatabasePaths.Where(s => !string.IsNullOrWhiteSpace(s)).ToList();
        if (dbRoots.Count == 0) throw Bad("DatabasePathMissing", "The profile names no database path: give one root folder or one folder per database.");
        CheckCount("DatabasePaths", dbRoots.Count, p.DatabaseCount);
        var logRoots = p.LogPaths.Where(s => !string.IsNullOrWhiteSpace(s)).ToList();
        if (logRoots.Count > 0) CheckCount("LogPaths", logRoots.Count, p.DatabaseCount);
        foreach (var folder in dbRoots.Concat(logRoots)) CheckFolder(folder);

        long dbBytes = RoundDown(p.DatabaseSizeBytes, TestPlan.PageSize);
        if (dbBytes < 64L * TestPlan.PageSize && type != TestType.Throughput)
            throw Bad("DatabaseTooSmall", $"Each database would hold {p.DatabaseSizeBytes} bytes (MailboxCount x MailboxSizeMB / DatabaseCount); at least {64 * TestPlan.PageSize} bytes (64 pages) are needed.");
        int logs = type == TestType.SoftRecovery ? request.LogFilesToReplay : CircularLogGenerations;

        var instances = new List<PlannedInstance>();
        for (int i = 1; i <= p.DatabaseCount; i++)
        {
            string dbFolder = dbRoots.Count == 1 ? Path.Combine(Full(dbRoots[0]), $"DB{i}") : Full(dbRoots[i - 1]);
            string logFolder = logRoots.Count == 0 ? Path.Combine(dbFolder, "Logs")
                : logRoots.Count == 1 ? Path.Combine(Full(logRoots[0]), $"DB{i}", "Logs") : Full(logRoots[i - 1]);
            instances.Add(new PlannedInstance
            {
                Index = i,
                DatabaseFolder = dbFolder,
                DatabaseFile = Path.Combine(dbFolder, TestPlan.DatabaseFileName(i)),
                LogFolder = logFolder,
                DatabaseSizeBytes = dbBytes,
                LogGenerations = logs,
            });
        }

        string output = string.IsNullOrWhiteSpace(request.OutputPath) ? Path.Combine(Full(dbRoots[0]), "Results") : Full(request.OutputPath!);
        CheckOutput(output);
        long resultsBytes = ResultsEstimateBytes(duration, interval, p.DatabaseCount);
        if (type == TestType.Throughput)
            instances = ThroughputSizing.Apply(instances, request.CapacityPercent, FixedMarginBytes + resultsBytes);

        var plan = new TestPlan
        {
            Request = request,
            TestId = testId,
            Profile = p,
            TestType = type,
            Instances = instances,
            DurationSeconds = duration,
            SampleIntervalSeconds = interval,
            Thresholds = thresholds,
            OutputPath = output,
            ThreadCount = threads,
            LockFolders = dbRoots.Concat(logRoots).Select(Full).Distinct(StringComparer.Ordinal).ToList(),
        };
        DatabaseSet.CheckBeforeWriting(plan);
        CheckSpace(plan, resultsBytes);
        return plan;
    }

    /// <summary>Jetstress defaults: 2 h Performance, 24 h Stress; backup and recovery run until done.</summary>
    public static double DefaultDuration(TestType type) => type switch
    {
        TestType.Stress => 24 * 3600,
        TestType.Performance or TestType.Throughput => 2 * 3600,
        _ => 24 * 3600, // an upper bound: backup and recovery end when their work is done
    };

    /// <summary>
    /// A test id becomes part of file names, so it is a plain name: letters, digits, '.', '_' and '-',
    /// starting with a letter or digit, at most 64 characters. Absent: a new GUID.
    /// </summary>
    public static string CheckTestId(string? testId)
    {
        if (testId is null) return Guid.NewGuid().ToString("N");
        if (!TestIdPattern().IsMatch(testId))
            throw Bad("TestIdInvalid", $"TestId '{testId}' is not a plain name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it becomes part of file names).");
        return testId;
    }

    [GeneratedRegex("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", RegexOptions.CultureInvariant)]
    private static partial Regex TestIdPattern();

    private static void CheckThresholds(Thresholds t)
    {
        foreach (var (name, value) in new[]
        {
            ("AverageDatabaseReadLatencyMs", t.AverageDatabaseReadLatencyMs), ("MaximumDatabaseReadLatencyMs", t.MaximumDatabaseReadLatencyMs),
            ("AverageLogWriteLatencyMs", t.AverageLogWriteLatencyMs), ("MaximumLogWriteLatencyMs", t.MaximumLogWriteLatencyMs),
            ("MaximumPageFaultStallsPerSecond", t.MaximumPageFaultStallsPerSecond),
        })
        {
            if (!(value > 0) || double.IsInfinity(value))
                throw Bad("ThresholdOutOfRange", $"Threshold {name} {value} is out of range: it must be a finite number greater than 0.");
        }
    }

    /// <summary>
    /// What the results file can grow to (time series of every stream and instance), twice over:
    /// a checkpoint writes the new copy before the old one goes.
    /// </summary>
    internal static long ResultsEstimateBytes(double duration, double interval, int databases)
    {
        double samples = Math.Ceiling(duration / interval) + 1;
        return 2 * ((1L << 20) + (long)(samples * databases * 8 * 400));
    }

    /// <summary>The free space a volume must have beyond <paramref name="need"/>: metadata (1/64) and a fixed reserve.</summary>
    public static long Margin(long need) => need / 64 + FixedMarginBytes;

    private static void CheckSpace(TestPlan plan, long resultsBytes)
    {
        // Files of ours already in place are re-used, so only missing bytes need room.
        var needByVolume = new Dictionary<string, (long Need, VolumeSpace.Info Info, string Folder)>();
        void Add(string folder, long need)
        {
            var info = VolumeSpace.Of(folder);
            needByVolume[info.VolumeId] = needByVolume.TryGetValue(info.VolumeId, out var cur)
                ? (cur.Need + need, info, cur.Folder) : (need, info, folder);
        }
        if (plan.Request.DatabaseSource != DatabaseSource.Attach)
        {
            foreach (var f in plan.Files())
            {
                long existing = File.Exists(f.Path) ? new FileInfo(f.Path).Length : 0;
                Add(ExistingAncestor(Path.GetDirectoryName(f.Path)!), Math.Max(0, f.SizeBytes - existing));
            }
        }
        Add(ExistingAncestor(plan.OutputPath), resultsBytes);
        foreach (var (_, (need, info, folder)) in needByVolume)
        {
            long margin = Margin(need);
            if (need + margin > info.FreeBytes)
                throw EngineException.Refusal("InsufficientSpace", ErrorCategories.ResourceUnavailable,
                    $"The volume under '{folder}' has {info.FreeBytes:N0} bytes free but the planned files and results need {need:N0} bytes plus {margin:N0} bytes kept free for file-system metadata. Lower MailboxCount or MailboxSizeMB, or use a larger volume.", folder);
        }
    }

    private static void CheckFolder(string folder)
    {
        string full = Full(folder);
        if (File.Exists(full))
            throw EngineException.Refusal("PathIsFile", ErrorCategories.InvalidArgument, $"'{folder}' is a file, not a folder: database and log paths must be folders.", folder);
        if (!Directory.Exists(full))
            throw EngineException.Refusal("PathNotFound", ErrorCategories.ObjectNotFound, $"The folder '{folder}' does not exist: create it (or mount the volume) first.", folder);
        if (!VolumeSpace.CanWrite(full))
            throw EngineException.Refusal("PathNotWritable", ErrorCategories.PermissionDenied, $"The folder '{folder}' is not writable (read-only volume or no permission).", folder);
    }

    private static void CheckOutput(string output)
    {
        if (File.Exists(output))
            throw EngineException.Refusal("OutputPathIsFile", ErrorCategories.InvalidArgument, $"OutputPath '{output}' is a file, not a folder.", output);
        string existing = ExistingAncestor(output);
        if (!VolumeSpace.CanWrite(existing))
            throw EngineException.Refusal("OutputPathNotWritable", ErrorCategories.PermissionDenied, $"OutputPath '{output}' cannot be created or written ('{existing}' is not writable).", output);
    }

    internal static string ExistingAncestor(string path)
    {
        string? p = path;
        while (p is not null && !Directory.Exists(p)) p = Path.GetDirectoryName(p);
        return p ?? Path.GetPathRoot(Path.GetFullPath(path))!;
    }

    private static void CheckCount(string name, int count, int databases)
    {
        if (count != 1 && count != databases)
            throw Bad("PathCountMismatch", $"{name} has {count} entries: give one root folder or exactly one folder per database ({databases}).");
    }

    private static void Range(string name, long value, long min, long max, string code)
    {
        if (value < min || value > max)
            throw Bad(code, $"{name} {value} is out of range: it must be between {min} and {max}.");
    }

    private static long RoundDown(long value, long unit) => value / unit * unit;
    private static string Full(string path) => Path.GetFullPath(path);
    private static EngineException Bad(string code, string message) => EngineException.InvalidArgument(code, message);
}
