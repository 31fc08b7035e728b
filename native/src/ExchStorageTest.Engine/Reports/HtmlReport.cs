using System.Text;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// One self-contained HTML file (inline CSS and SVG, no scripts, no network) laid out like the
/// Jetstress report: every section a &lt;fieldset&gt; with a &lt;legend&gt; in SPEC section 6 order,
/// label cells <c>&lt;td class="grid_row_header"&gt;</c> and the verdict cell class "success" or
/// "failure", each cell on a line of its own, so existing scrapers keep working (docs/jetstress.md says which
/// read what). Our extras (charts, percentiles, histograms, target vs achieved, tuning, errors, environment)
/// follow the Jetstress sections. DatabaseBackup and SoftRecovery reports open with their statistics table
/// (header, one row a database instance, Avg, Sum), as in Jetstress.
/// </summary>
public static class HtmlReport
{
    public static string Render(TestResults results, ReportOptions? options = null)
    {
        var o = options ?? ReportOptions.Default;
        var r = results;
        return HtmlPage.Render($"{ReportText.ToolName} {r.ReportName} Test Report - {r.Environment.MachineName}", "the results JSON",
            h => Body(h, r, o), generator: ReportText.ToolName + " " + r.EngineVersion);
    }

    private static void Body(StringBuilder h, TestResults r, ReportOptions o)
    {
        h.Append("<p class=\"subtitle\">Test ").Append(E(r.TestId)).Append(" &middot; times in ").Append(E(JetFormat.ZoneLabel(o.TimeZone))).Append("</p>\n");
        // A re-judgement says so first: its verdict is not the one the run had live.
        if (FailureModeReport.RejudgementLine(r) is { } rejudged)
            h.Append("<div class=\"banner\"><strong>Re-judgement.</strong> ").Append(E(rejudged)).Append(".</div>\n");
        if (!r.Environment.DirectIo)
            h.Append("<div class=\"banner\"><strong>Buffered I/O.</strong> ").Append(E(ReportText.BufferedIoWarning)).Append("</div>\n");

        // Backup and soft recovery reports open with their statistics table, as Jetstress's do (and the ESRP
        // documents that reprint them): readers of those reports take the first fieldset's rows by position.
        var counters = InstanceCounters.From(r);
        switch (r.TestType)
        {
            case TestType.DatabaseBackup:
                BackupStatistics(h, r);
                TestSummary(h, r, o);
                Pairs(h, "System Parameters", ReportText.SystemParameters(r));
                DatabaseConfiguration(h, r);
                IoTable(h, "Transactional I/O Performance", counters.Transactional);
                break;
            case TestType.SoftRecovery:
                RecoveryStatistics(h, r);
                TestSummary(h, r, o);
                Pairs(h, "System Parameters", ReportText.SystemParameters(r));
                DatabaseConfiguration(h, r);
                IoTable(h, "Transactional I/O Performance", counters.Transactional);
                Maintenance(h, counters);
                IoTable(h, "Total I/O Performance", counters.Total);
                break;
            default:
                TestSummary(h, r, o);
                CapacityReport.Html(h, r);
                Pairs(h, "Database Sizing and Throughput", ReportText.Sizing(r));
                Pairs(h, "System Parameters", ReportText.SystemParameters(r));
                DatabaseConfiguration(h, r);
                IoTable(h, "Transactional I/O Performance", counters.Transactional);
                Maintenance(h, counters);
                Replication(h, counters);
                IoTable(h, "Total I/O Performance", counters.Total);
                break;
        }
        HostSystem(h, r);
        TestLog(h, r, o);

        // Beyond Jetstress (after its sections, whose positions scrapers count on).
        TargetVsAchieved(h, r);
        FailureModeHtml.Section(h, r, o);
        CalculatorReport.Html(h, CalculatorReport.Of(r));
        CaptureReport.Html(h, CaptureReport.Of(r));
        Charts(h, r);
        Percentiles(h, r);
        Histograms(h, r);
        Tuning(h, r, o);
        Errors(h, r, o);
        Environment(h, r);
    }

    private static void Open(StringBuilder h, string legend) =>
        h.Append("<fieldset>\n<legend>").Append(E(legend)).Append("</legend>\n");

