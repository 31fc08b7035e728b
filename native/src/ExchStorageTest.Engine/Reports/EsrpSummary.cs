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
    /// <summary>The ESRP "Reliability" statements, each as what the given results show (or that they do not show it).</summary>
    public required IReadOnlyList<EsrpItem> Reliability { get; init; }

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
            Reliability = ReliabilityItems(perf, backup ?? everything, softRecovery ?? everything),
        };
    }

    /// <summary>
    /// ESRP section "Reliability": no storage errors in the system log of the test window, none in the
    /// database and log checksum pass (after Stress), backup and recovery completed. Each row says what
    /// the results show; a check the given results did not include says so instead of claiming it.
    /// </summary>
    private static IReadOnlyList<EsrpItem> ReliabilityItems(IReadOnlyList<TestResults> perf, IReadOnlyList<TestResults> backup, IReadOnlyList<TestResults> recovery)
    {
        var items = new List<EsrpItem>();
        var withErrors = perf.Where(h => h.SystemLog is { Checked: true, StorageErrorCount: > 0 }).ToList();
        var notChecked = perf.Where(h => h.SystemLog is null or { Checked: false }).ToList();
        string systemLog =
            withErrors.Count > 0 ? string.Join("; ", withErrors.Select(h => $"{h.Environment.MachineName}: {h.SystemLog!.StorageErrorCount} storage error(s)"))
            : perf.Count == 0 || notChecked.Count == perf.Count ? "not checked"
            : notChecked.Count > 0 ? $"no storage errors where checked; not checked on {string.Join(", ", notChecked.Select(h => h.Environment.MachineName))}"
            : "no storage errors in the test window";
        items.Add(new EsrpItem("Errors in the system log during the test", systemLog, notChecked.Count < perf.Count));

        long ioErrors = perf.Sum(h => (long)h.Errors.Count);
        items.Add(new EsrpItem("I/O errors during the test", ioErrors == 0 ? "none" : JetFormat.Integer(ioErrors), true));

        var checksums = perf.Where(h => h.Checksum is not null).Select(h => h.Checksum!).ToList();
        string checksum = checksums.Count == 0 ? "not run (no Stress result with a checksum pass given)"
            : checksums.Sum(c => c.BadPages) + checksums.Sum(c => (long)c.BadLogs) == 0
                ? $"no errors ({JetFormat.Integer(checksums.Sum(c => c.PagesChecked))} database pages, {JetFormat.Integer(checksums.Sum(c => (long)c.LogsChecked))} log files checked)"
                : $"{JetFormat.Integer(checksums.Sum(c => c.BadPages))} bad pages, {JetFormat.Integer(checksums.Sum(c => (long)c.BadLogs))} bad log files";
        items.Add(new EsrpItem("Errors in the database and log checksum pass", checksum, checksums.Count > 0));

        items.Add(Completed("Database backup", Planning.TestType.DatabaseBackup, backup.Where(h => h.Backup is { Instances.Count: > 0 }).ToList()));
        items.Add(Completed("Soft recovery", Planning.TestType.SoftRecovery, recovery.Where(h => h.SoftRecovery is { Instances.Count: > 0 }).ToList()));
        return items;

        static EsrpItem Completed(string what, Planning.TestType type, List<TestResults> runs)
        {
            if (runs.Count == 0) return new EsrpItem(what, $"not run (no {type} result given)", false);
            var failed = runs.Where(h => h.Completion != "Complete" || h.Errors.Count > 0).ToList();
            return new EsrpItem(what, failed.Count == 0 ? "completed without errors"
                : string.Join("; ", failed.Select(h => $"{h.Environment.MachineName}: {h.Completion}, {h.Errors.Count} I/O error(s)")), true);
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

    /// <summary>
    /// The same tables as one self-contained HTML page (fieldset/legend and grid_row_header cells like
    /// the test report), ready to paste into an ESRP document.
    /// </summary>
    public string RenderHtml()
    {
        static string E(string s) => System.Net.WebUtility.HtmlEncode(s);
        var h = new StringBuilder();
        h.Append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>ESRP Test Results Summary</title>\n<style>\n")
         .Append("body { font-family: Segoe UI, Tahoma, Arial, sans-serif; font-size: 12px; margin: 16px; }\n")
         .Append("fieldset { border: 1px solid #9aa7b4; margin: 12px 0; } legend { font-weight: bold; color: #1d3f66; }\n")
         .Append("table.grid { border-collapse: collapse; } table.grid td, table.grid th { border: 1px solid #c8d0d8; padding: 2px 6px; }\n")
         .Append("th.grid_header, td.grid_section { background: #dfe7ef; font-weight: bold; } td.grid_row_header { background: #f1f4f7; font-weight: bold; }\n")
         .Append("td.grid_data { text-align: right; } td.to_supply { color: #b36b00; font-style: italic; }\n")
         .Append("@media print { fieldset { break-inside: avoid; } }\n</style>\n</head>\n<body>\n<h1>ESRP Test Results Summary</h1>\n");

        void Table(string legend, IEnumerable<(string Label, string? Value)> rows, string? after = null)
        {
            h.Append("<fieldset>\n<legend>").Append(E(legend)).Append("</legend>\n<table class=\"grid\">\n");
            foreach (var (label, value) in rows)
            {
                if (value is null)
                    h.Append("<tr><td class=\"grid_section\" colspan=\"2\">").Append(E(label)).Append("</td></tr>\n");
                else
                    h.Append("<tr><td class=\"grid_row_header\">").Append(E(label)).Append("</td><td class=\"")
                     .Append(value == ToSupply ? "to_supply" : "grid_data").Append("\">").Append(E(value)).Append("</td></tr>\n");
            }
            h.Append("</table>\n");
            if (after is not null) h.Append("<p>").Append(E(after)).Append("</p>\n");
            h.Append("</fieldset>\n");
        }

        foreach (var table in Deployment) Table(table.Title, table.Items.Select(i => (i.Label, (string?)i.Value)));
        Table("Reliability", Reliability.Select(i => (i.Label, (string?)i.Value)));
        foreach (var s in Servers) Table($"Individual Server Metrics - {s.Host}", ServerRows(s));
        Table("Aggregate Performance Across All Servers", AggregateRows(), Aggregate.HeadroomSentence());
        if (Backup is not null) Table("Database Read-only Performance", BackupRows());
        if (SoftRecovery is not null) Table("Transaction Log Recovery/Replay Performance", SoftRecoveryRows());
        h.Append("</body>\n</html>\n");
        return h.ToString();
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
