using System.Text;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// A <see cref="RunComparison"/> as one self-contained HTML page (the test report's style, no scripts):
/// what each run was and what it sustained (one table per section with each run as a column and its
/// deltas from the first run), charts with every run on the same axes — I/O and latency over the
/// measured window (time from each run's own start of measuring, so runs made on different days
/// overlay) and the latency distributions overlaid — then the per-stream, host and error tables.
/// </summary>
public static class ComparisonHtml
{
    public static string Render(RunComparison c) =>
        HtmlPage.Render($"{ReportText.ToolName} Comparison - {string.Join(" vs ", c.Labels)}", "the results JSON", h => Body(h, c),
            style: "td.better { color: #0a6b0a; } td.worse { color: #b00020; } th.run { min-width: 90px; }\n");

    private static void Body(StringBuilder h, RunComparison c)
    {
        h.Append("<p class=\"subtitle\">").Append(E(c.Statement)).Append("</p>\n");
        h.Append("<p class=\"subtitle\">Deltas are against the first run (").Append(E(c.Labels[0]))
         .Append("); green and red mark a change for the better or the worse where the metric has a better direction, by more than ")
         .Append(E(JetFormat.Number(RunComparison.NoChangePercent, 0))).Append("% and, where it concerns one of Exchange's rules, by at least ")
         .Append(E(Floors(c))).Append(": a change that cannot move a verdict is not marked. Every figure comes from the results files listed under Runs.</p>\n");

        // What each storage option sustained first, then the charts, then the detail behind them.
        Runs(h, c);
        var sections = c.Sections().ToList();
        foreach (var section in sections.Where(s => RunComparison.HeadlineSections.Contains(s.Key))) Section(h, c, section.Key, section.ToList());
        OverTime(h, c);
        Distributions(h, c);
        foreach (var section in sections.Where(s => !RunComparison.HeadlineSections.Contains(s.Key))) Section(h, c, section.Key, section.ToList());
    }

    private static void Runs(StringBuilder h, RunComparison c)
    {
        h.Append("<fieldset>\n<legend>Runs</legend>\n<table class=\"grid\">\n<tr><th class=\"grid_header\"></th>");
        foreach (var label in c.Labels) h.Append("<th class=\"grid_header run\">").Append(E(label)).Append("</th>");
        h.Append("</tr>\n");
        void Row(string name, Func<ComparedRun, string> value, Func<ComparedRun, string>? cls = null)
        {
            h.Append("<tr><td class=\"grid_row_header\">").Append(E(name)).Append("</td>");
            foreach (var run in c.Runs) h.Append("<td class=\"").Append(cls?.Invoke(run) ?? "grid_data text").Append("\">").Append(E(value(run))).Append("</td>");
            h.Append("</tr>\n");
        }
        Row("Test type", r => r.TestType);
        Row("Hosts", r => $"{r.Hosts} ({string.Join(", ", r.Machines)})");
        Row("Profile", r => r.Profile);
        Row("Test start (UTC)", r => JetFormat.Iso(r.StartUtc));
        Row("Measured", r => JetFormat.Elapsed(r.MeasuredSeconds));
        Row("Sessions", r => JetFormat.Integer(r.ThreadCount));
        Row("Overall Test Result", r => r.Outcome, r => r.Result == Verdicts.Pass ? "success" : "failure");
        Row("Results files", r => string.Join("\n", r.ResultsPaths));
        h.Append("</table>\n</fieldset>\n");
    }

    private static void Section(StringBuilder h, RunComparison c, string title, IReadOnlyList<ComparisonRow> rows)
    {
        h.Append("<fieldset>\n<legend>").Append(E(title)).Append("</legend>\n<table class=\"grid\">\n<tr><th class=\"grid_header\">Metric</th>");
        for (int i = 0; i < c.Labels.Count; i++)
        {
            h.Append("<th class=\"grid_header run\">").Append(E(c.Labels[i])).Append("</th>");
            if (i > 0) h.Append("<th class=\"grid_header\">delta</th><th class=\"grid_header\">delta %</th>");
        }
        h.Append("</tr>\n");
        foreach (var row in rows)
        {
            h.Append("<tr><td class=\"grid_row_header\">").Append(E(row.Metric)).Append("</td>");
            for (int i = 0; i < row.Values.Count; i++)
            {
                h.Append("<td class=\"grid_data\">").Append(E(JetFormat.Number(row.Values[i]))).Append("</td>");
                if (i == 0) continue;
                string cls = "grid_data " + row.Changes[i].ToLowerInvariant();
                h.Append("<td class=\"").Append(cls).Append("\">").Append(E(RunComparison.Signed(row.DeltaAbsolute[i], 3))).Append("</td>")
                 .Append("<td class=\"").Append(cls).Append("\">").Append(E(RunComparison.Signed(row.DeltaPercent[i], 1))).Append("</td>");
            }
            h.Append("</tr>\n");
        }
        h.Append("</table>\n</fieldset>\n");
    }

