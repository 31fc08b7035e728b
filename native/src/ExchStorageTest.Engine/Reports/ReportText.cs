using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>Labels and values shared by the text, HTML and XML renderings, so they never disagree.</summary>
internal static class ReportText
{
    public const string ToolName = "ExchStorageTest";

    /// <summary>The user's description when given; otherwise what ran, from the results (never the request).</summary>
    public static string TestDescription(TestResults r)
    {
        if (!string.IsNullOrWhiteSpace(r.Profile.Description)) return r.Profile.Description!;
        var p = r.Profile;
        return $"{TestedMailboxes(r)} of {JetFormat.Number(p.MailboxSizeMB, 0)} MiB at {JetFormat.Number(TestedIopsPerMailbox(p), 3)} IOPS tested, " +
               $"{Wording.Count(r.Instances.Count > 0 ? r.Instances.Count : p.DatabaseCount, "database")}, {Wording.Count(p.CopiesPerDatabase, "copy", "copies")}, {LoadDescription(r)}";
    }

    /// <summary>
    /// The mailboxes the measured window loaded: the profile's, or a capacity search's reported step's (its figures are
    /// that step's window), named as that step.
    /// </summary>
    public static string TestedMailboxes(TestResults r) => r.Capacity?.Reported() is { } step
        ? $"{Wording.Count(step.Mailboxes, "mailbox", "mailboxes")} (capacity search step {JetFormat.Integer(step.Step)})"
        : Wording.Count(r.Profile.MailboxCount, "mailbox", "mailboxes");

    /// <summary>IOPS per mailbox as tested: the profile's figure plus its own headroom.</summary>
    public static double TestedIopsPerMailbox(MailboxProfile p) => p.IopsPerMailbox * (1 + p.HeadroomPercent / 100.0);

    /// <summary>
    /// The load that ran: "2 sessions (1 per database)", "2 sessions in all" when the results do not
    /// record sessions per database (the global count, Jetstress 2013's "thread count"), or the open-loop rate.
    /// </summary>
    public static string LoadDescription(TestResults r)
    {
        var s = r.Settings;
        if (r.TestType == TestType.DatabaseBackup) return BackupLoad;
        if (r.TuningOutcome == TuningOutcomes.Stopped) return "sessions " + NotTuned;
        string tuned = s.AutoTuned ? ", auto-tuned" : "";
        if (s.LoadModel == "Open" && s.TargetRateIops is double rate) return $"open loop at {JetFormat.Number(rate, 1)} IOPS";
        int ran = SessionsRan(r);
        if (ran <= 0) return "sessions not recorded";
        string all = Wording.Count(ran, "session");
        var perDatabase = r.Instances.Where(i => i.Sessions > 0).Select(i => i.Sessions).ToList();
        if (perDatabase.Count == 0) return $"{all} in all{tuned}";
        int min = perDatabase.Min(), max = perDatabase.Max();
        string each = min == max ? JetFormat.Integer(min) : $"{JetFormat.Integer(min)}-{JetFormat.Integer(max)}";
        return $"{all} ({each} per database){tuned}";
    }

    /// <summary>
    /// Sessions that ran in all: the sum of the instances' recorded sessions (every database gets at
    /// least one, so fewer sessions than databases still run one each), else the settings' count.
    /// </summary>
    public static int SessionsRan(TestResults r)
    {
        int recorded = r.Instances.Sum(i => Math.Max(0, i.Sessions));
        return recorded > 0 ? recorded : r.Settings.ThreadCount;
    }

    /// <summary>
    /// The session count of a run stopped while tuning: the search chose none (the count the run would have fallen back
    /// to is no result of it), so no report states one as tuned.
    /// </summary>
    private const string NotTuned = "not chosen: the run was stopped while tuning";

    /// <summary>A backup runs no sessions: it reads each database once, start to end, so there is no thread count to state.</summary>
    private const string BackupLoad = "a backup read of each database (no sessions)";

