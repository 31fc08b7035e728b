using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>One line of an ESRP tested-deployment table; <see cref="Known"/> is false where the user must supply the value.</summary>
public sealed record EsrpItem(string Label, string Value, bool Known);

public sealed record EsrpTable(string Title, IReadOnlyList<EsrpItem> Items);

/// <summary>
/// The ESRP document's "Test results summary" and "Tested deployment" tables (SPEC section 7), from
/// one Performance result per host plus, when given, the DatabaseBackup and SoftRecovery results.
/// Values the hosts cannot discover are marked <see cref="ToSupply"/> unless the caller supplies them
/// (keyed by the row label).
/// </summary>
public sealed class EsrpSummary
{
    public const string ToSupply = "(to be supplied)";

    public required IReadOnlyList<EsrpServerMetrics> Servers { get; init; }
    public required EsrpAggregateMetrics Aggregate { get; init; }
    public EsrpBackupSummary? Backup { get; init; }
    public EsrpSoftRecoverySummary? SoftRecovery { get; init; }
    public required IReadOnlyList<EsrpTable> Deployment { get; init; }

    public static EsrpSummary From(IReadOnlyList<TestResults> performance,
        IReadOnlyList<TestResults>? backup = null,
        IReadOnlyList<TestResults>? softRecovery = null,
        IReadOnlyDictionary<string, string>? supplied = null)
    {
        var perf = performance.Where(r => r.TestType is Planning.TestType.Performance or Planning.TestType.Stress or Planning.TestType.Throughput).ToList();
        if (perf.Count == 0) perf = performance.ToList();
        var servers = perf.Select(EsrpServerMetrics.From).ToList();
        var everything = performance.Concat(backup ?? Array.Empty<TestResults>()).Concat(softRecovery ?? Array.Empty<TestResults>()).ToList();
        return new EsrpSummary
        {
            Servers = servers,
            Aggregate = EsrpAggregateMetrics.From(servers),
            Backup = EsrpBackupSummary.From(backup ?? everything),
            SoftRecovery = EsrpSoftRecoverySummary.From(softRecovery ?? everything),
            Deployment = EsrpDeployment.Tables(perf, supplied ?? new Dictionary<string, string>()),
        };
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
        ($"MB read/sec total for test environment ({Backup.Servers} server{(Backup.Servers == 1 ? "" : "s")})", JetFormat.Number(Backup.MBReadPerSecondAllServers, 2)),
    };

    public IReadOnlyList<(string Label, string? Value)> SoftRecoveryRows() => SoftRecovery is null ? Array.Empty<(string, string?)>() : new (string, string?)[]
    {
        ("Transaction Log Recovery", null),
        ("Average time to play one Log file (sec)", JetFormat.Number(SoftRecovery.AverageSecondsPerLog)),
    };
}
