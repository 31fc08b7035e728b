using System.Text;
using System.Xml.Linq;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// A capacity search's part of the text and HTML reports (docs/capacity.md): the answer in words with its ESRP headroom
/// line, the load curve as a table (mailboxes -> achieved IOPS, database read and log write latency, average and p99)
/// and, in HTML, as two charts over the mailbox count. Pure functions of a capacity section: one host's, or a deployment's
/// over its hosts (the aggregate report).
/// </summary>
public static class CapacityReport
{
    /// <summary>
    /// The answer in sentences, as the report and the test log state it; <paramref name="p"/> is the profile one host ran
    /// (a deployment's hosts all ran it), for its IOPS per mailbox and headroom.
    /// </summary>
    public static IReadOnlyList<string> Answer(CapacityResult c, MailboxProfile p)
    {
        var a = c.Answer;
        var lines = new List<string>();
        lines.Add(a.Mailboxes > 0
            ? $"The storage carried {(a.LowerBound ? "at least " : "")}{JetFormat.Integer(a.Mailboxes)} mailboxes at {JetFormat.Number(p.IopsPerMailbox, 3)} IOPS per mailbox with {Wording.Percent(p.HeadroomPercent)} headroom ({JetFormat.Integer(a.MailboxesWithoutHeadroom)} without the headroom), achieving {JetFormat.Number(a.AchievedIops)} of {JetFormat.Number(a.TargetIops)} target IOPS within every threshold."
            : c.Steps.Count == 0 ? "No step finished: the search has no answer."
            : "No step passed: the storage did not carry even the smallest step's mailboxes within the thresholds.");
        if (a.LimitingRule is not null)
            lines.Add($"Limited by {a.LimitingRule} at {JetFormat.Integer(a.LimitingMailboxes ?? 0)} mailboxes: {a.LimitingReasons.FirstOrDefault(x => x.Code == a.LimitingRule)?.Message}");
        if (a.LowerBound)
            lines.Add(a.LowerBoundReason is Verdict.MachineLimit.Code or null
                ? $"The answer is a lower bound: the host, not the storage, failed the next step, so the storage carries at least {JetFormat.Integer(a.Mailboxes)} mailboxes; how many more this host could not show."
                : $"The answer is a lower bound: no step failed before the search ended ({a.LowerBoundReason}), so the storage carries at least {JetFormat.Integer(a.Mailboxes)} mailboxes; how many more the search did not reach.");
        if (a.Mailboxes > 0)
            lines.Add($"Against the profile's {JetFormat.Integer(a.RequiredMailboxes)} mailboxes: {Wording.Percent(a.PercentOverRequirement)} over the requirement, {JetFormat.Number(a.ReserveIops)} IOPS of reserve.");
        if (a.Mailboxes > 0 && p.Calculator is { } t && p.MailboxCount > 0)
            lines.Add(CalculatorHeadroom(a, t, Math.Max(1, (int)Math.Round(a.RequiredMailboxes / (double)p.MailboxCount))));
        lines.Add($"Search ended ({c.StopReason}): {c.StopMessage}. {(a.Resolved ? $"Resolved to {Wording.Percent(c.ResolutionPercent)}." : "Not resolved to the search's resolution.")}");
        return lines;
    }

    /// <summary>
    /// Which step's window the document's measured figures are (<see cref="CapacityResult.ReportedStep"/>): the sections
    /// below the search in a report, and the ESRP tables, show that step with its own target.
    /// </summary>
    public static string ReportedLine(CapacityResult c) => c.Reported() is { } s
        ? $"The figures in the sections below are step {JetFormat.Integer(s.Step)}'s window: {JetFormat.Integer(s.Mailboxes)} mailboxes, target {JetFormat.Number(s.TargetIops)} IOPS, achieved {JetFormat.Number(s.AchievedIops)} " +
          (s.Passed ? "(the answer's step)." : "(the first failing step: no step passed).")
        : c.Steps.Count == 0
            ? "No step finished, so no measured window is shown below: the sections below hold no measurement."
            : "No step's window is in this document (the step that answers ran in the search this one continued; its results file has it): the sections below hold no measurement.";

    /// <summary>
    /// The headroom over the sizing calculator's design (the profile's <see cref="MailboxProfile.Calculator"/>): the
    /// answer's mailboxes against the calculator's mailboxes per server, and the passing step's IOPS against its database
    /// IOPS per server, for the <paramref name="servers"/> that searched.
    /// </summary>
    public static string CalculatorHeadroom(CapacityAnswer a, CalculatorTargets t, int servers)
    {
        double mailboxes = t.MailboxesPerServer * (double)servers, iops = t.DatabaseIops * servers;
        double over = mailboxes > 0 ? (a.Mailboxes / mailboxes - 1) * 100 : 0;
        double reserve = a.AchievedIops - iops;
        string scope = servers == 1 ? "per server" : $"for {servers} servers";
        return $"Against the calculator's design ({t.Calculator} {t.Version}): {Wording.Percent(Math.Abs(over))} {(over >= 0 ? "over" : "under")} its {CalculatorReport.N(mailboxes)} mailboxes {scope}; " +
            $"the passing step achieved {CalculatorReport.N(a.AchievedIops)} database IOPS, {CalculatorReport.N(Math.Abs(reserve))} {(reserve >= 0 ? "over" : "short of")} its {CalculatorReport.N(iops)}.";
    }

    /// <summary>The load curve, one row a step in the order they ran.</summary>
    private static IEnumerable<string[]> Rows(CapacityResult c) => c.Steps.Select(s => new[]
    {
        JetFormat.Integer(s.Step), JetFormat.Integer(s.Mailboxes), JetFormat.Number(s.TargetIops), JetFormat.Number(s.AchievedIops),
        JetFormat.Number(s.DatabaseReadLatencyAverageMs, 3), JetFormat.Number(s.DatabaseReadLatencyP99Ms, 3),
        JetFormat.Number(s.LogWriteLatencyAverageMs, 3), JetFormat.Number(s.LogWriteLatencyP99Ms, 3),
        s.Passed ? Verdicts.Pass : Verdicts.Fail, s.LimitingRule ?? "",
    });

    private static readonly string[] Headers = { "Step", "Mailboxes", "Target IOPS", "Achieved IOPS", "DB read avg (ms)", "DB read p99 (ms)", "Log write avg (ms)", "Log write p99 (ms)", "Result", "Limiting rule" };

    /// <summary>One host's search, in its own report.</summary>
    public static void Text(StringBuilder sb, TestResults r)
    {
        if (r.Capacity is not { } c) return;
        Text(sb, c, r.Profile, "Capacity");
        sb.Append("  ").Append(ReportedLine(c)).Append('\n');
    }

    /// <summary>A search under <paramref name="title"/>: one host's, or a deployment's (<see cref="Capacity.CapacityDeployment"/>).</summary>
    public static void Text(StringBuilder sb, CapacityResult c, MailboxProfile p, string title)
    {
        sb.Append('\n').Append(title).Append('\n');
        foreach (var line in Answer(c, p)) sb.Append("  ").Append(line).Append('\n');
        sb.Append("\nLoad curve (each step judged by the Performance rules)\n");
        var table = new TextTable(Headers);
        foreach (var row in Rows(c)) table.Add(row);
        table.WriteTo(sb);
    }

    /// <summary>
    /// One host's search in the XML report: the answer's figures as attributes (with its bound: <c>lower-bound</c> and what
    /// cut it), the answer and which step's window the report's figures are in words, and one <c>step</c> a point of the load
    /// curve; null for another test type.
    /// </summary>
    public static XElement? Xml(TestResults r)
    {
        if (r.Capacity is not { } c) return null;
        var a = c.Answer;
        static XAttribute? Optional(string name, object? value) => value is null ? null : new XAttribute(name, value);
        return new XElement("capacity",
            new XAttribute("mailboxes", a.Mailboxes),
            new XAttribute("lower-bound", a.LowerBound ? "true" : "false"),
            Optional("lower-bound-reason", a.LowerBoundReason),
            Optional("limiting-mailboxes", a.LimitingMailboxes),
            Optional("limiting-rule", a.LimitingRule),
            new XAttribute("resolved", a.Resolved ? "true" : "false"),
            new XAttribute("stop-reason", c.StopReason),
            Optional("reported-step", c.ReportedStep),
            Answer(c, r.Profile).Append(ReportedLine(c)).Select(line => new XElement("element", new XAttribute("value", line))),
            c.Steps.Select(s => new XElement("step",
                new XAttribute("number", s.Step), new XAttribute("mailboxes", s.Mailboxes),
                new XAttribute("target-iops", JetFormat.Number(s.TargetIops)), new XAttribute("achieved-iops", JetFormat.Number(s.AchievedIops)),
                new XAttribute("db-read-latency-average-ms", JetFormat.Number(s.DatabaseReadLatencyAverageMs, 3)),
                new XAttribute("db-read-latency-p99-ms", JetFormat.Number(s.DatabaseReadLatencyP99Ms, 3)),
                new XAttribute("log-write-latency-average-ms", JetFormat.Number(s.LogWriteLatencyAverageMs, 3)),
                new XAttribute("log-write-latency-p99-ms", JetFormat.Number(s.LogWriteLatencyP99Ms, 3)),
                new XAttribute("result", s.Passed ? Verdicts.Pass : Verdicts.Fail),
                Optional("limiting-rule", s.LimitingRule))));
    }

    /// <summary>One host's search, in its own report; the sections below it are the reported step's window.</summary>
    public static void Html(StringBuilder h, TestResults r)
    {
        if (r.Capacity is { } c) Html(h, c, r.Profile, "Capacity", "Each step ran the profile's load paced at its mailbox count and was judged by the Performance test's rules. " + ReportedLine(c));
    }

    /// <summary>A search under <paramref name="title"/> with its curve table and charts, and <paramref name="note"/> below them.</summary>
    public static void Html(StringBuilder h, CapacityResult c, MailboxProfile p, string title, string note)
    {
        h.Append("<fieldset>\n<legend>").Append(E(title)).Append("</legend>\n");
        foreach (var line in Answer(c, p)) h.Append("<p>").Append(E(line)).Append("</p>\n");
        h.Append("<table class=\"grid\">\n<tr>");
        foreach (var head in Headers) h.Append("<th class=\"grid_header\">").Append(E(head)).Append("</th>");
        h.Append("</tr>\n");
        foreach (var row in Rows(c))
        {
            h.Append("<tr>");
            for (int i = 0; i < row.Length; i++)
            {
                string cls = i == 8 ? (row[i] == Verdicts.Pass ? "success" : "failure") : i == 9 ? "grid_data text" : "grid_data";
                h.Append("<td class=\"").Append(cls).Append("\">").Append(E(row[i])).Append("</td>");
            }
            h.Append("</tr>\n");
        }
        h.Append("</table>\n");
        var curve = c.Steps.OrderBy(s => s.Mailboxes).ToList();
        if (curve.Count > 0)
        {
            List<(double X, double Y)> Points(Func<CapacityStep, double> y) => curve.Select(s => ((double)s.Mailboxes, y(s))).ToList();
            var axis = (0.0, (double)curve[^1].Mailboxes);
            string Mailboxes(double x) => JetFormat.Integer((long)Math.Round(x));
            h.Append(SvgChart.Line("Load curve: transactional IOPS by mailboxes", "IOPS", new[]
            {
                new SvgChart.Series("Achieved", Points(s => s.AchievedIops)),
                new SvgChart.Series("Target", Points(s => s.TargetIops)),
            }, axis, xLabel: Mailboxes, xTitle: "mailboxes")).Append('\n');
            h.Append(SvgChart.Line("Load curve: latency by mailboxes", "ms", new[]
            {
                new SvgChart.Series("DB read avg", Points(s => s.DatabaseReadLatencyAverageMs)),
                new SvgChart.Series("DB read p99", Points(s => s.DatabaseReadLatencyP99Ms)),
                new SvgChart.Series("Log write avg", Points(s => s.LogWriteLatencyAverageMs)),
                new SvgChart.Series("Log write p99", Points(s => s.LogWriteLatencyP99Ms)),
            }, axis, xLabel: Mailboxes, xTitle: "mailboxes")).Append('\n');
        }
        h.Append("<p class=\"note\">").Append(E(note)).Append("</p>\n");
        h.Append("</fieldset>\n");
    }
}