    private static void Close(StringBuilder h) => h.Append("</fieldset>\n");

    /// <summary>
    /// Label and value rows. Each cell is on a line of its own: Jetstress automation reads a value as the line after
    /// its label cell, between that line's first '&gt;' and last '&lt;' (ExchangeDsc's ExchJetstress, docs/jetstress.md).
    /// </summary>
    internal static void Pairs(StringBuilder h, string legend, IReadOnlyList<(string Label, string Value)> rows, Action<StringBuilder>? after = null)
    {
        Open(h, legend);
        h.Append("<table class=\"grid\">\n");
        foreach (var (label, value) in rows)
        {
            string cls = label == "Overall Test Result" ? (value == Verdicts.Pass ? "success" : "failure") : "grid_data text";
            h.Append("<tr>\n<td class=\"grid_row_header\">").Append(E(label)).Append("</td>\n<td class=\"").Append(cls).Append("\">")
             .Append(E(value)).Append("</td>\n</tr>\n");
        }
        h.Append("</table>\n");
        after?.Invoke(h);
        Close(h);
    }

    private static void TestSummary(StringBuilder h, TestResults r, ReportOptions o) =>
        Pairs(h, "Test Summary", ReportText.TestSummary(r, o), b =>
        {
            if (r.Verdict.Reasons.Count > 0)
            {
                b.Append("<ul class=\"issues\">\n");
                foreach (var reason in r.Verdict.Reasons) b.Append("<li>").Append(E(reason.Message)).Append("</li>\n");
                b.Append("</ul>\n");
            }
            b.Append("<p>Thresholds: ").Append(E(ReportText.ThresholdLine(r))).Append("</p>\n");
            if (r.MachineEvidence is { } host) b.Append("<p>").Append(E(Verdict.MachineLimit.Describe(host))).Append("</p>\n");
        });

    /// <summary>A grid with a header row; the first column is a row header. One cell a line, as in <see cref="Pairs"/>.</summary>
    internal static void Grid(StringBuilder h, IReadOnlyList<string> headers, IEnumerable<IReadOnlyList<string>> rows)
    {
        h.Append("<table class=\"grid\">\n<tr>\n");
        foreach (var head in headers) h.Append("<th class=\"grid_header\">").Append(E(head)).Append("</th>\n");
        h.Append("</tr>\n");
        foreach (var row in rows)
        {
            h.Append("<tr>\n");
            for (int c = 0; c < row.Count; c++)
                h.Append(c == 0 ? "<td class=\"grid_row_header\">" : "<td class=\"grid_data\">").Append(E(row[c])).Append("</td>\n");
            h.Append("</tr>\n");
        }
        h.Append("</table>\n");
    }

    private static void DatabaseConfiguration(StringBuilder h, TestResults r) =>
        Pairs(h, "Database Configuration", r.Instances.OrderBy(i => i.Index).Select(i => (i.Name, ReportText.DatabaseConfiguration(i))).ToList());

    private static void IoTable(StringBuilder h, string legend, IReadOnlyList<IoCounterRow> rows)
    {
        Open(h, legend);
        Grid(h, new[] { IoCounterRow.ObjectName }.Concat(IoCounterRow.ColumnNames).ToList(),
            rows.Select(row => (IReadOnlyList<string>)new[] { row.Instance }.Concat(row.Values().Select(v => JetFormat.Number(v))).ToList()));
        Close(h);
    }

    private static void Maintenance(StringBuilder h, InstanceCounters c)
    {
        Open(h, "Background Database Maintenance I/O Performance");
        Grid(h, new[] { IoCounterRow.ObjectName }.Concat(MaintenanceRow.ColumnNames).ToList(),
            c.Maintenance.Select(m => (IReadOnlyList<string>)new[] { m.Instance, JetFormat.Number(m.ReadsPerSecond), JetFormat.Number(m.ReadsAverageBytes) }));
        Close(h);
    }

    private static void Replication(StringBuilder h, InstanceCounters c)
    {
        Open(h, "Log Replication I/O Performance");
        Grid(h, new[] { IoCounterRow.ObjectName }.Concat(ReplicationRow.ColumnNames).ToList(),
            c.Replication.Select(x => (IReadOnlyList<string>)new[] { x.Instance, JetFormat.Number(x.LogReadsPerSecond), JetFormat.Number(x.LogReadsAverageBytes) }));
        Close(h);
    }

