using System.Globalization;
using System.Text;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The console summary: verdict and its reasons first, then sizing, the Jetstress per-instance
/// tables (short headings, legend below) and the latency percentiles. Pure function of the results.
/// </summary>
public static class TextReport
{
    public static string Render(TestResults results, ReportOptions? options = null)
    {
        var o = options ?? ReportOptions.Default;
        var r = results;
        var sb = new StringBuilder();

        // A re-judgement says so before anything else: its verdict is not the one the run had live.
        if (FailureModeReport.RejudgementLine(r) is { } rejudged) sb.Append(rejudged).Append("\n\n");
        sb.Append($"{ReportText.ToolName} {r.ReportName} test on {r.Environment.MachineName}: {r.Verdict.Result.ToUpperInvariant()}\n");
        if (r.Verdict.Reasons.Count == 0)
            sb.Append(r.Verdict.Result == Verdicts.Pass ? "  All thresholds met.\n" : "  No reason was recorded.\n");
        foreach (var reason in r.Verdict.Reasons)
        {
            sb.Append("  - ").Append(reason.Message);
            if (reason.Measured is double m && reason.Limit is double l)
                sb.Append($" (measured {JetFormat.Number(m)}, limit {JetFormat.Number(l)})");
            sb.Append('\n');
        }
        if (!r.Environment.DirectIo) sb.Append("\n!! BUFFERED I/O: ").Append(ReportText.BufferedIoWarning).Append('\n');
        PlatformFindings(sb, r);

        sb.Append('\n');
        Pairs(sb, "Test Summary", ReportText.TestSummary(r, o));
        sb.Append($"  Thresholds: {ReportText.ThresholdLine(r)}\n");
        if (r.MachineEvidence is { } evidence) sb.Append("  ").Append(Verdict.MachineLimit.Describe(evidence)).Append('\n');
        CalculatorReport.Text(sb, CalculatorReport.Of(r));
        CaptureReport.Text(sb, CaptureReport.Of(r));
        CapacityReport.Text(sb, r);
        SeriesReport.Text(sb, r);
        FailureModeReport.Text(sb, r, o);

        switch (r.TestType)
        {
            case TestType.DatabaseBackup:
                BackupTable(sb, r);
                break;
            case TestType.SoftRecovery:
                RecoveryTable(sb, r);
                break;
            default:
                Sizing(sb, r);
                break;
        }
        sb.Append('\n');
        Pairs(sb, "System Parameters", ReportText.SystemParameters(r));

        var counters = InstanceCounters.From(r);
        IoTable(sb, "Transactional I/O Performance", counters.Transactional);
        if (r.TestType is not TestType.DatabaseBackup)
        {
            var bdm = new TextTable("Instance", "BDM reads/s", "BDM read bytes");
            foreach (var m in counters.Maintenance) bdm.Add(m.Instance, JetFormat.Number(m.ReadsPerSecond), JetFormat.Number(m.ReadsAverageBytes));
            sb.Append("\nBackground Database Maintenance I/O Performance\n");
            bdm.WriteTo(sb);
            // Printed with one copy too (zeros), as Jetstress does: the reader sees it was not forgotten.
            // Jetstress's soft recovery report has no replication table (nothing replicates a replay).
            if (r.TestType is not TestType.SoftRecovery)
            {
                var rep = new TextTable("Instance", "Log reads/s", "Log read bytes");
                foreach (var x in counters.Replication) rep.Add(x.Instance, JetFormat.Number(x.LogReadsPerSecond), JetFormat.Number(x.LogReadsAverageBytes));
                sb.Append("\nLog Replication I/O Performance\n");
                rep.WriteTo(sb);
            }
            IoTable(sb, "Total I/O Performance", counters.Total);
        }
        sb.Append("  Columns: DB/Log reads and writes; ms = average latency, /s = operations per second, B = average bytes.\n");

        var pct = new TextTable("Instance", "Stream", "ops/s", "mean ms", "p50", "p90", "p99", "p99.9", "max");
        foreach (var (instance, stream) in ReportText.InstanceStreams(r))
        {
            var l = stream.LatencyMs;
            pct.Add(instance.Name, stream.Stream, JetFormat.Number(stream.OperationsPerSecond), JetFormat.Number(l.Mean),
                JetFormat.Number(l.P50), JetFormat.Number(l.P90), JetFormat.Number(l.P99), JetFormat.Number(l.P999), JetFormat.Number(l.Max));
        }
        foreach (var merged in ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)))
        {
            var l = merged.LatencyMs;
            pct.Add("All instances", merged.Stream, JetFormat.Number(merged.OperationsPerSecond), JetFormat.Number(l.Mean),
                JetFormat.Number(l.P50), JetFormat.Number(l.P90), JetFormat.Number(l.P99), JetFormat.Number(l.P999), JetFormat.Number(l.Max));
        }
        // No I/O stream measured (a run stopped before its window): no table of nothing.
        if (ReportText.InstanceStreams(r).Any())
        {
            sb.Append("\nLatency percentiles (ms, from merged per-I/O histograms)\n");
            pct.WriteTo(sb);
        }

        if (r.HostCounters.Count > 0 || r.InstanceSeries.Count > 0)
        {
            var table = HostSystemTable.From(r);
            var host = new TextTable("Counter", "Average", "Minimum", "Maximum");
            foreach (var row in table.Rows) host.Add(row.Label, row.Format(row.Average), row.Format(row.Minimum), row.Format(row.Maximum));
            sb.Append("\nHost System Performance\n");
            host.WriteTo(sb);
            foreach (var line in table.Lines()) sb.Append("  ").Append(line).Append('\n');
        }

        if (r.TuningLog.Count > 0)
        {
            var tuning = new TextTable(ReportText.TuningHeaders(r).ToArray());
            foreach (var row in ReportText.TuningRows(r, o.TimeZone)) tuning.Add(row);
            sb.Append($"\nTuning Steps (outcome: {r.TuningOutcome})\n");
            tuning.WriteTo(sb);
        }

        if (r.Checksum is { } cs)
            sb.Append($"\nChecksum: {Wording.Count(cs.PagesChecked, "page")} ({cs.BadPages} bad), {Wording.Count(cs.LogsChecked, "log")} ({cs.BadLogs} bad) in {JetFormat.Number(cs.ElapsedSeconds, 1)} s\n");

        sb.Append('\n').Append(ReportText.SystemLogSummary(r)).Append('\n');
        if (r.SystemLog is { } log)
            foreach (var e in log.Events.Where(e => e.IsStorageError).OrderBy(e => e.OtherDevice).Take(10))
                sb.Append($"  {JetFormat.Time(e.TimeUtc, o.TimeZone)} {e.Provider}{(e.EventId is int id ? " " + id : "")} {e.Level}: {e.Message}{(e.OtherDevice ? " (another device: not judged)" : "")}\n");
        sb.Append($"\nI/O errors: {r.Errors.Count}\n");
        foreach (var e in r.Errors.Take(10))
            sb.Append($"  {JetFormat.Time(e.TimeUtc, o.TimeZone)} {e.Instance} {e.Stream} {e.File} @{e.Offset}+{e.Length}: {e.ErrorName} ({e.ErrorCode}) {e.Message}\n");
        if (r.Errors.Count > 10) sb.Append($"  ... and {r.Errors.Count - 10} more (see the HTML or JSON report)\n");
        // Jetstress's Test Log, last as in its report: tuning steps, dispatch settings, verdict inputs.
        if (r.TestLog.Count > 0)
        {
            sb.Append("\nTest Log\n");
            foreach (var line in r.TestLog) sb.Append("  ").Append(ReportText.TestLogLine(line, o.TimeZone)).Append('\n');
        }
        return sb.ToString();
    }

    /// <summary>The console summary of a multi-host run: overall verdict, per-host sizing, merged streams.</summary>
    public static string Render(MergedResults merged)
    {
        var sb = new StringBuilder();
        sb.Append($"{ReportText.ToolName} run on {Wording.Count(merged.Hosts.Count, "host")}: {merged.Result.ToUpperInvariant()}\n");
        if (merged.Reasons.Count == 0) sb.Append(merged.Result == Verdicts.Pass ? "  All thresholds met on every host.\n" : "  No reason was recorded.\n");
        foreach (var reason in merged.Reasons) sb.Append("  - ").Append(reason.Message).Append('\n');
        if (merged.Hosts.Any(h => !h.Environment.DirectIo))
            sb.Append("\n!! BUFFERED I/O on ").Append(string.Join(", ", merged.Hosts.Where(h => !h.Environment.DirectIo).Select(h => h.Environment.MachineName)))
              .Append(": ").Append(ReportText.BufferedIoWarning).Append('\n');

        var hosts = new TextTable("Host", "Result", "Target IOPS", "Achieved IOPS", "Instances", "I/O errors");
        foreach (var h in merged.Hosts)
            hosts.Add(h.Environment.MachineName, h.Verdict.Result, JetFormat.Number(h.Sizing.TargetTransactionalIops),
                JetFormat.Number(TransactionalIops.Achieved(h.Instances)), JetFormat.Integer(h.Instances.Count), JetFormat.Integer(h.Errors.Count));
        hosts.Add("All hosts", merged.Result, JetFormat.Number(merged.TargetTransactionalIops), JetFormat.Number(merged.AchievedTransactionalIops),
            JetFormat.Integer(merged.Hosts.Sum(h => h.Instances.Count)), JetFormat.Integer(merged.ErrorCount));
        sb.Append("\nHosts\n");
        hosts.WriteTo(sb);
        sb.Append(MeasuringWindow(merged));
        if (merged.FailureModes.Count > 0)
        {
            sb.Append("\nFailure mode\n");
            foreach (var (host, line) in merged.FailureModes) sb.Append("  ").Append(host).Append(": ").Append(line).Append('\n');
        }

        var streams = new TextTable("Stream", "ops/s", "avg bytes", "mean ms", "p50", "p90", "p99", "p99.9", "max");
        foreach (var s in merged.Streams)
        {
            var l = s.LatencyMs;
            streams.Add(s.Stream, JetFormat.Number(s.OperationsPerSecond), JetFormat.Number(s.AverageBytes), JetFormat.Number(l.Mean),
                JetFormat.Number(l.P50), JetFormat.Number(l.P90), JetFormat.Number(l.P99), JetFormat.Number(l.P999), JetFormat.Number(l.Max));
        }
        sb.Append("\nAll hosts, all instances (rates summed, percentiles from merged histograms)\n");
        streams.WriteTo(sb);
        CalculatorReport.Text(sb, Verdict.CalculatorCheck.ForDeployment(merged.Hosts));
        CaptureReport.Text(sb, Verdict.CaptureCheck.ForDeployment(merged.Hosts));
        if (merged.Capacity is { } capacity) CapacityReport.Text(sb, capacity, merged.Hosts[0].Profile, DeploymentCapacityTitle(merged));
        else if (merged.CapacityUnavailable is { } why) sb.Append("\nDeployment capacity\n  No deployment answer: ").Append(why).Append(".\n");
        return sb.ToString();
    }

    /// <summary>The heading of a deployment's capacity search (text and HTML alike).</summary>
    public static string DeploymentCapacityTitle(MergedResults merged) => $"Deployment capacity ({merged.Hosts.Count} hosts stepping together)";

    /// <summary>When the hosts started measuring: the agreed instant and the largest skew between their actual starts.</summary>
    private static string MeasuringWindow(MergedResults merged)
    {
        if (merged.MeasuringStartSkewSeconds is not double skew) return "";
        if (merged.Capacity is not null)
            return $"  The hosts stepped together: in every step their measuring starts differ by at most {JetFormat.Number(skew, 3)} s.\n";
        var agreed = merged.Hosts.Select(h => h.Settings.MeasureAtUtc).OfType<DateTime>().ToList();
        string start = agreed.Count == merged.Hosts.Count
            ? string.Create(CultureInfo.InvariantCulture, $"  Agreed measuring start: {agreed.Min():yyyy-MM-dd HH:mm:ss.fff} UTC; ")
            : "  The hosts agreed no measuring start; ";
        return start + $"their measuring starts differ by at most {JetFormat.Number(skew, 3)} s.\n";
    }

    /// <summary>The platform's unsupported settings and doubts (volumes and host), so a reader of the verdict sees what it was measured on.</summary>
    private static void PlatformFindings(StringBuilder sb, TestResults r)
    {
        var env = r.Environment;
        var findings = env.Volumes.SelectMany(v => ReportText.Findings(v, env).Select(f => (Place: v.Path, f)))
            .Concat((env.Platform?.Findings ?? new List<Finding>()).Select(f => (Place: ReportText.HostFindingPlace, f)))
            .Where(x => x.f.Severity is Inspection.Severities.Warning or Inspection.Severities.Error).ToList();
        if (findings.Count == 0) return;
        sb.Append("\nPlatform findings\n");
        foreach (var (place, f) in findings) sb.Append($"  {f.Severity} {f.Code} ({place}): {f.Message}\n");
    }

    private static void Pairs(StringBuilder sb, string title, IReadOnlyList<(string Label, string Value)> rows)
    {
        sb.Append(title).Append('\n');
        int w = rows.Max(x => x.Label.Length);
        foreach (var (label, value) in rows) sb.Append("  ").Append(label.PadRight(w)).Append("  ").Append(value).Append('\n');
    }

    private static void Sizing(StringBuilder sb, TestResults r)
    {
        sb.Append('\n');
        // Only a figure the run never measured is empty among these numbers: the text says so in words.
        Pairs(sb, "Database Sizing and Throughput", ReportText.Sizing(r).Select(p => p.Value == ReportText.NotMeasured ? (p.Label, "not measured") : p).ToList());
        double target = r.Sizing.TargetTransactionalIops;
        if (target > 0 && PartialWindow.TransactionsMeasured(r))
            sb.Append($"  Achieved is {Wording.Percent(TransactionalIops.Achieved(r) / target * 100)} of target.\n");
    }

    private static void IoTable(StringBuilder sb, string title, IReadOnlyList<IoCounterRow> rows)
    {
        var t = new TextTable("Instance", "DB rd ms", "DB wr ms", "DB rd/s", "DB wr/s", "DB rd B", "DB wr B",
            "Log rd ms", "Log wr ms", "Log rd/s", "Log wr/s", "Log rd B", "Log wr B");
        foreach (var row in rows)
            t.Add(new[] { row.Instance }.Concat(row.Values().Select(v => JetFormat.Number(v))).ToArray());
        sb.Append('\n').Append(title).Append('\n');
        t.WriteTo(sb);
    }

    private static void BackupTable(StringBuilder sb, TestResults r)
    {
        var b = r.Backup ?? new BackupResult();
        var t = new TextTable("Database Instance", "Database Size (MBytes)", "Elapsed Backup Time", "MBytes Transferred/sec");
        foreach (var i in b.Instances) t.Add(i.Instance, JetFormat.Number(i.DatabaseSizeMB, 2), JetFormat.Elapsed(i.ElapsedSeconds), JetFormat.Number(i.MBPerSecond, 2));
        t.Add("Avg", "", "", JetFormat.Number(b.AverageMBPerSecond, 2));
        t.Add("Sum", "", "", JetFormat.Number(b.TotalMBPerSecond, 2));
        sb.Append("\nDatabase Backup Statistics - All\n");
        t.WriteTo(sb);
        sb.Append("  ").Append(ReportText.BackupSummaryNote).Append('\n');
    }

    private static void RecoveryTable(StringBuilder sb, TestResults r)
    {
        var s = r.SoftRecovery ?? new SoftRecoveryResult();
        var t = new TextTable("Database Instance", "Log files replayed", "Elapsed seconds");
        foreach (var i in s.Instances) t.Add(i.Instance, JetFormat.Integer(i.LogsReplayed), JetFormat.Number(i.ElapsedSeconds));
        var rows = RecoveryAvgSum(s);
        t.Add("Avg", JetFormat.Number(rows.AvgLogs, 0), JetFormat.Number(rows.AvgSeconds));
        t.Add("Sum", JetFormat.Integer(rows.SumLogs), JetFormat.Number(rows.SumSeconds));
        sb.Append("\nSoft Recovery Statistics - All\n");
        t.WriteTo(sb);
        if (rows.SumLogs > 0) sb.Append($"  Average time to play one log file: {JetFormat.Number(rows.SumSeconds / rows.SumLogs)} s\n");
    }

    /// <summary>Jetstress Avg and Sum rows of the soft recovery table.</summary>
    internal static (double AvgLogs, double AvgSeconds, long SumLogs, double SumSeconds) RecoveryAvgSum(SoftRecoveryResult s) =>
        s.Instances.Count == 0 ? (0, 0, 0, 0)
            : (s.Instances.Average(i => i.LogsReplayed), s.Instances.Average(i => i.ElapsedSeconds),
               s.Instances.Sum(i => (long)i.LogsReplayed), s.Instances.Sum(i => i.ElapsedSeconds));
}
