using System.Text;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The failure-mode part of the HTML report: the fault window as a shaded band on the run's time charts, and a "Failure
/// Mode" section (after Jetstress's sections, whose positions scrapers count on) with the facts of
/// <see cref="FailureModeReport"/> as tables and one stall timeline a volume. Nothing when the results hold nothing of it.
/// </summary>
internal static class FailureModeHtml
{
    /// <summary>The fault window as a band of the run's time charts (seconds into the measured window); null without one.</summary>
    public static IReadOnlyList<SvgChart.Band>? Bands(TestResults r) => r.FailureMode?.Window is { } w
        ? new[] { new SvgChart.Band(w.AtSeconds, w.AtSeconds + w.LengthSeconds, "fault window", WindowCaption(w)) }
        : null;

    private static string WindowCaption(FaultWindow w) =>
        $"Fault window ({(w.Source == "Rejudged" ? "given to the re-judgement" : "declared")}): {FailureModeReport.Seconds(w.AtSeconds)} to {FailureModeReport.Seconds(w.AtSeconds + w.LengthSeconds)} into the measured window";

    /// <summary>What the shading on the charts is, under them.</summary>
    public static string BandNote(TestResults r) => r.FailureMode?.Window is { } w
        ? $"The shaded span is the fault window: {FailureModeReport.Seconds(w.AtSeconds)} to {FailureModeReport.Seconds(w.AtSeconds + w.LengthSeconds)} into the measured window, judged apart from the steady state (see Failure Mode)."
        : "";

    public static void Section(StringBuilder h, TestResults r, ReportOptions o)
    {
        if (r.FailureMode is not { } f || !FailureModeReport.Shown(r)) return;
        var zone = o.TimeZone;
        h.Append("<fieldset>\n<legend>Failure Mode</legend>\n");
        h.Append("<p><strong>").Append(E(FailureModeReport.Summary(r))).Append("</strong></p>\n");
        HtmlReport.Pairs(h, "Window", FailureModeReport.WindowRows(f, zone));
        if (f.Reseed is { } seed) HtmlReport.Pairs(h, "Reseed", FailureModeReport.ReseedRows(seed, zone));
        if (f.Script is { } script)
            HtmlReport.Pairs(h, "Fault Script", FailureModeReport.ScriptRows(script, zone), b =>
            {
                var (lines, more) = FailureModeReport.ScriptOutput(script);
                if (lines.Count == 0) return;
                b.Append("<pre class=\"log\">");
                foreach (var line in lines) b.Append(E(line)).Append('\n');
                b.Append("</pre>\n");
                if (more > 0) b.Append("<p class=\"note\">... and ").Append(E(Wording.Count(more, "more line"))).Append(" (see the results JSON).</p>\n");
            });
        if (f.Fault is { } j)
        {
            h.Append("<fieldset>\n<legend>Fault Window</legend>\n");
            string cls = j.Result == FaultOutcomes.Tolerated ? "success" : "failure";
            h.Append("<table class=\"grid\">\n<tr>\n<td class=\"grid_row_header\">Fault Outcome</td>\n<td class=\"").Append(cls).Append("\">")
             .Append(E(FailureModeReport.OutcomeLine(j))).Append("</td>\n</tr>\n</table>\n");
            if (j.Reasons.Count > 0)
            {
                h.Append("<ul class=\"issues\">\n");
                foreach (var reason in j.Reasons) h.Append("<li>").Append(E(FailureModeReport.ReasonLine(reason))).Append("</li>\n");
                h.Append("</ul>\n");
            }
            foreach (var line in FailureModeReport.FaultFigures(j)) h.Append("<p>").Append(E(line)).Append("</p>\n");
            if (j.Volumes.Count > 0)
            {
                HtmlReport.Grid(h, FailureModeReport.VolumeHeaders, FailureModeReport.VolumeRows(j, zone));
                h.Append("<p class=\"note\">").Append(E(FailureModeReport.VolumeLegend)).Append("</p>\n");
            }
            foreach (var line in FailureModeReport.MultipathLines(j)) h.Append("<p class=\"note\">").Append(E(line)).Append("</p>\n");
            h.Append("</fieldset>\n");
        }
        if (f.SteadyState is { } steady)
        {
            h.Append("<p>").Append(E(FailureModeReport.SteadyStateLine(steady))).Append("</p>\n");
            if (steady.Reasons.Count > 0)
            {
                h.Append("<ul class=\"issues\">\n");
                foreach (var reason in steady.Reasons) h.Append("<li>").Append(E(FailureModeReport.ReasonLine(reason))).Append("</li>\n");
                h.Append("</ul>\n");
            }
        }
        h.Append("<p>").Append(E(FailureModeReport.StallTitle(f))).Append("</p>\n");
        if (f.Stalls.Count > 0) HtmlReport.Grid(h, FailureModeReport.StallHeaders, FailureModeReport.StallRows(f, zone));
        Timelines(h, r, f);
        h.Append("</fieldset>\n");
    }

