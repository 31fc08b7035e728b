using System.Xml.Linq;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// A run stopped during tuning, or part-way through its measured window, says so in every report format, keeps
/// what it measured labelled as a partial window, leaves what it never measured empty (not 0), and its verdict cell reads
/// as not passed by Jetstress automation's rules (ExchangeDsc's line rule, jacobklitzke's success cell) without a Fail it
/// did not earn.
/// </summary>
public class StoppedRunReportTests
{
    /// <summary>The fixture run without its I/O error: a run that passes whole.</summary>
    private static TestResults Clean()
    {
        var r = ReportFixtures.Small();
        r.Errors.Clear();
        foreach (var s in r.Instances.SelectMany(i => i.Streams)) s.ErrorCount = 0;
        return r;
    }

    /// <summary>The fixture run stopped while tuning: no window, no transaction counted, no final size recorded.</summary>
    private static TestResults StoppedDuringTuning()
    {
        var r = Clean();
        r.Completion = Completions.Stopped;
        r.TuningOutcome = TuningOutcomes.Stopped;
        r.Timeline.CollectionStartUtc = r.Timeline.CollectionEndUtc = null;
        r.Timeline.TestEndUtc = r.Timeline.TestStartUtc.AddSeconds(20);
        r.Timeline.Phases.Add(new PhaseMark { Name = "Tuning", StartUtc = r.Timeline.TestStartUtc, EndUtc = r.Timeline.TestEndUtc });
        r.TimeSeries.Clear();
        foreach (var s in r.Instances.SelectMany(i => i.Streams)) (s.Operations, s.OperationsPerSecond, s.Bytes) = (0, 0, 0);
        r.Sizing.AchievedTransactionalIops = 0;
        r.Sizing.FinalDatabaseSizeBytes = 0;
        r.Verdict = VerdictJudge.Judge(r, r.Settings.Thresholds);
        return r;
    }

    /// <summary>The fixture run (a passing one) stopped 60 s into its 120 s window: its samples up to then are what it has.</summary>
    private static TestResults StoppedInTheWindow()
    {
        var r = Clean();
        r.Completion = Completions.Stopped;
        r.Timeline.CollectionEndUtc = r.Timeline.CollectionStartUtc!.Value.AddSeconds(60);
        r.Timeline.TestEndUtc = r.Timeline.CollectionEndUtc.Value.AddSeconds(5);
        r.TimeSeries.RemoveAll(p => p.TimeUtc > r.Timeline.CollectionEndUtc.Value);
        r.Verdict = VerdictJudge.Judge(r, r.Settings.Thresholds);
        return r;
    }

    public static TheoryData<string> Stops => new() { "tuning", "window" };
    private static TestResults Stopped(string when) => when == "tuning" ? StoppedDuringTuning() : StoppedInTheWindow();

    [Fact]
    public void The_fixture_passes_whole_so_a_stopped_copy_has_nothing_earned_to_fail_on()
    {
        var whole = Clean();
        Assert.Equal(Verdicts.Pass, VerdictJudge.Judge(whole, whole.Settings.Thresholds).Result);
        Assert.Equal(Verdicts.Stopped, StoppedDuringTuning().Verdict.Result);
        Assert.Equal(Verdicts.Stopped, StoppedInTheWindow().Verdict.Result);
    }

    [Theory]
    [MemberData(nameof(Stops))]
    public void The_HTML_verdict_cell_reads_Stopped_and_Jetstress_automation_reads_it_as_not_passed(string when)
    {
        var r = Stopped(when);
        string html = HtmlReport.Render(r);
        // ExchangeDsc's Test-JetstressSuccessful: the line after the label; Pass only when it is -like 'Pass'.
        Assert.Equal("Stopped", HtmlReportTests.LineAfter(html, "Overall Test Result"));
        Assert.Contains("<td class=\"failure\">Stopped</td>", html, StringComparison.Ordinal);
        // jacobklitzke's JetstressAutomation.ps1: Pass is the success cell, which a stopped run never has.
        Assert.DoesNotContain("<td class=\"success\">Pass</td>", html, StringComparison.Ordinal);
        Assert.DoesNotContain(">Fail<", html, StringComparison.Ordinal);
        Assert.DoesNotContain("found no thread count", html, StringComparison.Ordinal);
        Assert.DoesNotContain("is below the target", html, StringComparison.Ordinal);
        Assert.Equal(PartialWindow.Describe(r), System.Net.WebUtility.HtmlDecode(HtmlReportTests.LineAfter(html, ReportText.RunCompletionLabel)));
    }

