using System.Text;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// One line of an ESRP tested-deployment table; <see cref="Known"/> is false where the user must supply the
/// value, <see cref="Supplied"/> true where the vendor's metadata file gave it (instead of the hosts).
/// </summary>
public sealed record EsrpItem(string Label, string Value, bool Known, bool Supplied = false);

public sealed record EsrpTable(string Title, IReadOnlyList<EsrpItem> Items);

/// <summary>
/// The ESRP document's "Test results summary" and "Tested deployment" tables (SPEC section 7), from the
/// results of an ESRP suite (<see cref="EsrpSuite"/>): the server metrics from each host's Performance run
/// (Stress, then Throughput, when there is none), backup and recovery from the DatabaseBackup and
/// SoftRecovery runs, reliability from all of them. Values the hosts cannot discover are marked
/// <see cref="ToSupply"/> unless the caller supplies them (keyed by the row label).
/// </summary>
public sealed class EsrpSummary
{
    public const string ToSupply = "(to be supplied)";

    public required IReadOnlyList<EsrpServerMetrics> Servers { get; init; }
    public required EsrpAggregateMetrics Aggregate { get; init; }
    public EsrpBackupSummary? Backup { get; init; }
    public EsrpSoftRecoverySummary? SoftRecovery { get; init; }
    public required IReadOnlyList<EsrpTable> Deployment { get; init; }
    /// <summary>The ESRP "Reliability" statements, each as what the given results show (or that they do not show it).</summary>
    public required IReadOnlyList<EsrpItem> Reliability { get; init; }

    /// <summary>The summary of whatever results are given, sorted into an <see cref="EsrpSuite"/> by test type.</summary>
    public static EsrpSummary From(IReadOnlyList<TestResults> performance,
        IReadOnlyList<TestResults>? backup = null,
        IReadOnlyList<TestResults>? softRecovery = null,
        IReadOnlyDictionary<string, string>? supplied = null) =>
        From(EsrpSuite.From(performance.Concat(backup ?? Array.Empty<TestResults>()).Concat(softRecovery ?? Array.Empty<TestResults>())), supplied);

    public static EsrpSummary From(EsrpSuite suite, IReadOnlyDictionary<string, string>? supplied = null)
    {
        var perf = ServerRuns(suite);
        // A capacity search without a step's window here measured nothing these tables could show (NoServerRuns says so).
        var servers = perf.Where(h => h.Capacity is null || h.Capacity.ReportedStep is not null).Select(h => EsrpServerMetrics.From(h, suite.HostName(h))).ToList();
        return new EsrpSummary
        {
            Servers = servers,
            Aggregate = EsrpAggregateMetrics.From(servers),
            Backup = EsrpBackupSummary.From(suite.Of(TestType.DatabaseBackup), suite.HostName),
            SoftRecovery = EsrpSoftRecoverySummary.From(suite.Of(TestType.SoftRecovery)),
            Deployment = EsrpDeployment.Tables(perf, supplied ?? new Dictionary<string, string>()),
            Reliability = ReliabilityItems(suite),
        };
    }

    /// <summary>
    /// The runs the server tables describe: Performance, else Stress, else Throughput, else capacity searches (their
    /// reported step's window, <see cref="CapacityResult.ReportedStep"/>), else whatever was given.
    /// </summary>
    public static IReadOnlyList<TestResults> ServerRuns(EsrpSuite suite)
    {
        foreach (var type in new[] { TestType.Performance, TestType.Stress, TestType.Throughput, TestType.Capacity })
            if (suite.Of(type).Count > 0) return suite.Of(type);
        return suite.Selected;
    }

    /// <summary>Why there are no server tables, when there are none: no run measured a transactional load's window.</summary>
    public const string NoServerRuns = "No run of these results holds a measured load's window (a capacity search whose steps did not finish here has none), so there are no storage performance figures to state.";

