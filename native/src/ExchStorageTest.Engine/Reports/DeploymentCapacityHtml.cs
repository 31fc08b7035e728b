using System.Text;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The aggregate HTML of one run's hosts that searched for capacity together (docs/capacity.md, "Several hosts"): each
/// host's own answer beside the deployment's, then the deployment's curve table and charts (<see cref="CapacityReport"/>,
/// the one rendering of a search). Each host's Jetstress-style report stays the evidence of its own steps.
/// </summary>
public static class DeploymentCapacityHtml
{
    public static string Render(MergedResults merged)
    {
        var c = merged.Capacity ?? throw new ArgumentException("The hosts give no deployment capacity.", nameof(merged));
        return HtmlPage.Render($"{ReportText.ToolName} {TextReport.DeploymentCapacityTitle(merged)}", "the hosts' results JSON", h => Body(h, merged, c));
    }

    private static void Body(StringBuilder h, MergedResults merged, CapacityResult c)
    {
        h.Append("<p class=\"subtitle\">Every host ran each step together, measured from the same instant; a step passes for the deployment only when it passed on every host.</p>\n");

        h.Append("<fieldset>\n<legend>Hosts</legend>\n<table class=\"grid\">\n<tr>");
        foreach (var head in new[] { "Host", "Steps", "Host answer (mailboxes)", "Limited at", "Limiting rule", "Search ended" })
            h.Append("<th class=\"grid_header\">").Append(E(head)).Append("</th>");
        h.Append("</tr>\n");
        foreach (var host in merged.Hosts)
        {
            var s = host.Capacity!;
            h.Append("<tr>");
            foreach (var cell in new[] { host.Environment.MachineName, JetFormat.Integer(s.Steps.Count), JetFormat.Integer(s.Answer.Mailboxes),
                         s.Answer.LimitingMailboxes is int l ? JetFormat.Integer(l) : "", s.Answer.LimitingRule ?? "", s.StopReason })
                h.Append("<td class=\"grid_data\">").Append(E(cell)).Append("</td>");
            h.Append("</tr>\n");
        }
        h.Append("</table>\n</fieldset>\n");

        CapacityReport.Html(h, c, merged.Hosts[0].Profile, TextReport.DeploymentCapacityTitle(merged),
            "Each deployment step is the hosts' step of that number: mailboxes and IOPS summed, latencies and stalls the worst host's; its failing hosts' reasons name their host.");
    }
}