    [Fact]
    public void A_run_stopped_during_tuning_leaves_the_figures_it_never_measured_empty_in_HTML_XML_and_text()
    {
        var r = StoppedDuringTuning();
        string html = HtmlReport.Render(r);
        // Empty, not 0.000: ExchangeDsc parses the Achieved value only when it is not empty (a word would throw there).
        Assert.Equal("", HtmlReportTests.LineAfter(html, "Achieved Transactional I/O per Second"));
        Assert.Equal("", HtmlReportTests.LineAfter(html, "Final Database Size (bytes)"));
        Assert.DoesNotContain("% of the target", html, StringComparison.Ordinal);
        Assert.Contains("Achieved: not measured. Stopped during Tuning, before the measured window began", html, StringComparison.Ordinal);

        var xml = XDocument.Parse(XmlReport.Render(r)).Root!;
        string Value(string section, string name) => xml.Element(section)!.Elements("element").Single(e => (string?)e.Attribute("name") == name).Attribute("value")!.Value;
        Assert.Equal("Stopped", Value("test-summary", "Overall Test Result"));
        Assert.Equal("", Value("database-sizing", "Achieved Transactional I/O per Second"));
        Assert.Equal("", Value("database-sizing", "Final Database Size (bytes)"));
        Assert.Equal(PartialWindow.Describe(r), Value("test-summary", ReportText.RunCompletionLabel));
        Assert.Equal(new[] { "RunStopped" }, xml.Element("test-issues")!.Elements("element").Select(e => (string)e.Attribute("code")!).ToArray());

        string text = TextReport.Render(r);
        Assert.StartsWith($"{ReportText.ToolName} Performance test on LAB01: STOPPED\n", text, StringComparison.Ordinal);
        Assert.Matches(@"Achieved Transactional I/O per Second\s+not measured\n", text);
        Assert.Matches(@"Final Database Size \(bytes\)\s+not measured\n", text);
        Assert.DoesNotContain("% of target", text, StringComparison.Ordinal);
        // No session count is stated as tuned: the search chose none.
        Assert.Matches(@"Thread Count\s+not chosen: the run was stopped while tuning\n", text);
        Assert.DoesNotContain("auto-tuned", text, StringComparison.Ordinal);

        Assert.Equal(CsvReport.Header + "\r\n", CsvReport.Render(r)); // no sample was measured: no row stands for one
    }

    [Fact]
    public void A_run_stopped_in_its_window_keeps_its_figures_labelled_as_the_partial_window_they_cover()
    {
        var r = StoppedInTheWindow();
        string partial = PartialWindow.Describe(r)!;
        Assert.Equal("Stopped 60 s into the measured window of the 120 s planned (50%): the figures cover those 60 s only", partial);
        string html = HtmlReport.Render(r);
        Assert.Equal(JetFormat.Number(TransactionalIops.Achieved(r)), HtmlReportTests.LineAfter(html, "Achieved Transactional I/O per Second"));
        Assert.Contains("% of the target", html, StringComparison.Ordinal);
        string text = TextReport.Render(r);
        Assert.Contains(partial, text, StringComparison.Ordinal);
        Assert.Contains(partial, Assert.Single(r.Verdict.Reasons).Message, StringComparison.Ordinal);
        // The CSV is the samples the partial window measured, and no more.
        Assert.Equal(r.TimeSeries.Count, CsvReport.Render(r).Split("\r\n", StringSplitOptions.RemoveEmptyEntries).Length - 1);
        Assert.All(r.TimeSeries, p => Assert.True(p.TimeUtc <= r.Timeline.CollectionEndUtc));
    }

    [Fact]
    public void The_ESRP_document_names_a_stopped_run_as_not_complete_and_never_as_failed()
    {
        var r = StoppedInTheWindow();
        var suite = EsrpSuite.From(new[] { r });
        Assert.Equal(Verdicts.Stopped, Assert.Single(suite.Tests).Result);
        var gaps = EsrpDocument.Gaps(suite);
        Assert.Contains(gaps, g => g.StartsWith("Performance did not complete on LAB01 (Stopped)", StringComparison.Ordinal));
        Assert.DoesNotContain(gaps, g => g.Contains("failed on", StringComparison.Ordinal));
    }

    [Fact]
    public void Several_hosts_merged_are_Stopped_when_one_stopped_and_none_failed()
    {
        var stopped = StoppedInTheWindow();
        var other = Clean();
        other.Environment.MachineName = "LAB02";
        other.Verdict = VerdictJudge.Judge(other, other.Settings.Thresholds);
        Assert.Equal(Verdicts.Stopped, ResultsMerge.Merge(new[] { stopped, other }).Result);
    }
}