    /// <summary>
    /// ESRP section "Reliability": no storage errors in the system log while any test ran, none in the
    /// database and log checksum pass (after Stress), backup and recovery completed. Each row says what
    /// the results show; a check the given results did not include says so instead of claiming it.
    /// </summary>
    private static IReadOnlyList<EsrpItem> ReliabilityItems(EsrpSuite suite)
    {
        var items = new List<EsrpItem>();
        var runs = suite.Selected;
        string Who(TestResults h) => suite.Tests.Count > 1 ? $"{suite.HostName(h)} ({h.TestType})" : suite.HostName(h);
        var withErrors = runs.Where(h => h.SystemLog is { Checked: true, StorageErrorCount: > 0 }).ToList();
        var notChecked = runs.Where(h => h.SystemLog is null or { Checked: false }).ToList();
        string systemLog =
            withErrors.Count > 0 ? string.Join("; ", withErrors.Select(h => $"{Who(h)}: {Wording.Count(h.SystemLog!.StorageErrorCount, "storage error")}"))
            : runs.Count == 0 || notChecked.Count == runs.Count ? "not checked"
            : notChecked.Count > 0 ? $"no storage errors where checked; not checked on {string.Join(", ", notChecked.Select(Who))}"
            : suite.Tests.Count > 1 ? $"no storage errors in the windows of the {suite.Tests.Count} tests" : "no storage errors in the test window";
        items.Add(new EsrpItem("Errors in the system log during the test", systemLog, notChecked.Count < runs.Count));

        long ioErrors = runs.Sum(h => (long)h.Errors.Count);
        items.Add(new EsrpItem("I/O errors during the test", ioErrors == 0 ? "none" : JetFormat.Integer(ioErrors), true));

        var checksums = runs.Where(h => h.Checksum is not null).Select(h => h.Checksum!).ToList();
        string checksum = checksums.Count == 0 ? "not run (no Stress result with a checksum pass given)"
            : checksums.Sum(c => c.BadPages) + checksums.Sum(c => (long)c.BadLogs) == 0
                ? $"no errors ({JetFormat.Integer(checksums.Sum(c => c.PagesChecked))} database pages, {JetFormat.Integer(checksums.Sum(c => (long)c.LogsChecked))} log files checked)"
                : $"{JetFormat.Integer(checksums.Sum(c => c.BadPages))} bad pages, {JetFormat.Integer(checksums.Sum(c => (long)c.BadLogs))} bad log files";
        items.Add(new EsrpItem("Errors in the database and log checksum pass", checksum, checksums.Count > 0));

        items.Add(Completed("Database backup", TestType.DatabaseBackup, h => h.Backup?.Instances.Count ?? 0));
        items.Add(Completed("Soft recovery", TestType.SoftRecovery, h => h.SoftRecovery?.Instances.Count ?? 0));
        return items;

        EsrpItem Completed(string what, TestType type, Func<TestResults, int> databasesDone)
        {
            var done = suite.Of(type);
            if (done.Count == 0) return new EsrpItem(what, $"not run (no {type} result given)", false);
            var failed = done.Where(h => h.Completion != Completions.Complete || h.Errors.Count > 0 || databasesDone(h) == 0).ToList();
            return new EsrpItem(what, failed.Count == 0 ? "completed without errors"
                : string.Join("; ", failed.Select(h => $"{suite.HostName(h)}: {h.Completion}, {Wording.Count(databasesDone(h), "database")} done, {Wording.Count(h.Errors.Count, "I/O error")}")), true);
        }
    }

    /// <summary>The summary as tab-separated tables, the way ESRP documents lay them out.</summary>
    public string RenderText()
    {
        var sb = new StringBuilder();
        foreach (var table in Deployment)
        {
            sb.Append(table.Title).Append('\n');
            foreach (var item in table.Items) sb.Append(item.Label).Append('\t').Append(item.Value).Append('\n');
            sb.Append('\n');
        }
        sb.Append("Reliability\n");
        foreach (var item in Reliability) sb.Append(item.Label).Append('\t').Append(item.Value).Append('\n');
        sb.Append('\n');
        if (Servers.Count == 0)
        {
            sb.Append("Storage performance\n").Append(NoServerRuns).Append('\n');
            return RenderBackupAndRecovery(sb);
        }
        sb.Append("Individual Server Metrics\n");
        foreach (var s in Servers)
        {
            sb.Append("Server ").Append(s.Host).Append('\n');
            foreach (var (label, value) in ServerRows(s)) AppendRow(sb, label, value);
            sb.Append('\n');
        }
        sb.Append("Aggregate Performance Across All Servers\n");
        foreach (var (label, value) in AggregateRows()) AppendRow(sb, label, value);
        sb.Append(Aggregate.HeadroomSentence()).Append('\n');
        return RenderBackupAndRecovery(sb);
    }

