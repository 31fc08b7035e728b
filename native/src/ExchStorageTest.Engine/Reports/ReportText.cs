using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>Labels and values shared by the text, HTML and XML renderings, so they never disagree.</summary>
internal static class ReportText
{
    public const string ToolName = "ExchStorageTest";

    public static string TestDescription(TestResults r)
    {
        if (!string.IsNullOrWhiteSpace(r.Profile.Description)) return r.Profile.Description!;
        var p = r.Profile;
        string threads = r.Settings.LoadModel == "Open" && r.Settings.TargetRateIops is double rate
            ? $"open loop at {JetFormat.Number(rate, 1)} IOPS"
            : $"{r.Settings.ThreadCount} threads/db{(r.Settings.AutoTuned ? " (auto-tuned)" : "")}";
        return $"{p.MailboxCount} mailboxes, {JetFormat.Number(p.MailboxSizeMB, 0)} MB mailboxes, " +
               $"{JetFormat.Number(p.IopsPerMailbox * (1 + p.HeadroomPercent / 100.0), 3)} IOPS tested, " +
               $"{(r.Instances.Count > 0 ? r.Instances.Count : p.DatabaseCount)} databases, {p.CopiesPerDatabase} copies, {threads}";
    }

    public static IReadOnlyList<(string Label, string Value)> TestSummary(TestResults r, ReportOptions o)
    {
        var tz = o.TimeZone;
        var rows = new List<(string, string)>
        {
            ("Overall Test Result", r.Verdict.Result),
            ("Machine Name", r.Environment.MachineName),
            ("Test Description", TestDescription(r)),
            ("Test Start Time", JetFormat.Time(r.Timeline.TestStartUtc, tz)),
            ("Test End Time", JetFormat.Time(r.Timeline.TestEndUtc, tz)),
        };
        if (r.Timeline.CollectionStartUtc is DateTime cs) rows.Add(("Collection Start Time", JetFormat.Time(cs, tz)));
        if (r.Timeline.CollectionEndUtc is DateTime ce) rows.Add(("Collection End Time", JetFormat.Time(ce, tz)));
        rows.Add(($"{ToolName} Version", r.EngineVersion));
        rows.Add(("I/O Backend", r.Environment.IoBackend + (r.Environment.DirectIo ? " (direct I/O)" : " (BUFFERED I/O)")));
        if (WorkerAffinity(r.Environment) is string affinity) rows.Add(("Worker CPU Affinity", affinity));
        rows.Add(("Operating System", r.Environment.OperatingSystem));
        rows.Add(("Performance Log", o.PerformanceLogName ?? ""));
        rows.Add(("Time Zone", JetFormat.ZoneLabel(tz)));
        return rows;
    }

    /// <summary>"0, 1" for workers pinned to CPUs 0 and 1; null when pinning was off (older results too).</summary>
    public static string? WorkerAffinity(EnvironmentInfo env) =>
        env.WorkerCpus.Count == 0 ? null
        : string.Join(", ", env.WorkerCpus.Select(c => c >= 0 ? c.ToString(CultureInfo.InvariantCulture) : "unpinned (refused by the OS)"));

    public static IReadOnlyList<(string Label, string Value)> Sizing(TestResults r) => new[]
    {
        ("Achieved Transactional I/O per Second", JetFormat.Number(r.Sizing.AchievedTransactionalIops)),
        ("Target Transactional I/O per Second", JetFormat.Number(r.Sizing.TargetTransactionalIops)),
        ("Initial Database Size (bytes)", JetFormat.Integer(r.Sizing.InitialDatabaseSizeBytes)),
        ("Final Database Size (bytes)", JetFormat.Integer(r.Sizing.FinalDatabaseSizeBytes)),
        ("Database Files (Count)", JetFormat.Integer(r.Sizing.DatabaseFileCount)),
    };

    public static IReadOnlyList<(string Label, string Value)> SystemParameters(TestResults r)
    {
        var s = r.Settings;
        var rows = new List<(string, string)>
        {
            ("Thread Count", s.LoadModel == "Open" && s.TargetRateIops is double rate
                ? $"{s.ThreadCount} (open loop, {JetFormat.Number(rate, 1)} IOPS)"
                : s.LoadModel == "Paced" && s.PacedIops is double paced
                ? $"{s.ThreadCount} (auto-tuned; sessions think between transactions to hold {JetFormat.Number(paced, 1)} IOPS)"
                : JetFormat.Integer(s.ThreadCount) + (s.AutoTuned ? " (auto-tuned)" : "")),
            ("Minimum Database Cache", JetFormat.Megabytes(r.Profile.MinimumDatabaseCacheMB)),
            ("Maximum Database Cache", JetFormat.Megabytes(r.Profile.MaximumDatabaseCacheMB)),
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

    public static string DatabaseConfiguration(InstanceResult i) => $"Log path: {i.LogPath} Database: {i.DatabasePath}";

    public static string ThresholdLine(TestResults r)
    {
        var t = r.Settings.Thresholds;
        return $"{t.Name}: DB read average {JetFormat.Number(t.AverageDatabaseReadLatencyMs, 0)} ms, maximum {JetFormat.Number(t.MaximumDatabaseReadLatencyMs, 0)} ms; " +
               $"log write average {JetFormat.Number(t.AverageLogWriteLatencyMs, 0)} ms, maximum {JetFormat.Number(t.MaximumLogWriteLatencyMs, 0)} ms; " +
               $"page fault stalls {JetFormat.Number(t.MaximumPageFaultStallsPerSecond, 0)}/sec";
    }

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
        { } log when log.StorageErrorCount > 0 => $"System log: {log.StorageErrorCount} storage error(s) in the test window ({log.Source}).",
        { } log => $"System log: no storage errors in the test window ({log.Source}; {log.Events.Count} other error entries).",
    };
}
