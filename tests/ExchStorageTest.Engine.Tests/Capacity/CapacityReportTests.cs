using System.Xml.Linq;
using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Reports;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>
/// A capacity document's reports pair every figure with its own step (docs/capacity.md, "Reading the answer"): the text,
/// HTML, XML and ESRP renderings of a search whose measured figures are one reported step's name that step, its mailboxes
/// and its own target beside its IOPS; the host table is printed from that step's counters; a document without a step's
/// window says so instead of printing zeros as if measured.
/// </summary>
public class CapacityReportTests
{
    /// <summary>
    /// The tester's search (20, 40, 80, 160 mailboxes, all passed, cut by the time bound) as the run leaves its document:
    /// the measured figures (instances, sizing, host counters) are step 4's window, with step 4's target.
    /// </summary>
    private static TestResults Searched()
    {
        var r = ReportFixtures.Js13();
        r.TestType = TestType.Capacity;
        r.Profile.MailboxCount = 20;
        r.Profile.IopsPerMailbox = 1.5;
        r.Profile.HeadroomPercent = 0;
        double achieved = r.Sizing.AchievedTransactionalIops;
        var steps = new[] { 20, 40, 80, 160 }.Select((m, i) => new CapacityStep
        {
            Step = i + 1, Mailboxes = m, TargetIops = m * 1.5, PacedIops = m * 1.5 * 1.15, Sessions = 4, Passed = true, WindowSeconds = 10,
            AchievedIops = m == 160 ? achieved : m * 1.5 * 1.15,
        }).ToList();
        r.Capacity = new CapacityResult
        {
            Steps = steps, StopReason = CapacityStopReasons.TimeBoundReached, StopMessage = "the time bound (25 s) leaves no room for the 320-mailbox step",
            Answer = CapacitySearch.Answer(r.Profile, steps, CapacityStopReasons.TimeBoundReached), ReportedStep = 4,
            ResolutionPercent = CapacitySequence.ResolutionPercent,
        };
        r.Sizing.TargetTransactionalIops = 240; // step 4's: 160 mailboxes x 1.5
        r.HostCounters.Add(new HostCounter { Name = "% Processor Time", Source = "/proc", Average = 31.5, Minimum = 20, Maximum = 40, Samples = 10 });
        return r;
    }

    [Fact]
    public void The_text_and_html_name_the_reported_step_and_pair_its_iops_with_its_own_target()
    {
        var r = Searched();
        string text = TextReport.Render(r);
        Assert.Contains("The storage carried at least 160 mailboxes", text, StringComparison.Ordinal);
        Assert.Contains("The figures in the sections below are step 4's window: 160 mailboxes, target 240.000 IOPS", text, StringComparison.Ordinal);
        Assert.Contains("Test Description         160 mailboxes (capacity search step 4) of", text, StringComparison.Ordinal);
        double percent = Math.Round(TransactionalIops.Achieved(r) / 240 * 100, 1);
        Assert.Contains($"Achieved is {JetFormat.Number(percent, 1)}% of target.", text, StringComparison.Ordinal);
        Assert.DoesNotContain("auto-tuned", text, StringComparison.Ordinal);
        // The host's counters over that step's window fill the Jetstress table.
        Assert.Contains("Host System Performance", text, StringComparison.Ordinal);
        Assert.Contains("31.500", text, StringComparison.Ordinal);

        string html = HtmlReport.Render(r);
        Assert.Contains("The figures in the sections below are step 4&#39;s window: 160 mailboxes, target 240.000 IOPS", html, StringComparison.Ordinal);
        Assert.Contains("<legend>Host System Performance</legend>", html, StringComparison.Ordinal);
    }

    [Fact]
    public void The_xml_carries_the_search_with_its_bound_and_the_sizing_of_the_reported_step()
    {
        var x = XDocument.Parse(XmlReport.Render(Searched())).Root!;
        var c = x.Element("capacity")!;
        Assert.Equal(("160", "true", "TimeBoundReached", "4"), ((string)c.Attribute("mailboxes")!, (string)c.Attribute("lower-bound")!, (string)c.Attribute("lower-bound-reason")!, (string)c.Attribute("reported-step")!));
        Assert.Null(c.Attribute("limiting-rule"));
        Assert.Equal(new[] { "20", "40", "80", "160" }, c.Elements("step").Select(s => (string)s.Attribute("mailboxes")!));
        var sizing = x.Element("database-sizing")!.Elements("element").ToDictionary(e => (string)e.Attribute("name")!, e => (string)e.Attribute("value")!);
        Assert.Equal("240.000", sizing["Target Transactional I/O per Second"]);
    }

    [Fact]
    public void The_esrp_tables_describe_the_reported_step_as_a_test_of_its_mailboxes()
    {
        var r = Searched();
        string esrp = EsrpSummary.From(new[] { r }).RenderText();
        Assert.Contains("Number of Exchange mailboxes simulated\t160\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Number of servers tested\t1\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Capacity search step shown\tstep 4, 160 mailboxes at a target of 240.000 IOPS (the answer's step); the search's answer: at least 160 mailboxes\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Targeted Database Disks Transfers/sec\t240.000\n", esrp, StringComparison.Ordinal);
        Assert.Contains($"Achieved Transactional I/O per Second\t{JetFormat.Number(TransactionalIops.Achieved(r))}\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Server JS13\n", esrp, StringComparison.Ordinal);
        string page = EsrpDocument.RenderHtml(EsrpSuite.From(new[] { r }), EsrpSummary.From(new[] { r }));
        Assert.Contains("160 mailboxes on 1 server", page, StringComparison.Ordinal);
    }

    [Fact]
    public void A_document_without_a_steps_window_says_so_instead_of_zeros()
    {
        var r = Searched();
        r.Capacity!.ReportedStep = null; // the answering step ran in the search this one continued
        foreach (var i in r.Instances) i.Streams.Clear();
        r.HostCounters.Clear();
        r.Sizing.TargetTransactionalIops = r.Sizing.AchievedTransactionalIops = 0;

        string text = TextReport.Render(r);
        Assert.Contains("No step's window is in this document", text, StringComparison.Ordinal);
        Assert.DoesNotContain("% of target", text, StringComparison.Ordinal);
        string esrp = EsrpSummary.From(new[] { r }).RenderText();
        Assert.Contains(EsrpSummary.NoServerRuns, esrp, StringComparison.Ordinal);
        Assert.DoesNotContain("Targeted Database Disks Transfers/sec", esrp, StringComparison.Ordinal);
        Assert.Contains("Number of Exchange mailboxes simulated\t20\n", esrp, StringComparison.Ordinal);
        Assert.Contains("Capacity search step shown\tnone: no step's window is in the results; the search's answer: at least 160 mailboxes\n", esrp, StringComparison.Ordinal);
        string page = EsrpDocument.RenderHtml(EsrpSuite.From(new[] { r }), EsrpSummary.From(new[] { r }));
        Assert.DoesNotContain("Aggregate Performance Across All Servers", page, StringComparison.Ordinal);
    }
}
