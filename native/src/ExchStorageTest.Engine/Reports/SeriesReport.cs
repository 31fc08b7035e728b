using System.Text;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The series analysis (<see cref="TestResults.SeriesAnalysis"/>) in the reports: the text report's
/// "Time Series" lines, the HTML report's list under its charts, and the charts' marks. A run whose series
/// were steady from the start prints that once, and its charts carry no marks.
/// </summary>
public static class SeriesReport
{
    public static void Text(StringBuilder sb, TestResults r)
    {
        var a = r.SeriesAnalysis;
        if (a is null) return;
        sb.Append("\nTime Series\n");
        foreach (var line in Lines(a)) sb.Append("  ").Append(line).Append('\n');
    }

    public static void Html(StringBuilder h, TestResults r)
    {
        var a = r.SeriesAnalysis;
        if (a is null) return;
        h.Append("<ul class=\"series\">\n");
        foreach (var line in Lines(a)) h.Append("<li>").Append(E(line)).Append("</li>\n");
        h.Append("</ul>\n");
    }

    /// <summary>
    /// The marks for a chart of the given series, x in seconds from the start of the measured window:
    /// every step (adverse ones in the warning colour) and the time a transient series settled.
    /// </summary>
    public static IReadOnlyList<SvgChart.Marker> Markers(TestResults r, params string[] series)
    {
        var marks = new List<SvgChart.Marker>();
        var a = r.SeriesAnalysis;
        if (a is null) return marks;
        foreach (var s in a.Steps)
            if (Array.IndexOf(series, s.Series) >= 0) marks.Add(new SvgChart.Marker(s.AtSeconds, s.Message, s.Adverse));
        foreach (var s in a.Series)
            if (Array.IndexOf(series, s.Series) >= 0 && s.Message is not null && s.SettledAtSeconds is double at && at > 0)
                marks.Add(new SvgChart.Marker(at, s.Message, Alert: false));
        return marks;
    }

    private static IEnumerable<string> Lines(SeriesAnalysis a)
    {
        int said = 0;
        foreach (var (_, line) in SeriesFindings.LogLines(a)) { said++; yield return line; }
        if (said == 0)
            yield return $"No sustained step and steady from the start: {string.Join(", ", a.Series.Select(s => SeriesFindings.Title(s.Series).ToLowerInvariant()))} ({a.Series.Max(s => s.Samples)} samples).";
    }
}
