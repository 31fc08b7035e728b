using System.Text;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The body of an ESRP-Storage document from the results of an ESRP suite, in the published documents'
/// order: the test runs it is made of, Tested deployment (section 3), Test results summary (section 5:
/// reliability, per-server and aggregate storage performance, database backup and log replay), then one
/// appendix per test (A Performance, B Stress, C Backup, D Recovery) with each host's figures and a link
/// to its Jetstress-style report. Every figure comes from the results; the rows no host can discover come
/// from the vendor's <see cref="EsrpMetadata"/> or read "(to be supplied)". A single result renders as a
/// one-test document, so every ESRP page the engine writes is this one.
/// </summary>
public static class EsrpDocument
{
    /// <param name="suite">The results, sorted into tests.</param>
    /// <param name="summary">The summary of <paramref name="suite"/> (with the metadata's values supplied).</param>
    /// <param name="title">The solution's title (the metadata's); null for a generic heading.</param>
    /// <param name="reportHref">The link to a run's Jetstress-style HTML report, relative to the document; null when there is none.</param>
    public static string RenderHtml(EsrpSuite suite, EsrpSummary summary, string? title = null, Func<TestResults, string?>? reportHref = null) =>
        HtmlPage.Render(title ?? "ESRP Storage Test Results", "the results files listed under Test runs", h => Body(h, suite, summary, reportHref),
            style: "td.to_supply { color: #b36b00; font-style: italic; } td.supplied { font-style: italic; } td.grid_section { background: #dfe7ef; font-weight: bold; }\n"
                 + "h2 { font-size: 15px; color: #1d3f66; margin: 18px 0 4px 0; } h3 { font-size: 13px; margin: 10px 0 4px 0; }\n");

    private static void Body(StringBuilder h, EsrpSuite suite, EsrpSummary summary, Func<TestResults, string?>? reportHref)
    {
        h.Append("<p class=\"subtitle\">").Append(E(Subtitle(suite, summary))).Append("</p>\n");
        foreach (var line in Gaps(suite)) h.Append("<div class=\"banner\">").Append(E(line)).Append("</div>\n");

        h.Append("<h2>Test runs</h2>\n");
        RunsTable(h, suite, reportHref);

        h.Append("<h2>3 Tested deployment</h2>\n");
        foreach (var table in summary.Deployment) Table(h, table.Title, table.Items.Select(i => (i.Label, (string?)i.Value, Class(i))));
        if (summary.Deployment.SelectMany(t => t.Items).Any(i => i.Supplied))
            h.Append("<p class=\"note\">Values in italics were supplied by the vendor's metadata file, not discovered on the hosts.</p>\n");

        h.Append("<h2>5 Test results summary</h2>\n<h3>5.1 Reliability</h3>\n");
        Table(h, "Reliability", summary.Reliability.Select(i => (i.Label, (string?)i.Value, i.Known ? "grid_data text" : "to_supply")));
        h.Append("<h3>5.2 Storage performance results</h3>\n");
        foreach (var s in summary.Servers) Table(h, $"Individual Server Metrics - {s.Host}", Data(EsrpSummary.ServerRows(s)));
        if (summary.Servers.Count > 0) Table(h, "Aggregate Performance Across All Servers", Data(summary.AggregateRows()), summary.Aggregate.HeadroomSentence());
        else h.Append("<p>").Append(E(EsrpSummary.NoServerRuns)).Append("</p>\n");
        h.Append("<h3>5.3 Database Backup/Recovery performance</h3>\n");
        if (summary.Backup is not null) Table(h, "Database Read-only Performance", Data(summary.BackupRows()));
        else h.Append("<p>No DatabaseBackup result: the database read-only performance is not known.</p>\n");
        if (summary.SoftRecovery is not null) Table(h, "Transaction Log Recovery/Replay Performance", Data(summary.SoftRecoveryRows()));
        else h.Append("<p>No SoftRecovery result: the log replay performance is not known.</p>\n");

        char letter = 'A';
        foreach (var test in suite.Tests)
        {
            h.Append("<h2>Appendix ").Append(letter++).Append(' ').Append(E(AppendixTitle(test.TestType))).Append("</h2>\n");
            foreach (var run in test.Hosts) Appendix(h, suite, run, reportHref?.Invoke(run));
        }
    }