    /// <summary>Jetstress's Thread Count row: the sessions that ran, and the count asked for when it differs.</summary>
    private static string ThreadCount(TestResults r)
    {
        var s = r.Settings;
        if (r.TestType == TestType.DatabaseBackup) return "not used: " + BackupLoad;
        if (r.TuningOutcome == TuningOutcomes.Stopped) return NotTuned;
        int ran = SessionsRan(r);
        if (s.LoadModel == "Open" && s.TargetRateIops is double rate) return $"{JetFormat.Integer(ran)} (open loop, {JetFormat.Number(rate, 1)} IOPS)";
        string asked = ran != s.ThreadCount && s.ThreadCount > 0 ? $" ({JetFormat.Integer(s.ThreadCount)} asked)" : "";
        if (s.LoadModel == "Paced" && s.PacedIops is double paced)
            return JetFormat.Integer(ran) + asked + $" ({(s.AutoTuned ? "auto-tuned; " : "")}sessions think between transactions to hold {JetFormat.Number(paced, 1)} IOPS)";
        return JetFormat.Integer(ran) + asked + (s.AutoTuned ? " (auto-tuned)" : "");
    }

    public static IReadOnlyList<(string Label, string Value)> TestSummary(TestResults r, ReportOptions o)
    {
        var tz = o.TimeZone;
        var rows = new List<(string, string)>
        {
            ("Overall Test Result", r.Verdict.Result),
        };
        // A run that ended early says so beside its verdict, with what its figures cover.
        if (PartialWindow.Describe(r) is string partial) rows.Add((RunCompletionLabel, partial));
        rows.AddRange(new[]
        {
            ("Machine Name", r.Environment.MachineName),
            ("Test Description", TestDescription(r)),
            ("Test Start Time", JetFormat.Time(r.Timeline.TestStartUtc, tz)),
            ("Test End Time", JetFormat.Time(r.Timeline.TestEndUtc, tz)),
        });
        if (r.Timeline.CollectionStartUtc is DateTime cs) rows.Add(("Collection Start Time", JetFormat.Time(cs, tz)));
        if (r.Timeline.CollectionEndUtc is DateTime ce) rows.Add(("Collection End Time", JetFormat.Time(ce, tz)));
        rows.Add(($"{ToolName} Version", r.EngineVersion));
        rows.Add((ExchangeModelledLabel, r.Exchange.Describe()));
        if (CopiesPerVolume(r.Profile) is string copies) rows.Add((CopiesPerVolumeLabel, copies));
        rows.Add(("I/O Backend", r.Environment.IoBackend + (r.Environment.DirectIo ? " (direct I/O)" : " (BUFFERED I/O)")));
        if (WorkerAffinity(r.Environment) is string affinity) rows.Add(("Worker CPU Affinity", affinity));
        rows.Add(("Operating System", r.Environment.OperatingSystem));
        rows.Add(("Performance Log", o.PerformanceLogName ?? "(not written with this report)"));
        rows.Add(("Time Zone", JetFormat.ZoneLabel(tz)));
        return rows;
    }

    /// <summary>The Test Summary and ESRP row that says which Exchange the load modelled (results <c>exchange</c>).</summary>
    public const string ExchangeModelledLabel = "Exchange Modelled";

    /// <summary>The Test Summary and ESRP row, beside <see cref="ExchangeModelledLabel"/>, of the database copies each volume carried.</summary>
    public const string CopiesPerVolumeLabel = "Database Copies per Volume";

    /// <summary>
    /// "4 (1 active, 3 passive, 1 of them lagged)": the copies the load put on each volume; null in the Jetstress model
    /// (no passive copy), whose reports print no such row.
    /// </summary>
    public static string? CopiesPerVolume(MailboxProfile? p)
    {
        if (p is null || PassiveCopyModel.PassivePerDatabase(p) == 0) return null;
        int passive = p.CopiesPerVolume - p.ActiveCopiesPerVolume;
        return string.Create(CultureInfo.InvariantCulture, $"{p.CopiesPerVolume} ({p.ActiveCopiesPerVolume} active, {passive} passive")
            + (p.LaggedCopiesPerVolume > 0 ? string.Create(CultureInfo.InvariantCulture, $", {p.LaggedCopiesPerVolume} of them lagged)") : ")");
    }

