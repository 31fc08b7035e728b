using System.Diagnostics;
using System.Text.RegularExpressions;
using System.Xml.Linq;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Reports;

public class HtmlReportTests
{
    private static IReadOnlyList<string> Legends(string html) =>
        Regex.Matches(html, "<legend>(.*?)</legend>").Select(m => m.Groups[1].Value).ToList();

    [Fact]
    public void Sections_follow_the_Jetstress_order_and_labels()
    {
        var html = HtmlReport.Render(ReportFixtures.Small());
        var legends = Legends(html);
        string[] jetstress =
        {
            "Test Summary", "Database Sizing and Throughput", "System Parameters", "Database Configuration",
            "Transactional I/O Performance", "Background Database Maintenance I/O Performance", "Log Replication I/O Performance",
            "Total I/O Performance", "Host System Performance", "Test Log",
        };
        Assert.Equal(jetstress, legends.Take(jetstress.Length));
        Assert.Contains("<td class=\"grid_row_header\">Overall Test Result</td>\n<td class=\"failure\">Fail</td>\n", html, StringComparison.Ordinal);
        Assert.Contains("<td class=\"grid_row_header\">Achieved Transactional I/O per Second</td>\n", html, StringComparison.Ordinal);
        Assert.DoesNotContain("<script", html, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("http://", html.Replace("http://www.w3.org/2000/svg", "", StringComparison.Ordinal), StringComparison.Ordinal);
        Assert.DoesNotContain("Buffered I/O.", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_achieved_bar_is_red_only_when_the_verdict_failed_the_target()
    {
        // Red reads as failure: an achieved IOPS above the target (a pass of that rule) is green, whatever else failed.
        static string AchievedBar(string html) =>
            Regex.Match(html, "Achieved Transactional I/O per Second</text><rect [^>]*fill=\"(#[0-9a-f]{6})\"").Groups[1].Value;
        var met = ReportFixtures.Small();
        met.Verdict.Reasons.RemoveAll(r => r.Code == VerdictJudge.TargetIopsNotMet);
        Assert.Equal("#2ca02c", AchievedBar(HtmlReport.Render(met)));
        var missed = ReportFixtures.Small();
        missed.Verdict.Reasons.Add(new Results.VerdictReason { Code = VerdictJudge.TargetIopsNotMet, Message = "Achieved 40 of 50 IOPS." });
        Assert.Equal("#d62728", AchievedBar(HtmlReport.Render(missed)));
    }

    [Fact]
    public void A_paced_run_says_so_and_a_transient_tuning_phase_is_not_judged()
    {
        var r = ReportFixtures.Small();
        r.Settings.AutoTuned = true;
        r.Settings.LoadModel = "Paced";
        r.Settings.PacedIops = 82.8;
        r.TuningLog.Insert(0, new Results.TuningStep { TimeUtc = ReportFixtures.Start, ThreadCount = 4, Phase = "Transient", DatabaseReadLatencyMs = 6.1, Samples = 4, Note = "read latency slope settled" });
        var html = HtmlReport.Render(r);
        Assert.Contains("sessions think between transactions to hold 82.8 IOPS", html, StringComparison.Ordinal);
        var transient = Regex.Match(html, "<tr>(?:(?!</tr>).)*>Transient<(?:(?!</tr>).)*</tr>", RegexOptions.Singleline).Value;
        Assert.NotEmpty(transient);
        Assert.DoesNotContain(">No<", transient, StringComparison.Ordinal);
        Assert.DoesNotContain(">0.000<", transient, StringComparison.Ordinal);
        var stable = Regex.Match(html, "<tr>(?:(?!</tr>).)*>Stable<(?:(?!</tr>).)*</tr>", RegexOptions.Singleline).Value;
        Assert.Contains(">Yes<", stable, StringComparison.Ordinal);
    }

    [Fact]
    public void Pinned_worker_cpus_are_listed_in_text_and_html_and_absent_when_not_pinned()
    {
        var r = ReportFixtures.Small();
        Assert.DoesNotContain("Worker CPU Affinity", HtmlReport.Render(r), StringComparison.Ordinal);
        Assert.DoesNotContain("Worker CPU Affinity", TextReport.Render(r), StringComparison.Ordinal);

        r.Environment.WorkerCpus = new List<int> { 0, 1, -1 };
        Assert.Contains("<td class=\"grid_row_header\">Worker CPU Affinity</td>\n<td class=\"grid_data text\">0, 1, unpinned (refused by the OS)</td>", HtmlReport.Render(r), StringComparison.Ordinal);
        Assert.Matches(@"Worker CPU Affinity\s+0, 1, unpinned \(refused by the OS\)", TextReport.Render(r));
    }

    [Fact]
    public void Pass_is_marked_success_and_buffered_io_gets_a_banner()
    {
        var r = ReportFixtures.Small(directIo: false);
        r.Verdict.Result = "Pass";
        r.Verdict.Reasons.Clear();
        var html = HtmlReport.Render(r);
        Assert.Contains("<td class=\"grid_row_header\">Overall Test Result</td>\n<td class=\"success\">Pass</td>", html, StringComparison.Ordinal);
        Assert.Contains("<div class=\"banner\"><strong>Buffered I/O.</strong>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void Backup_and_soft_recovery_open_with_their_statistics_table()
    {
        // As Jetstress's reports and the ESRP documents that reprint them do (the Dell SC4020 document in
        // shared/reference: Tables 38 and 48): the statistics first, read by position (fieldset 0) by parsers.
        var backup = Legends(HtmlReport.Render(ReportFixtures.Small(TestType.DatabaseBackup)));
        Assert.Equal(new[] { "Database Backup Statistics - All", "Test Summary", "System Parameters", "Database Configuration", "Transactional I/O Performance", "Host System Performance", "Test Log" }, backup.Take(7));
        var recovery = Legends(HtmlReport.Render(ReportFixtures.Small(TestType.SoftRecovery)));
        Assert.Equal(new[] { "Soft Recovery Statistics - All", "Test Summary", "System Parameters", "Database Configuration", "Transactional I/O Performance", "Background Database Maintenance I/O Performance", "Total I/O Performance", "Host System Performance", "Test Log" }, recovery.Take(9));
    }

    /// <summary>
    /// ExchangeDsc's verdict rule (dsccommunity/ExchangeDsc @ d8010f4, source/DSCResources/DSC_ExchJetstress/DSC_ExchJetstress.psm1,
    /// Test-JetstressSuccessful), re-implemented: the value of a label is the line after the label's cell, between that
    /// line's first '&gt;' and last '&lt;'.
    /// </summary>
    internal static string? LineAfter(string html, string label)
    {
        var lines = html.Split('\n');
        for (int i = 0; i < lines.Length - 1; i++)
            if (lines[i].Contains($"<td class=\"grid_row_header\">{label}</td>", StringComparison.Ordinal))
            {
                int start = lines[i + 1].IndexOf('>') + 1, end = lines[i + 1].LastIndexOf('<');
                return lines[i + 1][start..end];
            }
        return null;
    }

    [Theory]
    [InlineData("Pass")]
    [InlineData("Fail")]
    public void Every_label_value_reads_by_the_line_rule_of_Jetstress_automation(string verdict)
    {
        var r = ReportFixtures.Small();
        r.Verdict.Result = verdict;
        var html = HtmlReport.Render(r);
        Assert.Equal(verdict, LineAfter(html, "Overall Test Result"));
        string achieved = LineAfter(html, "Achieved Transactional I/O per Second")!;
        Assert.Equal(JetFormat.Number(Results.TransactionalIops.Achieved(r)), achieved);
        // A plain invariant number: it parses under the invariant culture and holds no separator of any other.
        Assert.Matches(@"^\d+\.\d{3}$", achieved);
        foreach (var (label, value) in ReportText.TestSummary(r, ReportOptions.Default).Concat(ReportText.Sizing(r)).Concat(ReportText.SystemParameters(r)))
            Assert.Equal(System.Net.WebUtility.HtmlEncode(value), LineAfter(html, System.Net.WebUtility.HtmlEncode(label)));
    }

    [Fact]
    public void The_xml_sizing_holds_capacity_and_throughput_percentage()
    {
        // The Azure Stack template's parser (Azure/AzureStack-QuickStart-Templates @ 989b052, JetstressWorkload.zip,
        // xJetstressUploadResult.psm1) reads both from database-sizing by name.
        string Sizing(Results.TestResults r, string name) => XDocument.Parse(XmlReport.Render(r)).Root!.Element("database-sizing")!
            .Elements("element").Single(e => (string?)e.Attribute("name") == name).Attribute("value")!.Value;
        var profile = ReportFixtures.Small();
        Assert.Equal("100", Sizing(profile, "Capacity Percentage"));
        Assert.Equal("100", Sizing(profile, "Throughput Percentage"));
        var throughput = ReportFixtures.Small();
        throughput.Sizing.CapacityPercent = 12.5;
        Assert.Equal("12.5", Sizing(throughput, "Capacity Percentage"));
        throughput.Sizing.CapacityPercent = 20;
        Assert.Equal("20", Sizing(throughput, "Capacity Percentage"));
    }

    [Fact]
    public void Html_is_well_formed_xml()
    {
        // Well-formed markup (no stray tags) keeps naive scrapers and XML tools working.
        var html = HtmlReport.Render(ReportFixtures.Small()).Replace("<!DOCTYPE html>", "", StringComparison.Ordinal)
            .Replace("&middot;", "&#183;", StringComparison.Ordinal).Replace("<meta charset=\"utf-8\">", "", StringComparison.Ordinal);
        html = Regex.Replace(html, "<meta name=\"generator\" content=\"[^\"]*\">", "");
        var doc = XDocument.Parse(html);
        Assert.NotEmpty(doc.Descendants("fieldset"));
    }

    [Fact]
    public void Xml_report_has_the_Jetstress_structure()
    {
        var doc = XDocument.Parse(XmlReport.Render(ReportFixtures.Small()));
        Assert.Equal("output", doc.Root!.Name.LocalName);
        Assert.Equal("Fail", doc.Root.Element("test-summary")!.Elements("element").Single(e => (string?)e.Attribute("name") == "Overall Test Result").Attribute("value")!.Value);
        Assert.Single(doc.Root.Element("test-issues")!.Elements("element"));
        var total = doc.Root.Element("disk-subsystem-total")!.Element("object")!;
        Assert.Equal("MSExchange Database ==> Instances", (string?)total.Attribute("name"));
        var counter = total.Elements("instance").First().Elements("counter").First();
        Assert.Equal("I/O Database Reads Average Latency", (string?)counter.Attribute("name"));
        Assert.NotNull(counter.Attribute("average"));
        Assert.NotNull(doc.Root.Element("disk-subsystem-of-dbmaintenance"));
        Assert.NotNull(doc.Root.Element("disk-subsystem-of-logreplication"));
        Assert.NotNull(doc.Root.Element("disk-subsystem-of-transactional"));
        Assert.NotNull(doc.Root.Element("database-sizing"));
        Assert.NotNull(doc.Root.Element("jetstress-system"));
    }

    [ChromiumFact]
    public void Html_renders_in_headless_chromium_without_console_errors()
    {
        string dir = Path.Combine(Path.GetTempPath(), "est-html-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(dir);
        try
        {
            string html = Path.Combine(dir, "report.html"), png = Path.Combine(dir, "report.png");
            File.WriteAllText(html, HtmlReport.Render(ReportFixtures.Small(directIo: false)));
            var psi = new ProcessStartInfo(ChromiumFactAttribute.ChromiumPath)
            {
                RedirectStandardError = true,
                RedirectStandardOutput = true,
                UseShellExecute = false,
            };
            foreach (var arg in new[]
            {
                "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run",
                "--user-data-dir=" + Path.Combine(dir, "profile"), "--enable-logging=stderr", "--v=0",
                "--screenshot=" + png, "--window-size=1280,2000", new Uri(html).AbsoluteUri,
            }) psi.ArgumentList.Add(arg);
            using var p = Process.Start(psi)!;
            var stderr = p.StandardError.ReadToEndAsync();
            var stdout = p.StandardOutput.ReadToEndAsync();
            Assert.True(p.WaitForExit(120_000), "Chromium did not finish within 2 minutes.");
            string log = stderr.Result + stdout.Result;

            Assert.True(File.Exists(png), "No screenshot was written. Chromium said:\n" + log);
            Assert.True(new FileInfo(png).Length > 20_000, $"The screenshot is only {new FileInfo(png).Length} bytes: the page rendered (nearly) blank.");
            Assert.DoesNotContain("Uncaught", log, StringComparison.Ordinal);
            Assert.DoesNotMatch(new Regex(@"CONSOLE\(\d+\)|:CONSOLE|console\.(error|warn)", RegexOptions.IgnoreCase), log);
        }
        finally
        {
            try { Directory.Delete(dir, recursive: true); } catch (IOException) { } catch (UnauthorizedAccessException) { }
        }
    }
}