    /// <summary>The tables as text: the test runs, then <see cref="EsrpSummary.RenderText"/>.</summary>
    public static string RenderText(EsrpSuite suite, EsrpSummary summary, string? title = null)
    {
        var sb = new StringBuilder();
        if (title is not null) sb.Append(title).Append("\n\n");
        foreach (var line in Gaps(suite)) sb.Append(line).Append('\n');
        sb.Append("Test Runs\n");
        sb.Append("Test\tServer\tOverall Test Result\tCompletion\tTest Start Time (UTC)\tDuration\tResults file\n");
        foreach (var test in suite.Tests)
            foreach (var r in test.Hosts)
                sb.Append(test.TestType).Append('\t').Append(suite.HostName(r)).Append('\t').Append(r.Verdict.Result).Append('\t').Append(r.Completion).Append('\t')
                  .Append(JetFormat.Iso(r.Timeline.TestStartUtc)).Append('\t').Append(JetFormat.Elapsed(Duration(r))).Append('\t').Append(r.SavedPath ?? "").Append('\n');
        foreach (var set in suite.DatabaseSets()) sb.Append("Database set on ").Append(set.Host).Append('\t').Append(set.Detail).Append('\n');
        foreach (var r in suite.Superseded) sb.Append("Superseded\t").Append(Superseded(suite, r)).Append('\n');
        sb.Append('\n');
        return sb.Append(summary.RenderText()).ToString();
    }

    private static string Subtitle(EsrpSuite suite, EsrpSummary summary)
    {
        var perf = EsrpSummary.ServerRuns(suite);
        long mailboxes = perf.Sum(h => (long)EsrpDeployment.Mailboxes(h));
        return $"{JetFormat.Integer(mailboxes)} mailboxes on {Wording.Count(summary.Servers.Count, "server")}; " +
               $"{string.Join(", ", suite.Tests.Select(t => t.TestType))}; from {Wording.Count(suite.Selected.Count, "results file")}.";
    }

    /// <summary>What keeps the results from being a whole ESRP submission: missing, incomplete or failing tests.</summary>
    public static IReadOnlyList<string> Gaps(EsrpSuite suite)
    {
        var lines = new List<string>();
        if (suite.Missing.Count > 0 && suite.Tests.Count > 1)
            lines.Add($"Not a complete ESRP submission: no {string.Join(", ", suite.Missing)} result.");
        foreach (var test in suite.Tests.Where(t => !t.Complete))
            lines.Add($"{test.TestType} did not complete on {string.Join(", ", test.Hosts.Where(h => h.Completion != Completions.Complete).Select(h => $"{suite.HostName(h)} ({h.Completion})"))}.");
        // A stopped or interrupted run is named above as not complete; "failed" is for a run that earned a Fail.
        foreach (var test in suite.Tests.Where(t => t.Hosts.Any(h => h.Verdict.Result == Verdicts.Fail)))
            lines.Add($"{test.TestType} failed on {string.Join(", ", test.Hosts.Where(h => h.Verdict.Result == Verdicts.Fail).Select(suite.HostName))}: " +
                      string.Join(" ", test.Hosts.Where(h => h.Verdict.Result == Verdicts.Fail).SelectMany(h => h.Verdict.Reasons).Select(r => r.Message).Distinct().Take(3)));
        var hosts = suite.Tests.Select(t => t.Hosts.Select(HostKey.Of).OrderBy(k => k, StringComparer.Ordinal).ToList()).ToList();
        if (hosts.Count > 1 && hosts.Any(k => !k.SequenceEqual(hosts[0])))
            lines.Add("The tests did not run on the same hosts: " + string.Join("; ", suite.Tests.Select(t => $"{t.TestType} on {string.Join(", ", t.Hosts.Select(suite.HostName))}")) + ".");
        foreach (var set in suite.DatabaseSets().Where(s => !s.Same))
            lines.Add($"Database set on {set.Host}: {set.Detail}.");
        return lines;
    }