    /// <summary>"0, 1" for workers pinned to CPUs 0 and 1; null when pinning was off (older results too).</summary>
    public static string? WorkerAffinity(EnvironmentInfo env) =>
        env.WorkerCpus.Count == 0 ? null
        : string.Join(", ", env.WorkerCpus.Select(c => c >= 0 ? c.ToString(CultureInfo.InvariantCulture) : "unpinned (refused by the OS)"));

    /// <summary>The Test Summary row of a run that ended early: how, and what its figures cover (<see cref="PartialWindow.Describe"/>).</summary>
    public const string RunCompletionLabel = "Run Completion";

    /// <summary>
    /// A figure the run never measured (stopped before it): an empty cell, not a zero. Jetstress automation skips an
    /// empty Achieved value (ExchangeDsc parses it only when not empty) where a word would throw (docs/results-schema.md).
    /// </summary>
    public const string NotMeasured = "";

    public static IReadOnlyList<(string Label, string Value)> Sizing(TestResults r) => new[]
    {
        ("Achieved Transactional I/O per Second", PartialWindow.TransactionsMeasured(r) ? JetFormat.Number(TransactionalIops.Achieved(r)) : NotMeasured),
        ("Target Transactional I/O per Second", JetFormat.Number(r.Sizing.TargetTransactionalIops)),
        ("Initial Database Size (bytes)", JetFormat.Integer(r.Sizing.InitialDatabaseSizeBytes)),
        ("Final Database Size (bytes)", PartialWindow.FinalSizeMeasured(r) ? JetFormat.Integer(r.Sizing.FinalDatabaseSizeBytes) : NotMeasured),
        ("Database Files (Count)", JetFormat.Integer(r.Sizing.DatabaseFileCount)),
        ("Capacity Percentage", Percentage(r.Sizing.CapacityPercent ?? 100)),
        ("Throughput Percentage", Percentage(ThroughputPercent)),
    };

    /// <summary>
    /// Jetstress's Throughput Percentage: every run drives its whole load (the profile's target, or for Throughput the most
    /// the storage carries), never a share of it; JetstressCmd refuses a ThroughputPercentage other than 100.
    /// </summary>
    public const double ThroughputPercent = 100;

    /// <summary>A percentage as Jetstress's configuration holds it: "100", "20", "12.5".</summary>
    // Six decimals: a capacity share of a large volume is small (/pctcapacity 0.0005), and "0." would say nothing.
    private static string Percentage(double value) =>
        value == Math.Floor(value) ? JetFormat.Number(value, 0) : JetFormat.Number(value, 6).TrimEnd('0').TrimEnd('.');

    /// <summary>
    /// What the database pages held, in words: a data-reducing array's numbers are only comparable between runs on the
    /// same data, so every report states it, in the results file's own words. Results written before profiles held
    /// the default.
    /// </summary>
    public static string DataDescription(TestResults r)
    {
        var profile = r.Settings.DataProfile ?? new DataProfileSettings();
        return string.IsNullOrEmpty(profile.Description) ? profile.ToProfile().Describe() : profile.Description;
    }

    public static IReadOnlyList<(string Label, string Value)> SystemParameters(TestResults r)
    {
        var s = r.Settings;
        var rows = new List<(string, string)>
        {
            ("Thread Count", ThreadCount(r)),
            ("Database Page Data", DataDescription(r)),
            ("Minimum Database Cache", DatabaseCache(r, minimum: true)),
            ("Maximum Database Cache", DatabaseCache(r, minimum: false)),
            ("Insert Operations", JetFormat.Percent(s.InsertPercent)),
            ("Delete Operations", JetFormat.Percent(s.DeletePercent)),
            ("Replace Operations", JetFormat.Percent(s.ReplacePercent)),
            ("Read Operations", JetFormat.Percent(s.ReadPercent)),
            ("Lazy Commits", JetFormat.Percent(s.LazyCommitPercent)),
        };
        if (r.TestType is not TestType.DatabaseBackup)
        {
            rows.Add(("Run Background Database Maintenance", r.Profile.BackgroundMaintenance ? "True" : "False"));
            rows.Add(("Number of Copies per Database", JetFormat.Integer(r.Profile.CopiesPerDatabase)));
        }
        return rows;
    }

