using System.Xml.Linq;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The report as XML in the Jetstress <c>output</c> structure: name/value <c>element</c>s for the
/// summary sections, <c>test-issues/element/@value</c> for the verdict reasons, and
/// <c>object/instance/counter[@name,@average]</c> for the per-instance tables
/// (disk-subsystem-of-transactional, -of-dbmaintenance, -of-logreplication, disk-subsystem-total),
/// host counters with average/minimum/maximum. Our extras (percentiles, statistics of backup and
/// soft recovery runs, the failure mode: <see cref="FailureModeReport.Xml"/>) use the same patterns.
/// </summary>
public static class XmlReport
{
    public static string Render(TestResults results, ReportOptions? options = null)
    {
        var o = options ?? ReportOptions.Default;
        var r = results;
        var counters = InstanceCounters.From(r);
        var root = new XElement("output",
            new XAttribute("generator", ReportText.ToolName),
            new XAttribute("version", r.EngineVersion),
            new XAttribute("test-type", r.ReportName),
            new XAttribute("test-id", r.TestId),
            // A re-judgement says so first: its verdict is not the one the run had live.
            FailureModeReport.RejudgementLine(r) is { } rejudged ? new XElement("re-judgement", new XAttribute("value", rejudged)) : null,
            Elements("test-summary", ReportText.TestSummary(r, o)),
            new XElement("test-issues", r.Verdict.Reasons.Select(x => new XElement("element",
                new XAttribute("value", x.Message), new XAttribute("code", x.Code)))),
            Elements("database-sizing", ReportText.Sizing(r)),
            CapacityReport.Xml(r),
            CalculatorReport.Xml(CalculatorReport.Of(r)),
            Elements("jetstress-system", ReportText.SystemParameters(r)),
            Elements("database-configuration", r.Instances.OrderBy(i => i.Index).Select(i => (i.Name, ReportText.DatabaseConfiguration(i))).ToList()),
            Counters("disk-subsystem-of-transactional", counters.Transactional.Select(row => (row.Instance, Pairs(IoCounterRow.CounterNames, row.Values())))),
            Counters("disk-subsystem-of-dbmaintenance", counters.Maintenance.Select(m => (m.Instance, Pairs(MaintenanceRow.ColumnNames, new[] { m.ReadsPerSecond, m.ReadsAverageBytes })))),
            Counters("disk-subsystem-of-logreplication", counters.Replication.Select(x => (x.Instance, Pairs(ReplicationRow.ColumnNames, new[] { x.LogReadsPerSecond, x.LogReadsAverageBytes })))),
            Counters("disk-subsystem-total", counters.Total.Select(row => (row.Instance, Pairs(IoCounterRow.CounterNames, row.Values())))),
            HostSystem(r),
            new XElement("latency-percentiles",
                new XElement("object", new XAttribute("name", "Latency (msec)"),
                    r.Instances.OrderBy(i => i.Index).Select(i => new XElement("instance", new XAttribute("name", i.Name),
                        i.Streams.OrderBy(s => ResultsMerge.StreamRank(s.Stream)).Select(Percentiles))),
                    new XElement("instance", new XAttribute("name", "_Total"),
                        ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)).Select(Percentiles)))));

        if (r.TestType == TestType.DatabaseBackup && r.Backup is { } b)
        {
            root.Add(new XElement("database-backup",
                b.Instances.Select(i => new XElement("instance", new XAttribute("name", i.Instance),
                    new XAttribute("database-size-mbytes", JetFormat.Number(i.DatabaseSizeMB, 2)),
                    new XAttribute("elapsed-backup-time", JetFormat.Elapsed(i.ElapsedSeconds)),
                    new XAttribute("elapsed-seconds", JetFormat.Number(i.ElapsedSeconds)),
                    new XAttribute("mbytes-transferred-per-sec", JetFormat.Number(i.MBPerSecond, 2)))),
                new XElement("element", new XAttribute("name", "Avg"), new XAttribute("value", JetFormat.Number(b.AverageMBPerSecond, 2))),
                new XElement("element", new XAttribute("name", "Sum"), new XAttribute("value", JetFormat.Number(b.TotalMBPerSecond, 2)))));
        }
        if (r.TestType == TestType.SoftRecovery && r.SoftRecovery is { } s)
        {
            var t = TextReport.RecoveryAvgSum(s);
            root.Add(new XElement("soft-recovery",
                s.Instances.Select(i => new XElement("instance", new XAttribute("name", i.Instance),
                    new XAttribute("log-files-replayed", JetFormat.Integer(i.LogsReplayed)),
                    new XAttribute("elapsed-seconds", JetFormat.Number(i.ElapsedSeconds)))),
                new XElement("element", new XAttribute("name", "Avg"), new XAttribute("log-files-replayed", JetFormat.Number(t.AvgLogs, 0)), new XAttribute("elapsed-seconds", JetFormat.Number(t.AvgSeconds))),
                new XElement("element", new XAttribute("name", "Sum"), new XAttribute("log-files-replayed", JetFormat.Integer(t.SumLogs)), new XAttribute("elapsed-seconds", JetFormat.Number(t.SumSeconds)))));
        }
        root.Add(new XElement("test-log", r.TestLog.Select(l => new XElement("element", new XAttribute("value", ReportText.TestLogLine(l, o.TimeZone))))));
        root.Add(new XElement("errors", new XAttribute("count", r.Errors.Count),
            r.Errors.Select(e => new XElement("error",
                new XAttribute("time", JetFormat.Iso(e.TimeUtc)), new XAttribute("instance", e.Instance), new XAttribute("stream", e.Stream),
                new XAttribute("file", e.File), new XAttribute("offset", e.Offset), new XAttribute("length", e.Length),
                new XAttribute("code", e.ErrorCode), new XAttribute("name", e.ErrorName), new XAttribute("message", e.Message)))));
        root.Add(FailureModeReport.Xml(r));

        var doc = new XDocument(new XDeclaration("1.0", "utf-8", null), root);
        using var writer = new Utf8StringWriter();
        doc.Save(writer, SaveOptions.None);
        return writer.ToString().Replace("\r\n", "\n", StringComparison.Ordinal) + "\n";
    }

    /// <summary>The host table: numbers only (seconds counters with 6 decimals, empty where none exists), each note beside its counter.</summary>
    private static XElement HostSystem(TestResults r)
    {
        var table = HostSystemTable.From(r);
        var source = r.HostCounters.GroupBy(c => c.Name).ToDictionary(g => g.Key, g => g.First().Source);
        return new XElement("host-system",
            new XElement("object", new XAttribute("name", "Host"),
                new XElement("instance", new XAttribute("name", r.Environment.MachineName),
                    table.Rows.Select(row => new XElement("counter",
                        new XAttribute("name", row.Counter),
                        new XAttribute("average", row.Format(row.Average, withMilliseconds: false)),
                        new XAttribute("minimum", row.Format(row.Minimum, withMilliseconds: false)),
                        new XAttribute("maximum", row.Format(row.Maximum, withMilliseconds: false)),
                        source.TryGetValue(row.Counter, out var s) ? new XAttribute("source", s) : null,
                        row.Note is int n ? new XAttribute("note", table.Notes[n - 1]) : null)))),
            table.Remarks.Select(n => new XElement("note", new XAttribute("value", n))));
    }

    private static XElement Elements(string name, IReadOnlyList<(string Label, string Value)> rows) =>
        new(name, rows.Select(x => new XElement("element", new XAttribute("name", x.Label), new XAttribute("value", x.Value))));

    private static IEnumerable<(string, double)> Pairs(IReadOnlyList<string> names, double[] values) => names.Zip(values);

    private static XElement Counters(string section, IEnumerable<(string Instance, IEnumerable<(string Name, double Value)> Counters)> rows) =>
        new(section, new XElement("object", new XAttribute("name", IoCounterRow.ObjectName),
            rows.Select(row => new XElement("instance", new XAttribute("name", row.Instance),
                row.Counters.Select(c => new XElement("counter", new XAttribute("name", c.Name), new XAttribute("average", JetFormat.Number(c.Value))))))));

    private static XElement Percentiles(StreamResult s) =>
        new("counter",
            new XAttribute("name", s.Stream),
            new XAttribute("operations", s.Operations),
            new XAttribute("average", JetFormat.Number(s.LatencyMs.Mean)),
            new XAttribute("p50", JetFormat.Number(s.LatencyMs.P50)),
            new XAttribute("p90", JetFormat.Number(s.LatencyMs.P90)),
            new XAttribute("p99", JetFormat.Number(s.LatencyMs.P99)),
            new XAttribute("p999", JetFormat.Number(s.LatencyMs.P999)),
            new XAttribute("maximum", JetFormat.Number(s.LatencyMs.Max)));

    private sealed class Utf8StringWriter : StringWriter
    {
        public Utf8StringWriter() : base(JetFormat.Culture) { }
        public override System.Text.Encoding Encoding => new System.Text.UTF8Encoding(false);
    }
}
