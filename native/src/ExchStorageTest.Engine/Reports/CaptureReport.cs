using System.Text;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The "Capture Check" of the text and HTML reports (docs/capture.md): the PerfMon capture's busiest hour, the target
/// made of it and what the run achieved, in the check's own line. Nothing is written for a profile not made of a capture.
/// </summary>
public static class CaptureReport
{
    public static CaptureCheck? Of(TestResults r) => r.CaptureCheck ?? CaptureCheck.For(r);

    public static string Title(CaptureCheck c) => $"Capture Check ({c.Servers}, {c.Window}{(c.Hosts > 1 ? $", {c.Hosts} hosts" : "")})";

    private static string Figures(CaptureCheck c) =>
        $"Busiest hour of {c.Servers}: {N(c.BusiestHourIops)} database IOPS x {N(c.GrowthFactor)} = {N(c.BusiestHourIops * c.GrowthFactor)}"
        + (Math.Abs(c.TargetIops - c.BusiestHourIops * c.GrowthFactor) > 0.001 ? $"; for the {(c.Hosts == 1 ? "host" : $"{c.Hosts} hosts")} judged {N(c.TargetIops)}" : "")
        + (c.CalculatorIops > 0 ? $"; calculator's design {N(c.CalculatorIops)}" : "")
        + $"; tested {N(c.TestedIops)}, achieved {N(c.AchievedIops)} at {N(c.ReadLatencyMs)} ms average database read latency: {(c.Met ? "Meets" : "Short")}."
        + (c.CaptureReadShare > 0 ? $" Database reads: the capture {N(c.CaptureReadShare * 100)}%, the test {N(c.TestReadShare * 100)}% (its own transactional mix)." : "");

    public static void Text(StringBuilder sb, CaptureCheck? c)
    {
        if (c is null) return;
        sb.Append('\n').Append(Title(c)).Append('\n');
        sb.Append("  ").Append(c.Line).Append('\n');
        sb.Append("  ").Append(Figures(c)).Append('\n');
    }

    public static void Html(StringBuilder h, CaptureCheck? c)
    {
        if (c is null) return;
        h.Append("<fieldset>\n<legend>").Append(E(Title(c))).Append("</legend>\n");
        h.Append("<p class=\"").Append(c.Met ? "success" : "failure").Append("\">").Append(E(c.Line)).Append("</p>\n");
        h.Append("<p>").Append(E(Figures(c))).Append("</p>\n</fieldset>\n");
    }

    private static string N(double value) => CalculatorReport.N(value);
}