    /// <summary>
    /// One strip a volume (those with a stall or a per-second series, in name order) over the measured window's time axis:
    /// its stalls as bars, the fault window shaded, its I/O per second as a line.
    /// </summary>
    private static void Timelines(StringBuilder h, TestResults r, FailureModeResult f)
    {
        var volumes = f.Stalls.Select(s => s.Volume).Concat(f.VolumeSeries.Select(v => v.Volume)).Distinct(StringComparer.Ordinal).OrderBy(v => v, StringComparer.Ordinal).ToList();
        if (volumes.Count == 0) return;
        var axis = Axis(r, f);
        var bands = Bands(r);
        foreach (var volume in volumes)
        {
            var stalls = f.Stalls.Where(s => s.Volume == volume).Select(s => new SvgChart.StallBar(s.StartSeconds, s.LengthSeconds,
                $"Stall on {s.Volume} at {FailureModeReport.Seconds(s.StartSeconds)}: {FailureModeReport.Seconds(s.LengthSeconds)}{(s.Ended ? "" : ", still stalled at the end")}, {Wording.Count(s.InFlight, "I/O")} in flight")).ToList();
            h.Append(SvgChart.StallStrip($"{volume}: stalls and I/O per second", axis, stalls, Iops(f, volume, axis.End), bands)).Append('\n');
        }
        h.Append("<p class=\"note\">").Append(E(f.VolumeSeriesSpan == "Whole"
            ? "Each strip spans the measured window: a red bar is a stall at its instant and length, the line the volume's completed I/O per second (a second with none recorded had none)."
            : "Each strip spans the measured window: a red bar is a stall at its instant and length, the line the volume's completed I/O per second for the seconds the results hold (around the fault window and each stall; none drawn elsewhere).")).Append("</p>\n");
    }

    /// <summary>The measured window's axis as the run's charts have it; without a time series, the timeline's or what the figures reach.</summary>
    private static (double Start, double End) Axis(TestResults r, FailureModeResult f)
    {
        if (HtmlReport.TimeAxis(r) is { } chart) return (0, chart.EndSeconds);
        if (r.Timeline.CollectionStartUtc is DateTime start && r.Timeline.CollectionEndUtc is DateTime end && end > start) return (0, (end - start).TotalSeconds);
        double reach = f.Stalls.Select(s => s.StartSeconds + s.LengthSeconds).Concat(f.VolumeSeries.Select(v => v.ElapsedSeconds + 1))
            .Concat(f.Window is { } w ? new[] { w.AtSeconds + w.LengthSeconds } : Array.Empty<double>()).DefaultIfEmpty(1).Max();
        return (0, reach);
    }

    /// <summary>
    /// A volume's I/O per second as runs of points, one a second at its midpoint. A whole series has every second of the
    /// measured window (to <paramref name="end"/>; one with no record completed nothing: 0); a series around events breaks
    /// its line where the results hold no seconds.
    /// </summary>
    private static IReadOnlyList<IReadOnlyList<(double X, double Y)>> Iops(FailureModeResult f, string volume, double end)
    {
        var seconds = f.VolumeSeries.Where(v => v.Volume == volume).GroupBy(v => (long)Math.Floor(v.ElapsedSeconds))
            .ToDictionary(g => g.Key, g => g.Sum(v => v.Operations));
        if (seconds.Count == 0) return Array.Empty<IReadOnlyList<(double, double)>>();
        bool whole = f.VolumeSeriesSpan == "Whole";
        long first = whole ? Math.Min(0, seconds.Keys.Min()) : seconds.Keys.Min();
        long last = whole ? Math.Max(seconds.Keys.Max(), (long)Math.Ceiling(end) - 1) : seconds.Keys.Max();
        var runs = new List<IReadOnlyList<(double, double)>>();
        var run = new List<(double, double)>();
        for (long s = first; s <= last; s++)
        {
            if (seconds.TryGetValue(s, out long ops)) run.Add((s + 0.5, ops));
            else if (whole) run.Add((s + 0.5, 0));
            else if (run.Count > 0) { runs.Add(run); run = new List<(double, double)>(); }
        }
        if (run.Count > 0) runs.Add(run);
        return runs;
    }
}
