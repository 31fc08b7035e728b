using System.Text;
using System.Xml.Linq;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The "Calculator Design Check" of the text, HTML and XML reports (docs/calculator.md): the sizing calculator's targets
/// beside what was achieved, per server or for the deployment, each with its verdict line. Pure functions of a
/// <see cref="CalculatorCheck"/>; nothing is written for a profile that is not the calculator's.
/// </summary>
public static class CalculatorReport
{
    /// <summary>The check a host's results carry, or the one their figures give (a document saved before checks were stored).</summary>
    public static CalculatorCheck? Of(TestResults r) => r.CalculatorCheck ?? CalculatorCheck.For(r);

    public static string Title(CalculatorCheck c) =>
        $"Calculator Design Check ({c.Calculator} {c.Version}, {c.Workbook}{(c.Servers > 1 ? $", {c.Servers} servers" : "")})";

    private static readonly string[] Headers = { "Target", "Calculator", "Achieved", "Verdict" };

    private static IEnumerable<string[]> Rows(CalculatorCheck c) => c.Rows.Select(r => new[]
    {
        Label(r.Metric),
        r.Metric == CalculatorCheck.DatabaseReadShare ? N(r.Target * 100) : N(r.Target),
        r.Verdict == CalculatorCheck.NotMeasured ? "" : r.Metric == CalculatorCheck.DatabaseReadShare ? N(r.Achieved * 100) : N(r.Achieved),
        r.Verdict,
    });

    private static string Label(string metric) => metric switch
    {
        CalculatorCheck.DatabaseIops => "Database IOPS",
        CalculatorCheck.LogIops => "Log IOPS",
        CalculatorCheck.DatabaseReadShare => "Database reads (%)",
        CalculatorCheck.MaintenanceMBPerSecond => "Background maintenance (MB/s)",
        _ => metric,
    };

    private static string Summary(CalculatorCheck c)
    {
        var rates = c.Rows.Where(r => r.Metric != CalculatorCheck.DatabaseReadShare).ToList();
        string storage = c.Met
            ? "The storage meets the calculator's database IOPS, log IOPS and maintenance targets."
            : $"The storage does not meet {rates.Count(r => !r.Met)} of the calculator's {rates.Count} rate targets (the run's own Pass or Fail is above).";
        return storage + (c.MixMatched ? " The test's read share was the design's." : " The test's read share was not the design's: its rates are of another mix.");
    }

    public static void Text(StringBuilder sb, CalculatorCheck? c)
    {
        if (c is null) return;
        sb.Append('\n').Append(Title(c)).Append('\n');
        sb.Append("  ").Append(Summary(c)).Append('\n');
        var table = new TextTable(Headers);
        foreach (var row in Rows(c)) table.Add(row);
        table.WriteTo(sb);
        foreach (var row in c.Rows) sb.Append("  - ").Append(row.Line).Append('\n');
    }

    public static void Html(StringBuilder h, CalculatorCheck? c)
    {
        if (c is null) return;
        h.Append("<fieldset>\n<legend>").Append(E(Title(c))).Append("</legend>\n");
        h.Append("<p>").Append(E(Summary(c))).Append("</p>\n<table class=\"grid\">\n<tr>");
        foreach (var head in Headers) h.Append("<th class=\"grid_header\">").Append(E(head)).Append("</th>");
        h.Append("</tr>\n");
        foreach (var (row, cells) in c.Rows.Zip(Rows(c)))
        {
            h.Append("<tr><td class=\"grid_row_header\">").Append(E(cells[0])).Append("</td>");
            h.Append("<td class=\"grid_data\">").Append(E(cells[1])).Append("</td>");
            h.Append("<td class=\"grid_data\">").Append(E(cells[2])).Append("</td>");
            h.Append("<td class=\"").Append(row.Met ? "success" : "failure").Append("\">").Append(E(cells[3])).Append("</td></tr>\n");
        }
        h.Append("</table>\n<ul>\n");
        foreach (var row in c.Rows) h.Append("<li>").Append(E(row.Line)).Append("</li>\n");
        h.Append("</ul>\n</fieldset>\n");
    }

    /// <summary>The check as an XML element of the Jetstress-shaped XML report (its own element: Jetstress has none).</summary>
    public static XElement? Xml(CalculatorCheck? c) => c is null ? null :
        new XElement("calculator-design-check",
            new XAttribute("calculator", c.Calculator), new XAttribute("version", c.Version), new XAttribute("workbook", c.Workbook),
            new XAttribute("servers", c.Servers), new XAttribute("met", c.Met ? "true" : "false"),
            c.Rows.Select(r => new XElement("element", new XAttribute("name", r.Metric),
                new XAttribute("target", N(r.Target)), new XAttribute("achieved", N(r.Achieved)),
                new XAttribute("verdict", r.Verdict), new XAttribute("value", r.Line))));

    /// <summary>The calculator's figures as its sheet shows them: up to 3 decimals, no trailing zeros.</summary>
    internal static string N(double value) => Math.Round(value, 3).ToString("0.###", JetFormat.Culture);
}