    private string RenderBackupAndRecovery(StringBuilder sb)
    {
        if (Backup is not null)
        {
            sb.Append("\nDatabase Read-only Performance\n");
            foreach (var (label, value) in BackupRows()) AppendRow(sb, label, value);
        }
        if (SoftRecovery is not null)
        {
            sb.Append("\nTransaction Log Recovery/Replay Performance\n");
            foreach (var (label, value) in SoftRecoveryRows()) AppendRow(sb, label, value);
        }
        return sb.ToString();
    }

    private static void AppendRow(StringBuilder sb, string label, string? value)
    {
        sb.Append(label);
        if (value is not null) sb.Append('\t').Append(value);
        sb.Append('\n');
    }

    /// <summary>Rows of the per-server table; a null value marks a heading row.</summary>
    public static IReadOnlyList<(string Label, string? Value)> ServerRows(EsrpServerMetrics s) => new (string, string?)[]
    {
        ("Database I/O", null),
        ("Database Disks Transfers/sec", JetFormat.Number(s.DatabaseDisksTransfersPerSecond)),
        ("Database Disks Reads/sec", JetFormat.Number(s.DatabaseDisksReadsPerSecond)),
        ("Database Disks Writes/sec", JetFormat.Number(s.DatabaseDisksWritesPerSecond)),
        ("Average Database Disk Read Latency (ms)", JetFormat.Number(s.AverageDatabaseDiskReadLatencyMs)),
        ("Average Database Disk Write Latency (ms)", JetFormat.Number(s.AverageDatabaseDiskWriteLatencyMs)),
        ("Transaction Log I/O", null),
        ("Log Disks Writes/sec", JetFormat.Number(s.LogDisksWritesPerSecond)),
        ("Average Log Disk Write Latency (ms)", JetFormat.Number(s.AverageLogDiskWriteLatencyMs)),
    };

    public IReadOnlyList<(string Label, string? Value)> AggregateRows() => new (string, string?)[]
    {
        ("Database I/O", null),
        ("Targeted Database Disks Transfers/sec", JetFormat.Number(Aggregate.TargetedDatabaseDisksTransfersPerSecond)),
        ("Achieved Transactional I/O per Second", JetFormat.Number(Aggregate.AchievedTransactionalIops)),
        ("Database Disks Transfers/sec", JetFormat.Number(Aggregate.DatabaseDisksTransfersPerSecond)),
        ("Database Disks Reads/sec", JetFormat.Number(Aggregate.DatabaseDisksReadsPerSecond)),
        ("Database Disks Writes/sec", JetFormat.Number(Aggregate.DatabaseDisksWritesPerSecond)),
        ("Average Database Disk Read Latency (ms)", JetFormat.Number(Aggregate.AverageDatabaseDiskReadLatencyMs)),
        ("Average Database Disk Write Latency (ms)", JetFormat.Number(Aggregate.AverageDatabaseDiskWriteLatencyMs)),
        ("Transaction Log I/O", null),
        ("Log Disks Writes/sec", JetFormat.Number(Aggregate.LogDisksWritesPerSecond)),
        ("Average Log Disk Write Latency (ms)", JetFormat.Number(Aggregate.AverageLogDiskWriteLatencyMs)),
    };

    public IReadOnlyList<(string Label, string? Value)> BackupRows() => Backup is null ? Array.Empty<(string, string?)>() : new (string, string?)[]
    {
        ("Database Read Operations", null),
        ("MB read/sec per database", JetFormat.Number(Backup.MBReadPerSecondPerDatabase, 2)),
        ("MB read/sec total per server", JetFormat.Number(Backup.MBReadPerSecondPerServer, 2)),
        ($"MB read/sec total for test environment ({Wording.Count(Backup.Servers, "server")})", JetFormat.Number(Backup.MBReadPerSecondAllServers, 2)),
    };

    public IReadOnlyList<(string Label, string? Value)> SoftRecoveryRows() => SoftRecovery is null ? Array.Empty<(string, string?)>() : new (string, string?)[]
    {
        ("Transaction Log Recovery", null),
        ("Average time to play one Log file (sec)", JetFormat.Number(SoftRecovery.AverageSecondsPerLog)),
    };
}