    /// <summary>The floors in words, from the first run's limits (<see cref="RuleFloor"/>): "a tenth of the rule's limit (...)".</summary>
    private static string Floors(RunComparison c)
    {
        var limits = c.Limits;
        return $"{JetFormat.Number(RuleFloor.ShareOfLimit * 100, 0)}% of that rule's limit in the first run ("
            + $"{Short(RuleFloor.LatencyMs(StreamNames.DatabaseRead, limits))} ms for database latencies, "
            + $"{Short(RuleFloor.LatencyMs(StreamNames.LogWrite, limits))} ms for log latencies, "
            + $"{JetFormat.Number(RuleFloor.ShareOfLimit * 100, 0)}% of the target for transactional IOPS)";
        static string Short(double v) => v.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture);
    }

    /// <summary>Seconds from a run's start of measuring (its earliest host), so every run starts at zero.</summary>
    private static Func<DateTime, double> Clock(MergedResults m)
    {
        var starts = m.Hosts.Select(h => h.Timeline.CollectionStartUtc).Where(t => t is not null).Select(t => t!.Value).ToList();
        DateTime origin = starts.Count > 0 ? starts.Min() : m.TimeSeries.Count > 0 ? m.TimeSeries.Min(p => p.TimeUtc) : m.TestStartUtc;
        return t => (t - origin).TotalSeconds;
    }

    private static void OverTime(StringBuilder h, RunComparison c)
    {
        if (c.Merged.All(m => m.TimeSeries.Count == 0)) return;
        h.Append("<fieldset>\n<legend>I/O and Latency over Time (every run on the same axes)</legend>\n");
        var clocks = c.Merged.Select(Clock).ToList();
        double end = 0;
        for (int i = 0; i < c.Merged.Count; i++)
            foreach (var p in c.Merged[i].TimeSeries) end = Math.Max(end, clocks[i](p.TimeUtc));
        var axis = (0.0, Math.Max(end, 1));
        // Each run's fault window (its hosts share one, seconds into the measured window), named by the run's label.
        var windows = c.Merged.Select((m, i) => (Window: m.Hosts.Select(x => x.FailureMode?.Window).FirstOrDefault(w => w is not null), Label: c.Labels[i]))
            .Where(x => x.Window is not null)
            .Select(x => new SvgChart.Band(x.Window!.AtSeconds, x.Window.AtSeconds + x.Window.LengthSeconds, $"fault window ({x.Label})",
                $"{x.Label}: fault window {FailureModeReport.Seconds(x.Window.AtSeconds)} to {FailureModeReport.Seconds(x.Window.AtSeconds + x.Window.LengthSeconds)} into its measured window"))
            .ToList();
        var bands = windows.Count == 0 ? null : windows;

        // Transactional IOPS per aligned sample: reads and writes of one sample instant summed.
        var iops = c.Merged.Select((m, i) =>
        {
            double interval = m.Hosts.Select(x => x.Settings.SampleIntervalSeconds).Where(s => s > 0).DefaultIfEmpty(15).Min();
            var points = m.TimeSeries.Where(p => p.Stream is StreamNames.DatabaseRead or StreamNames.DatabaseWrite)
                .GroupBy(p => Math.Round(clocks[i](p.TimeUtc) / interval))
                .OrderBy(g => g.Key)
                .Select(g => (g.Average(p => clocks[i](p.TimeUtc)), g.Sum(p => p.OperationsPerSecond)))
                .ToList();
            return new SvgChart.Series(c.Labels[i], points);
        }).ToList();
        if (iops.Any(s => s.Points.Count > 0))
            h.Append(SvgChart.Line("Transactional I/O per second (database reads + writes, all hosts)", "IOPS", iops, axis, bands: bands)).Append('\n');

        foreach (var (stream, what) in new[] { (StreamNames.DatabaseRead, "Database read"), (StreamNames.LogWrite, "Log write"), (StreamNames.BackupRead, "Backup read") })
        {
            var series = c.Merged.Select((m, i) => new SvgChart.Series(c.Labels[i],
                m.TimeSeries.Where(p => p.Stream == stream).Select(p => (clocks[i](p.TimeUtc), p.AverageLatencyMs)).ToList(),
                m.Stream(stream)?.LatencyMs.P999 ?? double.NaN)).ToList();
            if (series.Any(s => s.Points.Count > 0))
                h.Append(SvgChart.Line($"{what} average latency ({stream})", "ms", series, axis, bands: bands)).Append('\n');
        }
        h.Append("<p>Time runs from each run's start of measuring. A latency axis stops at the highest sample average not above each run's per-I/O p99.9; a sample above it is marked &#9650;.")
         .Append(bands is null ? "" : " A shaded span is a run's fault window, judged apart from its steady state.").Append("</p>\n</fieldset>\n");
    }

    private static void Distributions(StringBuilder h, RunComparison c)
    {
        var streams = ResultsMerge.StreamOrder.Where(s => c.Merged.Any(m => m.Stream(s)?.Histogram.Count > 0)).ToList();
        if (streams.Count == 0) return;
        h.Append("<fieldset>\n<legend>Latency Distributions (every run overlaid)</legend>\n");
        foreach (var stream in streams)
        {
            var distributions = c.Merged.Select((m, i) => m.Stream(stream) is { Histogram.Count: > 0 } s
                ? new SvgChart.Distribution($"{c.Labels[i]}", HistogramMath.Buckets(s.Histogram), s.LatencyMs.P99)
                : new SvgChart.Distribution($"{c.Labels[i]} (none)", Array.Empty<(double, double, long)>())).ToList();
            h.Append(SvgChart.HistogramOverlay($"{stream}: share of I/Os by latency", distributions)).Append('\n');
        }
        h.Append("<p>Each line is one run's share of its own I/Os per quarter-octave latency bin, from its histograms merged over instances and hosts.</p>\n</fieldset>\n");
    }
}