    private static void HostSystem(StringBuilder h, TestResults r)
    {
        var table = HostSystemTable.From(r);
        Open(h, "Host System Performance");
        Grid(h, new[] { "Counter", "Average", "Minimum", "Maximum" },
            table.Rows.Select(row => (IReadOnlyList<string>)new[] { row.Label, row.Format(row.Average), row.Format(row.Minimum), row.Format(row.Maximum) }));
        foreach (var line in table.Lines()) h.Append("<p class=\"note\">").Append(E(line)).Append("</p>\n");
        Close(h);
    }

    private static void TestLog(StringBuilder h, TestResults r, ReportOptions o)
    {
        Open(h, "Test Log");
        h.Append("<pre class=\"log\">");
        foreach (var line in r.TestLog) h.Append(E(ReportText.TestLogLine(line, o.TimeZone))).Append('\n');
        h.Append("</pre>\n");
        Close(h);
    }

    private static void BackupStatistics(StringBuilder h, TestResults r)
    {
        var b = r.Backup ?? new BackupResult();
        Open(h, "Database Backup Statistics - All");
        var rows = b.Instances.Select(i => (IReadOnlyList<string>)new[] { i.Instance, JetFormat.Number(i.DatabaseSizeMB, 2), JetFormat.Elapsed(i.ElapsedSeconds), JetFormat.Number(i.MBPerSecond, 2) })
            .Append(new[] { "Avg", "", "", JetFormat.Number(b.AverageMBPerSecond, 2) })
            .Append(new[] { "Sum", "", "", JetFormat.Number(b.TotalMBPerSecond, 2) });
        Grid(h, new[] { "Database Instance", "Database Size (MBytes)", "Elapsed Backup Time", "MBytes Transferred/sec" }, rows);
        h.Append("<p class=\"note\">").Append(E(ReportText.BackupSummaryNote)).Append("</p>\n");
        Close(h);
    }

    private static void RecoveryStatistics(StringBuilder h, TestResults r)
    {
        var s = r.SoftRecovery ?? new SoftRecoveryResult();
        var t = TextReport.RecoveryAvgSum(s);
        Open(h, "Soft Recovery Statistics - All");
        var rows = s.Instances.Select(i => (IReadOnlyList<string>)new[] { i.Instance, JetFormat.Integer(i.LogsReplayed), JetFormat.Number(i.ElapsedSeconds) })
            .Append(new[] { "Avg", JetFormat.Number(t.AvgLogs, 0), JetFormat.Number(t.AvgSeconds) })
            .Append(new[] { "Sum", JetFormat.Integer(t.SumLogs), JetFormat.Number(t.SumSeconds) });
        Grid(h, new[] { "Database Instance", "Log files replayed", "Elapsed seconds" }, rows);
        if (t.SumLogs > 0)
            h.Append("<p>Average time to play one log file: ").Append(E(JetFormat.Number(t.SumSeconds / t.SumLogs))).Append(" s</p>\n");
        Close(h);
    }

    private const string NeutralBar = "#7f7f7f", PassedBar = "#2ca02c", FailedBar = "#d62728";

    private static void TargetVsAchieved(StringBuilder h, TestResults r)
    {
        if (r.TestType is TestType.DatabaseBackup or TestType.SoftRecovery) return;
        double target = r.Sizing.TargetTransactionalIops, achieved = TransactionalIops.Achieved(r);
        Open(h, "Target vs Achieved");
        if (!PartialWindow.TransactionsMeasured(r))
        {
            // No bar of 0: the run ended before it measured a transaction.
            h.Append("<p>Achieved: not measured. ").Append(E(PartialWindow.Describe(r) ?? "")).Append(".</p>\n");
            Close(h);
            return;
        }
        // Red reads as failure: the achieved bar is red only when the verdict failed the target, green otherwise.
        bool missed = r.Verdict.Reasons.Any(reason => reason.Code == Verdict.VerdictJudge.TargetIopsNotMet);
        h.Append(SvgChart.Bars("Transactional I/O per second", "IOPS", new[] { ("Target Transactional I/O per Second", target), ("Achieved Transactional I/O per Second", achieved) },
            colours: new[] { NeutralBar, missed ? FailedBar : PassedBar })).Append('\n');
        if (target > 0)
            h.Append("<p>Achieved is ").Append(E(JetFormat.Number(achieved / target * 100, 1))).Append("% of the target (")
             .Append(E((achieved >= target ? "+" : "") + JetFormat.Number(achieved - target))).Append(" IOPS).</p>\n");
        Close(h);
    }