    /// <summary>
    /// A database cache row: the cache that ran (summed over the databases, as the test log's "Database cache settings"
    /// states it) and, when it is not the profile's, the profile's beside it and why (one figure per label).
    /// The profile's alone when the results do not record what ran.
    /// </summary>
    public static string DatabaseCache(TestResults r, bool minimum)
    {
        long configured = (minimum ? r.Profile.MinimumDatabaseCacheMB : r.Profile.MaximumDatabaseCacheMB) * JetFormat.MiB;
        long used = r.Instances.Sum(i => minimum ? i.MinimumDatabaseCacheBytes : i.MaximumDatabaseCacheBytes);
        // Split over the databases in whole pages, a cache the databases did not cut can be a few bytes short of the profile's.
        if (used <= 0 || JetFormat.Mebibytes(used) == JetFormat.Mebibytes(configured)) return JetFormat.Mebibytes(configured);
        string why = minimum ? "a minimum is never above the cache that ran" : CacheCutReason;
        return $"{JetFormat.Mebibytes(used)} used ({JetFormat.Mebibytes(configured)} configured; {why})";
    }

    /// <summary>Why the cache that ran is smaller than the profile's (Workload.CacheModel.DatabaseShare).</summary>
    public static readonly string CacheCutReason = string.Format(CultureInfo.InvariantCulture,
        "a database's cache holds at most 1/{0} of its pages, so that it stays as small beside the database as a server's beside production databases", Workload.CacheModel.DatabaseShare);

    /// <summary>
    /// The tuning log's columns. "Target Rate (IOPS)" is each step's target transactional IOPS, shown only when some
    /// step had one (a Throughput search for the maximum has none, and a column always empty would say nothing).
    /// </summary>
    public static IReadOnlyList<string> TuningHeaders(TestResults r)
    {
        var headers = new List<string> { "Time", "Thread Count", TargetRateHeader, "Phase", "Achieved IOPS", "DB Read Latency (msec)", "Log Write Latency (msec)", "Passed", "Note" };
        if (!HasStepTargets(r)) headers.Remove(TargetRateHeader);
        return headers;
    }

    private const string TargetRateHeader = "Target Rate (IOPS)";

    private static bool HasStepTargets(TestResults r) => r.TuningLog.Exists(t => t.TargetRateIops is not null);

    /// <summary>
    /// The tuning log as rows under <see cref="TuningHeaders"/>. A transient phase settles the load and
    /// is not judged: it says so instead of printing unmeasured figures as zeros and a "No".
    /// </summary>
    public static IEnumerable<string[]> TuningRows(TestResults r, TimeZoneInfo tz)
    {
        bool targets = HasStepTargets(r);
        return r.TuningLog.Select(t =>
        {
            bool transient = t.Phase.StartsWith("transient", StringComparison.OrdinalIgnoreCase);
            string Measured(double v) => transient && v == 0 ? "" : JetFormat.Number(v);
            var row = new List<string> { JetFormat.Time(t.TimeUtc, tz), JetFormat.Integer(t.ThreadCount) };
            if (targets) row.Add(t.TargetRateIops is double rate ? JetFormat.Number(rate) : "");
            row.AddRange(new[]
            {
                t.Phase,
                transient && t.AchievedIops == 0 ? "not measured (transient)" : JetFormat.Number(t.AchievedIops),
                Measured(t.DatabaseReadLatencyMs), Measured(t.LogWriteLatencyMs),
                transient ? "not judged (transient)" : t.Passed ? "Yes" : "No", t.Note,
            });
            return row.ToArray();
        });
    }

    /// <summary>
    /// A volume's findings as the report shows them: a "not probed" finding gives way to the fact the
    /// same results record, that the run itself did its I/O unbuffered on every file.
    /// </summary>
    /// <summary>Where a host or layout finding of the platform pre-flight is listed beside the volumes' findings.</summary>
    public const string HostFindingPlace = "(host)";