    private static double Duration(TestResults r) =>
        r.Timeline.CollectionStartUtc is DateTime s && r.Timeline.CollectionEndUtc is DateTime e ? (e - s).TotalSeconds : (r.Timeline.TestEndUtc - r.Timeline.TestStartUtc).TotalSeconds;

    private static string Superseded(EsrpSuite suite, TestResults r) =>
        $"{r.TestType} on {suite.HostName(r)} started {JetFormat.Iso(r.Timeline.TestStartUtc)} ({r.Completion}, {r.Verdict.Result}): replaced by a later run; {r.SavedPath}";

    private static void RunsTable(StringBuilder h, EsrpSuite suite, Func<TestResults, string?>? reportHref)
    {
        h.Append("<fieldset>\n<legend>Test runs</legend>\n<table class=\"grid\">\n<tr>");
        foreach (var head in new[] { "Test", "Server", "Overall Test Result", "Completion", "Test Start Time (UTC)", "Duration", "Report" })
            h.Append("<th class=\"grid_header\">").Append(E(head)).Append("</th>");
        h.Append("</tr>\n");
        foreach (var test in suite.Tests)
            foreach (var r in test.Hosts)
            {
                h.Append("<tr><td class=\"grid_row_header\">").Append(E(test.TestType.ToString())).Append("</td><td class=\"grid_data text\">").Append(E(suite.HostName(r)))
                 .Append("</td><td class=\"").Append(r.Verdict.Result == Verdicts.Pass ? "success" : "failure").Append("\">").Append(E(r.Verdict.Result))
                 .Append("</td><td class=\"grid_data text\">").Append(E(r.Completion))
                 .Append("</td><td class=\"grid_data text\">").Append(E(JetFormat.Iso(r.Timeline.TestStartUtc)))
                 .Append("</td><td class=\"grid_data\">").Append(E(JetFormat.Elapsed(Duration(r))))
                 .Append("</td><td class=\"grid_data text\">").Append(Link(reportHref?.Invoke(r), r)).Append("</td></tr>\n");
            }
        h.Append("</table>\n");
        foreach (var set in suite.DatabaseSets())
            h.Append("<p>Database set on ").Append(E(set.Host)).Append(": ").Append(E(set.Detail)).Append(".</p>\n");
        if (suite.Superseded.Count > 0)
        {
            h.Append("<p>Runs not counted:</p>\n<ul>\n");
            foreach (var r in suite.Superseded) h.Append("<li>").Append(E(Superseded(suite, r))).Append("</li>\n");
            h.Append("</ul>\n");
        }
        h.Append("</fieldset>\n");
    }

    private static string Link(string? href, TestResults r) => href is null
        ? E(r.SavedPath is null ? "(no results file)" : $"{Path.GetFileName(r.SavedPath)} (no HTML report rendered)")
        : $"<a href=\"{E(href)}\">{E(Path.GetFileName(href))}</a>";

    private static string Class(EsrpItem i) => !i.Known ? "to_supply" : i.Supplied ? "grid_data text supplied" : "grid_data text";

    private static IEnumerable<(string, string?, string)> Data(IEnumerable<(string Label, string? Value)> rows) =>
        rows.Select(r => (r.Label, r.Value, r.Value == EsrpSummary.ToSupply ? "to_supply" : "grid_data"));

    private static void Table(StringBuilder h, string legend, IEnumerable<(string Label, string? Value, string Class)> rows, string? after = null)
    {
        h.Append("<fieldset>\n<legend>").Append(E(legend)).Append("</legend>\n<table class=\"grid\">\n");
        foreach (var (label, value, cls) in rows)
        {
            if (value is null)
                h.Append("<tr><td class=\"grid_section\" colspan=\"2\">").Append(E(label)).Append("</td></tr>\n");
            else
                h.Append("<tr><td class=\"grid_row_header\">").Append(E(label)).Append("</td><td class=\"").Append(cls).Append("\">").Append(E(value)).Append("</td></tr>\n");
        }
        h.Append("</table>\n");
        if (after is not null) h.Append("<p>").Append(E(after)).Append("</p>\n");
        h.Append("</fieldset>\n");
    }

    private static string AppendixTitle(TestType type) => TestTypes.Of(type).EsrpTitle;