    /// <summary>
    /// Every chart of the run on one time axis: seconds from the start of the measured window to its end.
    /// A latency axis is set by the highest sample not above its stream's per-I/O p99.9 (from the
    /// histograms); samples above the axis are marked.
    /// </summary>
    private static void Charts(StringBuilder h, TestResults r)
    {
        if (r.TimeSeries.Count == 0) return;
        Open(h, "I/O and Latency over Time");
        var ordered = ResultsMerge.InTimeOrder(r.TimeSeries);
        var (origin, end) = TimeAxis(r)!.Value;
        double X(DateTime t) => (t - origin).TotalSeconds;
        var axis = (0.0, end);
        // The fault window shaded on every chart of the run, so a dip or a spike reads against it.
        var bands = FailureModeHtml.Bands(r);

        var total = ResultsMerge.AlignTimeSeries(new[] { r });
        var merged = ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)).ToDictionary(s => s.Stream, s => s.LatencyMs.P999);
        // The series analysis marks the "All instances" charts: its series are these lines.
        h.Append(SvgChart.Line("All instances: operations per second", "ops/s", SeriesOf(total, X, p => p.OperationsPerSecond, _ => double.NaN), axis,
            markers: SeriesReport.Markers(r, SeriesFindings.TransactionalIops), bands: bands)).Append('\n');
        h.Append(SvgChart.Line("All instances: average latency", "ms", SeriesOf(total, X, p => p.AverageLatencyMs, s => merged.GetValueOrDefault(s, double.NaN)), axis,
            markers: SeriesReport.Markers(r, SeriesFindings.DatabaseReadLatency, SeriesFindings.LogWriteLatency), bands: bands)).Append('\n');
        SeriesReport.Html(h, r);
        // One pass over the (time-ordered) samples: a 24 h run has hundreds of thousands of them.
        var perInstance = new SortedDictionary<int, Dictionary<string, (List<(double, double)> Ops, List<(double, double)> Latency)>>();
        foreach (var p in ordered)
        {
            if (!perInstance.TryGetValue(p.Instance, out var streams)) perInstance[p.Instance] = streams = new Dictionary<string, (List<(double, double)>, List<(double, double)>)>();
            if (!streams.TryGetValue(p.Stream, out var lists)) streams[p.Stream] = lists = (new List<(double, double)>(), new List<(double, double)>());
            double x = X(p.TimeUtc);
            lists.Ops.Add((x, p.OperationsPerSecond));
            lists.Latency.Add((x, p.AverageLatencyMs));
        }
        foreach (var (instance, streams) in perInstance)
        {
            string name = ReportText.InstanceName(r, instance);
            var result = r.Instances.Find(i => i.Index == instance);
            double P999(string stream) => result?.Stream(stream)?.LatencyMs.P999 ?? double.NaN;
            var sorted = streams.OrderBy(kv => ResultsMerge.StreamRank(kv.Key)).ThenBy(kv => kv.Key, StringComparer.Ordinal).ToList();
            h.Append(SvgChart.Line($"{name}: operations per second", "ops/s", sorted.Select(kv => new SvgChart.Series(kv.Key, kv.Value.Ops)).ToList(), axis, bands: bands)).Append('\n');
            h.Append(SvgChart.Line($"{name}: average latency", "ms", sorted.Select(kv => new SvgChart.Series(kv.Key, kv.Value.Latency, P999(kv.Key))).ToList(), axis, bands: bands)).Append('\n');
        }
        h.Append("<p>Every chart spans the measured window. A latency axis is set by the highest sample average not above its stream's per-I/O p99.9, so one spike cannot flatten the rest; a sample above the axis is drawn on the top edge and marked &#9650; (its value in the tooltip).</p>\n");
        if (bands is not null) h.Append("<p>").Append(E(FailureModeHtml.BandNote(r))).Append("</p>\n");
        Close(h);
    }

    /// <summary>
    /// The time axis every chart of a run shares: seconds from the start of the measured window (the first sample when
    /// the timeline has none) to its end or the last sample, whichever is later; null when the run has no time series.
    /// </summary>
    internal static (DateTime Origin, double EndSeconds)? TimeAxis(TestResults r)
    {
        if (r.TimeSeries.Count == 0) return null;
        DateTime first = r.TimeSeries[0].TimeUtc, last = first;
        foreach (var p in r.TimeSeries)
        {
            if (p.TimeUtc < first) first = p.TimeUtc;
            if (p.TimeUtc > last) last = p.TimeUtc;
        }
        var origin = r.Timeline.CollectionStartUtc ?? first;
        var end = r.Timeline.CollectionEndUtc is DateTime e && e > last ? e : last;
        return (origin, (end - origin).TotalSeconds);
    }

    private static IReadOnlyList<SvgChart.Series> SeriesOf(IReadOnlyList<SamplePoint> points, Func<DateTime, double> x, Func<SamplePoint, double> value, Func<string, double> clipAt) =>
        points.GroupBy(p => p.Stream).OrderBy(g => ResultsMerge.StreamRank(g.Key))
            .Select(g => new SvgChart.Series(g.Key, g.OrderBy(p => p.TimeUtc).Select(p => (x(p.TimeUtc), value(p))).ToList(), clipAt(g.Key)))
            .ToList();

    private static void Percentiles(StringBuilder h, TestResults r)
    {
        if (!ReportText.InstanceStreams(r).Any()) return; // no I/O stream measured: no table of nothing
        Open(h, "Latency Percentiles");
        var rows = new List<IReadOnlyList<string>>();
        foreach (var (instance, s) in ReportText.InstanceStreams(r))
            rows.Add(PercentileRow(instance.Name, s));
        foreach (var s in ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)))
            rows.Add(PercentileRow("All instances", s));
        Grid(h, new[] { "Instance", "Stream", "Operations", "Operations/sec", "Average Bytes", "Mean (msec)", "p50 (msec)", "p90 (msec)", "p99 (msec)", "p99.9 (msec)", "Max (msec)", "Highest sample average (msec)" }, rows);
        h.Append("<p>Percentiles come from per-I/O latency histograms merged bucket by bucket (never averaged).</p>\n");
        Close(h);
    }

    private static IReadOnlyList<string> PercentileRow(string name, StreamResult s)
    {
        var l = s.LatencyMs;
        return new[]
        {
            name, s.Stream, JetFormat.Integer(s.Operations), JetFormat.Number(s.OperationsPerSecond), JetFormat.Number(s.AverageBytes),
            JetFormat.Number(l.Mean), JetFormat.Number(l.P50), JetFormat.Number(l.P90), JetFormat.Number(l.P99), JetFormat.Number(l.P999),
            JetFormat.Number(l.Max), JetFormat.Number(s.MaxSampleAverageLatencyMs),
        };
    }

    private static void Histograms(StringBuilder h, TestResults r)
    {
        var merged = ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)).Where(s => s.Histogram.Count > 0).ToList();
        if (merged.Count == 0) return;
        Open(h, "Latency Histograms");
        foreach (var s in merged)
            h.Append(SvgChart.Histogram($"{s.Stream}: share of I/Os by latency (all instances, {s.Histogram.Count} I/Os)", HistogramMath.Buckets(s.Histogram))).Append('\n');
        Close(h);
    }

    private static void Tuning(StringBuilder h, TestResults r, ReportOptions o)
    {
        if (r.TuningLog.Count == 0) return;
        Open(h, "Tuning Steps");
        Grid(h, ReportText.TuningHeaders(r), ReportText.TuningRows(r, o.TimeZone));
        h.Append("<p>Outcome: ").Append(E(r.TuningOutcome)).Append(". Transient phases let the latency settle and are not judged; each stable phase is.</p>\n");
        Close(h);
    }

    private static void Errors(StringBuilder h, TestResults r, ReportOptions o)
    {
        Open(h, "Errors");
        h.Append("<p>").Append(E(ReportText.SystemLogSummary(r))).Append("</p>\n");
        if (r.SystemLog is { } log && log.StorageErrorCount + log.OtherDeviceStorageErrorCount > 0)
            Grid(h, new[] { "Time", "Source", "Event", "Level", "Message", "Judged" },
                log.Events.Where(e => e.IsStorageError).OrderBy(e => e.OtherDevice).Select(e => (IReadOnlyList<string>)new[]
                {
                    JetFormat.Time(e.TimeUtc, o.TimeZone), e.Provider, e.EventId?.ToString(JetFormat.Culture) ?? "", e.Level, e.Message,
                    e.OtherDevice ? "no: another device" : "yes",
                }));
        if (r.Errors.Count == 0)
        {
            h.Append("<p>No I/O errors.</p>\n");
        }
        else
        {
            h.Append("<p>").Append(r.Errors.Count).Append(r.Errors.Count == 1 ? " I/O error" : " I/O errors")
                 .Append(r.Settings.ContinueOnError ? " (the run continued on error)." : ".").Append("</p>\n");
            Grid(h, new[] { "Time", "Instance", "Stream", "File", "Offset", "Length", "Error", "Code", "Message" },
                r.Errors.Select(e => (IReadOnlyList<string>)new[]
                {
                    JetFormat.Time(e.TimeUtc, o.TimeZone), e.Instance, e.Stream, e.File, JetFormat.Integer(e.Offset), JetFormat.Integer(e.Length),
                    e.ErrorName, JetFormat.Integer(e.ErrorCode), e.Message,
                }));
        }
        Close(h);
    }

    private static void Environment(StringBuilder h, TestResults r)
    {
        var env = r.Environment;
        Open(h, "Environment");
        Pairs(h, "Host", new[]
        {
            ("Machine Name", env.MachineName), ("Operating System", env.OperatingSystem), ("Runtime", env.Runtime),
            ("Logical Processors", JetFormat.Integer(env.ProcessorCount)), ("Memory (bytes)", JetFormat.Integer(env.MemoryBytes)),
            ("I/O Backend", env.IoBackend), ("Direct I/O", env.DirectIo ? "True" : "False"),
        });
        if (env.Platform is { } platform) Pairs(h, "Platform", ReportText.Platform(platform));
        if (env.Volumes.Count > 0)
        {
            Grid(h, new[] { "Volume", "File System", "Allocation Unit (bytes)", "Logical/Physical Sector", "Partition Offset (bytes)", "Size (bytes)", "Free (bytes)", "Device", "Storage Model", "Direct I/O", "Multipath" },
                env.Volumes.Select(v => (IReadOnlyList<string>)new[]
                {
                    v.Path, v.FileSystem ?? "", Opt(v.ClusterSizeBytes), $"{Opt(v.LogicalSectorBytes)}/{Opt(v.PhysicalSectorBytes)}", Opt(v.PartitionOffsetBytes),
                    Opt(v.TotalBytes), Opt(v.FreeBytes), string.Join(" ", new[] { v.Device, v.BusType }.Where(x => !string.IsNullOrEmpty(x))),
                    Inspection.StorageModel.Describe(v) ?? "", ReportText.DirectIo(v, env),
                    v.Multipath is null ? "" : $"{v.Multipath.Name} {v.Multipath.Policy}, {Wording.Count(v.Multipath.PathCount, "path")} ({string.Join(", ", v.Multipath.PathStates)})",
                }));
            var findings = env.Volumes.SelectMany(v => ReportText.Findings(v, env).Select(f => (v.Path, f)))
                .Concat((env.Platform?.Findings ?? new List<Finding>()).Select(f => (Path: ReportText.HostFindingPlace, f))).ToList();
            if (findings.Count > 0)
                Grid(h, new[] { "Volume", "Severity", "Code", "Finding", "Advice" },
                    findings.Select(x => (IReadOnlyList<string>)new[] { x.Path, x.f.Severity, x.f.Code, x.f.Message, x.f.Advice ?? "" }));
            else
                h.Append("<p>No environment findings.</p>\n");
        }
        Close(h);
    }

    private static string Opt(long? v) => v is long x ? JetFormat.Integer(x) : "";
    private static string Opt(int? v) => v is int x ? JetFormat.Integer(x) : "";
}
