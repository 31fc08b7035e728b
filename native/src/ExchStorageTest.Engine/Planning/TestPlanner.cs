using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Io;
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

    public static TestPlan Plan(EngineRequest request) => Plan(request, DateTime.UtcNow);

    /// <summary>The testable form: "now" (for the start instant) is given.</summary>
    public static TestPlan Plan(EngineRequest request, DateTime nowUtc)
    {
        var p = request.Profile ?? throw EngineException.Refused(ErrorCodes.ProfileMissing, "The request has no profile.");
        string testId = CheckTestId(request.TestId);
        CheckRunId(request.RunId);
        var type = request.TestType;
        double duration = request.DurationSeconds ?? RunDefaults.DurationSeconds(type);
        // The rules of the contract, in a fixed order: a request that breaks several is refused for the first one.
        Refuse(ProfileRules.Check(p));
        p = ForThisServer(p, Environment.MachineName);
        foreach (var (limit, value) in request.Thresholds?.Limits() ?? Enumerable.Empty<(string, double?)>())
            Refuse(RunRules.Threshold(limit).Check(value));
        // Every ranged setting's value as given (a default keeps its range), in the table's order.
        foreach (var setting in RunSettingTable.All)
            if (setting.Rule is NumberRule rule) Refuse(rule.Check(request.Number(setting)));
        double interval = request.SampleIntervalSeconds ?? RunDefaults.SampleIntervalFor(duration);
        CheckReportedAs(request.ReportedAs, type);
        Refuse(RunRules.CheckCapacitySteps(request.CapacitySteps, type));
        Refuse(RunRules.CheckLoad(request.ThreadCount, request.TargetRateIops));
        Refuse(RunRules.CheckStart(request.StartAtUtc, nowUtc));
        Refuse(RunRules.CheckRestore(request.DatabaseSource, request.RestoreFromPath));
        Refuse(FaultRules.Check(request.FaultAtSeconds, request.FaultLengthSeconds, request.FaultScript, duration, type));
        Refuse(ReseedRules.Check(request.ReseedPath, request.FaultAtSeconds));
        var fault = FaultPlan.For(request);
        if (request.DatabaseSource == DatabaseSource.Restore && !Directory.Exists(request.RestoreFromPath))
            throw EngineException.Refused(ErrorCodes.RestorePathNotFound, $"The restore folder '{request.RestoreFromPath}' does not exist.", request.RestoreFromPath);
        int? threads = request.ThreadCount ?? p.ThreadCount;
        var thresholds = Thresholds.For(type).With(request.Thresholds);

        var dbRoots = p.DatabasePaths.ToList();
        var logRoots = p.LogPaths.ToList();
        var created = CheckFolders(dbRoots.Concat(logRoots), request.AllowBufferedIo, request.JetstressFolders);
        // A folder the run will create is probed where it will be made: the folder above it that exists (a compressed
        // parent compresses what is made in it).
        Inspection.Preflight.Check(dbRoots.Concat(logRoots).Select(f => ExistingAncestor(Full(f))).Distinct(StringComparer.Ordinal), request.AllowUnsupportedPlatform);

        long dbBytes = RoundDown(p.DatabaseSizeBytes, TestPlan.PageSize);
        if (dbBytes < 64L * TestPlan.PageSize && type != TestType.Throughput)
            throw EngineException.Refused(ErrorCodes.DatabaseTooSmall, $"Each database would hold {p.DatabaseSizeBytes} bytes (MailboxCount x MailboxSizeMB / DatabaseCount); at least {64 * TestPlan.PageSize} bytes (64 pages) are needed.");
        int logs = type == TestType.SoftRecovery ? request.LogFilesToReplay : CircularLogGenerations;

        // A folder several databases name is a root for them, as a single root is for all: each database gets DB<n>
        // (its logs DB<n>/Logs) beneath it, so no two databases' logs share a file name (a JetstressConfig.xml whose
        // instances repeat their paths: docs/jetstress.md). A folder named for one database is its own: its files lie
        // directly in it — except the module's single root, which stays a root for one database as for several, so that
        // a set keeps its place when databases are added. Jetstress's paths are always the database's own folder.
        var sharedDatabaseFolders = NamedTwice(dbRoots);
        var sharedLogFolders = NamedTwice(logRoots);
        bool Root(List<string> roots, HashSet<string> shared, int i) => roots.Count == 1
            ? p.DatabaseCount > 1 || !request.JetstressFolders
            : shared.Contains(Full(roots[i - 1]));
        string Named(List<string> roots, int i) => Full(roots[roots.Count == 1 ? 0 : i - 1]);
        var instances = new List<PlannedInstance>();
        for (int i = 1; i <= p.DatabaseCount; i++)
        {
            string dbFolder = Root(dbRoots, sharedDatabaseFolders, i) ? Path.Combine(Named(dbRoots, i), $"DB{i}") : Named(dbRoots, i);
            string logFolder = logRoots.Count == 0 ? Path.Combine(dbFolder, "Logs")
                : Root(logRoots, sharedLogFolders, i) ? Path.Combine(Named(logRoots, i), $"DB{i}", "Logs") : Named(logRoots, i);
            instances.Add(new PlannedInstance
            {
                Index = i,
                DatabaseFolder = dbFolder,
                DatabaseFile = Path.Combine(dbFolder, TestPlan.DatabaseFileName(i)),
                LogFolder = logFolder,
                DatabaseSizeBytes = dbBytes,
                LogGenerations = logs,
                PassiveCopies = PassiveCopies(p, i, dbFolder, dbBytes),
            });
        }

        string output = OutputFolder(string.IsNullOrWhiteSpace(request.OutputPath) ? Path.Combine(Full(dbRoots[0]), "Results") : request.OutputPath)!;
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
            Exchange = PassiveCopyModel.Modelled(p),
            DurationSeconds = duration,
            SampleIntervalSeconds = interval,
            Thresholds = thresholds,
            OutputPath = output,
            ThreadCount = threads,
            Schedule = RunSchedule.For(request, type, duration, interval, threads),
            Fault = fault,
            StallLimitSeconds = request.StallLimitSeconds ?? FaultRules.DefaultStallLimitSeconds,
            CallerSteps = string.Equals(request.CapacitySteps, CapacityStepping.Caller, StringComparison.OrdinalIgnoreCase),
            LockFolders = dbRoots.Concat(logRoots).Select(Full).Distinct(StringComparer.Ordinal).ToList(),
            FoldersToCreate = created,
        };
        if (type == TestType.Capacity) CheckCapacity(plan);
        DatabaseSet.CheckBeforeWriting(plan);
        CheckSpace(plan, resultsBytes);
        ReseedPlan.Check(plan);
        return plan;
    }

    /// <summary>
    /// The profile as this host tests it: its own server's databases when the profile names servers (the calculator's
    /// Servers.csv), refused when this host is none of them (a host must not test another server's mount points).
    /// </summary>
    internal static MailboxProfile ForThisServer(MailboxProfile p, string machineName) =>
        p.ForServer(machineName)
        ?? throw EngineException.Refused(ErrorCodes.ServerLayoutNotFound,
            $"This host ('{machineName}') is none of the profile's servers ({string.Join(", ", p.Servers.Select(s => s.Name))}), which hold different databases: run the test on those servers, " +
            "or rename a server to this host's name in the profile's Servers, or empty Servers to test the profile's own DatabasePaths.", machineName);

    /// <summary>
    /// A capacity search sets each step's rate itself (<see cref="Capacity.CapacitySearch"/>), and its duration is its
    /// time bound, which must hold the warm-up and two steps.
    /// </summary>
    private static void CheckCapacity(TestPlan plan)
    {
        if (plan.Request.TargetRateIops is not null)
            throw EngineException.Refused(ErrorCodes.ConflictingLoadSettings, "TargetRateIops cannot be used with a capacity search: each step's rate is its mailbox count x IopsPerMailbox.");
        double warmup = plan.Schedule.WarmupSeconds;
        if (Capacity.CapacityTiming.For(plan.DurationSeconds, plan.SampleIntervalSeconds, warmup) is null)
        {
            double minimum = Capacity.CapacityTiming.MinimumBound(plan.SampleIntervalSeconds, warmup);
            throw EngineException.Refused(ErrorCodes.CapacityBoundTooShort, System.FormattableString.Invariant(
                $"Duration {plan.DurationSeconds:0.###} s is too short for a capacity search: the warm-up ({warmup:0.###} s) and two steps of settling and at least {Capacity.CapacityTiming.MinimumWindowSamples} sample intervals ({plan.SampleIntervalSeconds:0.###} s each) need {minimum:0.###} s."),
                plan.DurationSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture));
        }
    }

    /// <summary>
    /// Another name for a run's files than its test type is Jetstress's own name for the same test, and only that: a
    /// Throughput run is Jetstress's Performance test with DatabaseSizing Capacity. Any other would name a test that did not run.
    /// </summary>
    private static void CheckReportedAs(TestType? reportedAs, TestType type)
    {
        if (reportedAs is not TestType named || named == type || (type == TestType.Throughput && named == TestType.Performance)) return;
        throw EngineException.Refused(ErrorCodes.RequestMalformed,
            $"reportedAs {named} with testType {type}: a run's files may be named only by its own test type, or Performance for a Throughput run (Jetstress's Performance test with DatabaseSizing Capacity).", RequestFields.ReportedAs);
    }

    /// <summary>
    /// A test id becomes part of file names, so it is a plain name: letters, digits, '.', '_' and '-',
    /// starting with a letter or digit, at most 64 characters. Absent: a new GUID.
    /// </summary>
    public static string CheckTestId(string? testId)
    {
        if (testId is null) return Guid.NewGuid().ToString("N");
        if (!TestIdPattern().IsMatch(testId))
            throw EngineException.Refused(ErrorCodes.TestIdInvalid, $"TestId '{testId}' is not a plain name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it becomes part of file names).");
        return testId;
    }

    /// <summary>A run id is a plain name as a test id is (the module's run ids are); absent: a run of one host.</summary>
    private static void CheckRunId(string? runId)
    {
        if (runId is not null && !TestIdPattern().IsMatch(runId))
            throw EngineException.Refused(ErrorCodes.RequestMalformed, $"runId '{runId}' is not a plain name: use 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit.", RequestFields.RunId);
    }

    [GeneratedRegex("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$", RegexOptions.CultureInvariant)]
    private static partial Regex TestIdPattern();

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
        // Attaching writes no database of the set; its passive copies are still created where missing (DatabaseSet.Prepare).
        bool attach = plan.Request.DatabaseSource == DatabaseSource.Attach;
        foreach (var f in plan.Files().Where(f => !attach || f.OfPassiveCopy))
        {
            long existing = File.Exists(f.Path) ? new FileInfo(f.Path).Length : 0;
            Add(ExistingAncestor(Path.GetDirectoryName(f.Path)!), Math.Max(0, f.SizeBytes - existing));
        }
        Add(ExistingAncestor(plan.OutputPath), resultsBytes);
        foreach (var (_, (need, info, folder)) in needByVolume)
        {
            long margin = Margin(need);
            if (need + margin > info.FreeBytes)
                throw EngineException.Refused(ErrorCodes.InsufficientSpace,
                    $"The volume under '{folder}' has {info.FreeBytes:N0} bytes free but the planned files and results need {need:N0} bytes plus {margin:N0} bytes kept free for file-system metadata. Lower MailboxCount or MailboxSizeMB, or use a larger volume.", folder);
        }
    }

    /// <summary>
    /// The database and log folders, each checked, every problem named in one refusal (the code of the first): a user who
    /// fixes one folder a run would only meet the next one. A missing folder is refused (PathNotFound) unless the request
    /// takes its folders as Jetstress does (<see cref="EngineRequest.JetstressFolders"/>); then it is returned, to be created
    /// when the run starts, provided it can be: its drive exists, no file stands in its way, and the folder it goes into is
    /// writable. Nothing is created here: a plan writes nothing.
    /// </summary>
    private static List<string> CheckFolders(IEnumerable<string> folders, bool allowBufferedIo, bool createMissing)
    {
        var missing = new List<string>();
        var problems = new List<(ErrorCode Code, string Message, string Folder)>();
        foreach (var folder in folders.Distinct(PathNames.Comparer))
        {
            if (CheckFolder(folder, allowBufferedIo, createMissing, out bool create) is { } problem) problems.Add((problem.Code, problem.Message, folder));
            else if (create && !missing.Contains(Full(folder), PathNames.Comparer)) missing.Add(Full(folder));
        }
        if (problems.Count == 1) throw EngineException.Refused(problems[0].Code, problems[0].Message, problems[0].Folder);
        if (problems.Count > 1)
            throw EngineException.Refused(problems[0].Code,
                $"{problems.Count} of the database and log folders cannot be used: " + string.Join(" ", problems.Select((p, n) => $"({n + 1}) {p.Message}")),
                problems[0].Folder);
        return missing;
    }

    private static (ErrorCode Code, string Message)? CheckFolder(string folder, bool allowBufferedIo, bool createMissing, out bool create)
    {
        create = false;
        string full = Full(folder);
        if (File.Exists(full))
            return (ErrorCodes.PathIsFile, $"'{folder}' is a file, not a folder: database and log paths must be folders.");
        if (!Directory.Exists(full))
        {
            if (!createMissing)
                return (ErrorCodes.PathNotFound, $"The folder '{folder}' does not exist: create it (or mount the volume) first.");
            if (Uncreatable(full) is { } why) return (ErrorCodes.PathNotFound, $"The folder '{folder}' does not exist and cannot be created: {why}.");
            create = true;
        }
        string existing = ExistingAncestor(full);
        if (!VolumeSpace.CanWrite(existing))
            return create
                ? (ErrorCodes.PathNotWritable, $"The folder '{folder}' cannot be created: '{existing}' is not writable (read-only volume or no permission).")
                : (ErrorCodes.PathNotWritable, $"The folder '{folder}' is not writable (read-only volume or no permission).");
        // Refused here, by the user's folder, rather than when the first file is opened: by then the run has made
        // its folders and lock file, and the message would name an internal file being created.
        if (!allowBufferedIo && IoFileOpener.IsMemoryFileSystem(existing))
            return (ErrorCodes.DirectIoUnsupported, IoFileOpener.MemoryFileSystemRefusal(folder));
        return null;
    }

    /// <summary>Why a missing folder cannot be created (its drive or share is not there, a file stands in its way), or null.</summary>
    private static string? Uncreatable(string full)
    {
        string? root = Path.GetPathRoot(full);
        if (string.IsNullOrEmpty(root) || !Directory.Exists(root)) return $"its drive or share '{root}' is not there";
        for (string? p = Path.GetDirectoryName(full); p is not null && !Directory.Exists(p); p = Path.GetDirectoryName(p))
            if (File.Exists(p)) return $"'{p}' is a file";
        return null;
    }

    /// <summary>
    /// The output folder a request names, checked: absolute, not a file, creatable. A run's may be new, but its
    /// parent must exist (a typo must not create a tree of folders); a report's must exist
    /// (<paramref name="mustExist"/>). Null when the request names none (the default is beside the databases,
    /// or beside each results file).
    /// </summary>
    public static string? OutputFolder(string? outputPath, bool mustExist = false)
    {
        if (string.IsNullOrWhiteSpace(outputPath)) return null;
        if (!ProfileRules.IsAbsolute(outputPath))
            throw EngineException.Refused(ErrorCodes.PathNotAbsolute, $"OutputPath '{outputPath}' is relative: give a full path (it would otherwise depend on the folder the engine was started in).", outputPath);
        string output = Full(outputPath);
        if (File.Exists(output))
            throw EngineException.Refused(ErrorCodes.OutputPathIsFile, $"OutputPath '{output}' is a file, not a folder.", output);
        string? parent = Path.GetDirectoryName(output);
        if (mustExist && !Directory.Exists(output))
            throw EngineException.Refused(ErrorCodes.OutputPathNotFound, $"The output folder '{output}' does not exist.", output);
        if (!Directory.Exists(output) && (parent is null || !Directory.Exists(parent)))
            throw EngineException.Refused(ErrorCodes.OutputPathNotFound, $"The output folder '{output}' does not exist, and neither does its parent folder.", output);
        string existing = ExistingAncestor(output);
        if (!VolumeSpace.CanWrite(existing))
            throw EngineException.Refused(ErrorCodes.OutputPathNotWritable, $"OutputPath '{output}' cannot be created or written ('{existing}' is not writable).", output);
        return output;
    }

    internal static string ExistingAncestor(string path)
    {
        string? p = path;
        while (p is not null && !Directory.Exists(p)) p = Path.GetDirectoryName(p);
        return p ?? Path.GetPathRoot(Path.GetFullPath(path))!;
    }

    /// <summary>Refuses the request when a rule of the contract is broken.</summary>
    /// <summary>
    /// The passive copies beside database <paramref name="index"/> (<see cref="PassiveCopyModel.PassivePerDatabase"/>, the
    /// last <see cref="PassiveCopyModel.LaggedPerDatabase"/> of them lagged): each a database of the active's size in
    /// <c>Passive&lt;k&gt;</c> under the active's folder (its volume), its copied log in <c>Passive&lt;k&gt;/Logs</c>, a
    /// circular log of <see cref="CircularLogGenerations"/> generations as the active's.
    /// </summary>
    internal static IReadOnlyList<PlannedPassiveCopy> PassiveCopies(MailboxProfile p, int index, string dbFolder, long dbBytes)
    {
        int passive = PassiveCopyModel.PassivePerDatabase(p), replaying = PassiveCopyModel.ReplayingPerDatabase(p);
        var copies = new List<PlannedPassiveCopy>(passive);
        for (int k = 1; k <= passive; k++)
        {
            string folder = Path.Combine(dbFolder, PlannedPassiveCopy.FolderName(k));
            copies.Add(new PlannedPassiveCopy(k, Lagged: k > replaying, new PlannedInstance
            {
                Index = index,
                DatabaseFolder = folder,
                DatabaseFile = Path.Combine(folder, TestPlan.DatabaseFileName(index)),
                LogFolder = Path.Combine(folder, "Logs"),
                DatabaseSizeBytes = dbBytes,
                LogGenerations = CircularLogGenerations,
            }));
        }
        return copies;
    }

    private static void Refuse(Violation? violation)
    {
        if (violation is not null) throw EngineException.Refused(violation);
    }

    private static long RoundDown(long value, long unit) => value / unit * unit;
    private static string Full(string path) => Path.GetFullPath(path);

    /// <summary>The folders (full paths; case-blind where the file system is) that two or more of <paramref name="folders"/> name.</summary>
    private static HashSet<string> NamedTwice(IReadOnlyList<string> folders)
    {
        var comparer = OperatingSystem.IsWindows() ? StringComparer.OrdinalIgnoreCase : StringComparer.Ordinal;
        return folders.Select(Full).GroupBy(f => f, comparer).Where(g => g.Count() > 1).Select(g => g.Key).ToHashSet(comparer);
    }
}