    /// <summary>One host's run of a test: its verdict and headline figures, and the link to its full report.</summary>
    private static void Appendix(StringBuilder h, EsrpSuite suite, TestResults r, string? href)
    {
        var rows = new List<(string Label, string Value, string Class)>
        {
            ("Overall Test Result", r.Verdict.Result, r.Verdict.Result == Verdicts.Pass ? "success" : "failure"),
            ("Completion", r.Completion, "grid_data text"),
            ("Test Start Time (UTC)", JetFormat.Iso(r.Timeline.TestStartUtc), "grid_data text"),
            ("Duration", JetFormat.Elapsed(Duration(r)), "grid_data text"),
            ("Test Description", ReportText.TestDescription(r), "grid_data text"),
            ("Database Page Data", ReportText.DataDescription(r), "grid_data text"),
        };
        switch (r.TestType)
        {
            case TestType.DatabaseBackup:
                var b = r.Backup ?? new BackupResult();
                foreach (var i in b.Instances)
                    rows.Add(($"{i.Instance}: MBytes Transferred/sec", $"{JetFormat.Number(i.MBPerSecond, 2)} ({JetFormat.Number(i.DatabaseSizeMB, 2)} MB in {JetFormat.Elapsed(i.ElapsedSeconds)})", "grid_data"));
                rows.Add(("MBytes Transferred/sec, Avg", JetFormat.Number(b.AverageMBPerSecond, 2), "grid_data"));
                rows.Add(("MBytes Transferred/sec, Sum", JetFormat.Number(b.TotalMBPerSecond, 2), "grid_data"));
                break;
            case TestType.SoftRecovery:
                var s = r.SoftRecovery ?? new SoftRecoveryResult();
                foreach (var i in s.Instances)
                    rows.Add(($"{i.Instance}: log files replayed", $"{JetFormat.Integer(i.LogsReplayed)} in {JetFormat.Number(i.ElapsedSeconds)} s", "grid_data"));
                var t = TextReport.RecoveryAvgSum(s);
                if (t.SumLogs > 0) rows.Add(("Average time to play one log file (sec)", JetFormat.Number(t.SumSeconds / t.SumLogs), "grid_data"));
                break;
            default:
                rows.Add(("Target Transactional I/O per Second", JetFormat.Number(r.Sizing.TargetTransactionalIops), "grid_data"));
                rows.Add(("Achieved Transactional I/O per Second", JetFormat.Number(TransactionalIops.Achieved(r)), "grid_data"));
                rows.Add(("Thread Count", ReportText.LoadDescription(r), "grid_data text"));
                var m = EsrpServerMetrics.From(r, suite.HostName(r));
                rows.Add(("Average Database Disk Read Latency (ms)", JetFormat.Number(m.AverageDatabaseDiskReadLatencyMs), "grid_data"));
                rows.Add(("Average Log Disk Write Latency (ms)", JetFormat.Number(m.AverageLogDiskWriteLatencyMs), "grid_data"));
                if (r.Checksum is { } c)
                    rows.Add(("Checksum pass", $"{JetFormat.Integer(c.PagesChecked)} database pages, {JetFormat.Integer(c.LogsChecked)} log files checked: {JetFormat.Integer(c.BadPages)} bad pages, {JetFormat.Integer(c.BadLogs)} bad log files", c.BadPages + c.BadLogs == 0 ? "grid_data text" : "failure"));
                break;
        }
        foreach (var reason in r.Verdict.Reasons) rows.Add(("Reason", reason.Message, "failure"));
        h.Append("<fieldset>\n<legend>").Append(E($"{r.TestType} - {suite.HostName(r)}")).Append("</legend>\n<table class=\"grid\">\n");
        foreach (var (label, value, cls) in rows)
            h.Append("<tr><td class=\"grid_row_header\">").Append(E(label)).Append("</td><td class=\"").Append(cls).Append("\">").Append(E(value)).Append("</td></tr>\n");
        h.Append("<tr><td class=\"grid_row_header\">Jetstress-style report</td><td class=\"grid_data text\">").Append(Link(href, r)).Append("</td></tr>\n");
        h.Append("</table>\n</fieldset>\n");
    }
}