    /// <summary>The host as the platform pre-flight saw it: processors, hypervisor, power policy.</summary>
    public static IReadOnlyList<(string Label, string Value)> Platform(PlatformReport p) => new[]
    {
        ("Sockets", p.Sockets is int s ? JetFormat.Integer(s) : "not read"),
        ("Physical Cores", p.PhysicalCores is int c ? JetFormat.Integer(c) : "not read"),
        ("Logical Processors", JetFormat.Integer(p.LogicalProcessors)),
        ("Hypervisor", p.Hypervisor ?? "none seen"),
        ("Power Policy", p.PowerPolicy ?? "not read"),
    };

    public static IEnumerable<Finding> Findings(VolumeReport v, EnvironmentInfo env) =>
        v.Findings.Where(f => !(env.DirectIo && f.Code == Inspection.FindingCodes.DirectIoNotProbed));

    /// <summary>The volume's direct I/O as the results know it.</summary>
    public static string DirectIo(VolumeReport v, EnvironmentInfo env) => v.DirectIoSupported switch
    {
        false => "not supported",
        _ when env.DirectIo => "used by this run",
        true => "supported",
        null => "not probed",
    };

    public static string DatabaseConfiguration(InstanceResult i) => $"Log path: {i.LogPath} Database: {i.DatabasePath}";

    public static string ThresholdLine(TestResults r)
    {
        var t = r.Settings.Thresholds;
        return $"{t.Name}: DB read average {JetFormat.Number(t.AverageDatabaseReadLatencyMs, 0)} ms, maximum {JetFormat.Number(t.MaximumDatabaseReadLatencyMs, 0)} ms; " +
               $"log write average {JetFormat.Number(t.AverageLogWriteLatencyMs, 0)} ms, maximum {JetFormat.Number(t.MaximumLogWriteLatencyMs, 0)} ms; " +
               $"page fault stalls {JetFormat.Number(t.MaximumPageFaultStallsPerSecond, 0)}/sec";
    }

    /// <summary>
    /// What the backup table's two summary rows are: the result's BackupMBPerSecondPerDatabase and BackupMBPerSecond
    /// (BackupResult.AverageMBPerSecond and TotalMBPerSecond, Jetstress's Avg and Sum rows), rendered, never recomputed.
    /// </summary>
    public const string BackupSummaryNote =
        "Avg is the mean of the databases' MBytes/sec; Sum adds them (the databases are read at once): the host's backup rate, ESRP's \"MB read/sec total per server\".";

    public const string BufferedIoWarning =
        "This run went through the operating system's file cache (direct I/O was not available and buffered I/O was explicitly allowed). " +
        "Latencies and rates describe the cache as much as the storage; do not use them to validate a storage design.";

    public static string TestLogLine(TestLogLine line, TimeZoneInfo tz) => $"{JetFormat.Time(line.TimeUtc, tz)} -- {line.Message}";

    /// <summary>Per-instance streams in report order, with instances in index order.</summary>
    public static IEnumerable<(InstanceResult Instance, StreamResult Stream)> InstanceStreams(TestResults r) =>
        r.Instances.OrderBy(i => i.Index)
            .SelectMany(i => i.Streams.OrderBy(s => ResultsMerge.StreamRank(s.Stream)).Select(s => (i, s)));

    public static string InstanceName(TestResults r, int index) =>
        r.Instances.FirstOrDefault(i => i.Index == index)?.Name is { Length: > 0 } name ? name : $"Instance.{index}";

    /// <summary>The system-log line of the reliability checks (ESRP: no errors in the system logs for the test window).</summary>
    public static string SystemLogSummary(TestResults r) => r.SystemLog switch
    {
        null => "System log: not checked.",
        { Checked: false } => "System log: could not be read for the test window; the reliability check was not possible.",
        { } log when log.StorageErrorCount > 0 => $"System log: {Wording.Count(log.StorageErrorCount, "storage error")} in the test window ({log.Source}).{OtherDevices(log)}",
        { } log => $"System log: no storage errors in the test window ({log.Source}; {log.Events.Count - log.OtherDeviceStorageErrorCount} other error entries).{OtherDevices(log)}",
    };

    private static string OtherDevices(SystemLogReport log) => log.OtherDeviceStorageErrorCount == 0 ? ""
        : $" {Wording.Count(log.OtherDeviceStorageErrorCount, "storage error")} on devices that hold none of the test's folders, listed for information, not judged.";
}
