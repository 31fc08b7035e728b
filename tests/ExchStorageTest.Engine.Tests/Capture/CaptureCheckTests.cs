using System.Text;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Calculator;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Capture;

/// <summary>
/// Runs judged against the capture they were sized from: the line every report, the results and the console show
/// ("Tested at 1.3x the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): 5,210 IOPS; achieved ... at ... ms"),
/// per host (the captured servers' target split evenly) and for the deployment, computed from the run's own figures.
/// </summary>
public class CaptureCheckTests
{
    private static CaptureTargets Captured => new()
    {
        Captures = new[] { "ex01-ex04.csv" }, Servers = new[] { "EX01", "EX02", "EX03", "EX04" }, TimeZone = "Pacific Standard Time",
        WindowStart = "2026-11-02 10:00", WindowEnd = "2026-11-02 11:00", GrowthFactor = 1.3, DatabaseIops = 4008, DatabaseReadsPerSecond = 2404.8, TargetIops = 5210.4, TestedIops = 5210.4,
    };

    /// <summary>A host of 40 databases at 21 reads and 13 writes per second each (1,360 IOPS) and 9.8 ms reads.</summary>
    private static TestResults Host(string machine, double readsPerDb = 21, double readLatencyMs = 9.8)
    {
        var r = CalculatorCheckTests.Host(machine, readsPerDb, 13, 2.5, 0, 1, readLatencyMs);
        r.Profile.Calculator = null;
        r.Profile.Capture = Captured;
        return r;
    }

    [Fact]
    public void Four_hosts_that_carry_it_meet_the_captures_target_in_the_issues_words()
    {
        var check = CaptureCheck.ForDeployment(new[] { Host("ex11"), Host("ex12"), Host("ex13"), Host("ex14") })!;
        Assert.True(check.Met);
        Assert.Equal((5210.4, 5440.0, 4), (check.TestedIops, check.AchievedIops, check.Hosts));
        Assert.Equal("Tested at 1.3x the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): 5,210 IOPS; achieved 5,440 at 9.8 ms: meets it.", check.Line);
    }

    [Fact]
    public void One_host_is_judged_against_its_share_and_a_short_one_says_how_far_short()
    {
        var check = CaptureCheck.For(Host("ex11"))!;
        Assert.Equal(1302.6, check.TestedIops, 3);
        Assert.Equal("Tested at 1.3x the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): 1,303 IOPS per server (5,210 over 4 servers); achieved 1,360 at 9.8 ms: meets it.", check.Line);

        var shortOne = CaptureCheck.For(Host("ex11", readsPerDb: 15))!;
        Assert.False(shortOne.Met);
        Assert.EndsWith("achieved 1,120 at 9.8 ms: short of it (86%).", shortOne.Line, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(Completions.Stopped, "stopped")]
    [InlineData(Completions.Interrupted, "interrupted")]
    public void A_run_stopped_before_its_end_is_not_judged_against_the_capture_though_its_IOPS_reach_it(string completion, string said)
    {
        var stopped = Host("ex11");
        stopped.Completion = completion;
        var check = CaptureCheck.For(stopped)!;
        Assert.False(check.Met);
        Assert.Equal(1360, check.AchievedIops, 3);
        Assert.EndsWith($"achieved 1,360 at 9.8 ms: not judged: the run was {said} before its end, its latencies never held to the limits.", check.Line, StringComparison.Ordinal);
        Assert.False(CaptureCheck.ForDeployment(new[] { Host("ex11"), stopped, Host("ex13"), Host("ex14") })!.Met);
    }

    [Fact]
    public void The_text_and_HTML_reports_carry_the_line_and_a_profile_without_a_capture_has_none()
    {
        var r = Host("ex11");
        r.CaptureCheck = CaptureCheck.For(r);
        var text = new StringBuilder();
        CaptureReport.Text(text, CaptureReport.Of(r));
        Assert.Contains("Capture Check (EX01-EX04, 10:00-11:00 on 2026-11-02)", text.ToString(), StringComparison.Ordinal);
        Assert.Contains(r.CaptureCheck!.Line, text.ToString(), StringComparison.Ordinal);
        // 21 reads and 13 writes per database: 61.8% reads; the capture's 2404.8 of 4008: 60%.
        Assert.Contains("Busiest hour of EX01-EX04: 4008 database IOPS x 1.3 = 5210.4; for the host judged 1302.6; tested 1302.6, achieved 1360 at 9.8 ms average database read latency: Meets.", text.ToString(), StringComparison.Ordinal);
        // 21 reads and 13 writes per database: 61.8% reads; the capture's 2404.8 of 4008: 60%.
        Assert.Contains("Database reads: the capture 60%, the test 61.8% (its own transactional mix).", text.ToString(), StringComparison.Ordinal);
        var html = new StringBuilder();
        CaptureReport.Html(html, CaptureReport.Of(r));
        Assert.Contains("<p class=\"success\">Tested at 1.3x", html.ToString(), StringComparison.Ordinal);

        var plain = CalculatorCheckTests.Host("ex11", 21, 13, 2.5, 0, 1);
        plain.Profile.Calculator = null;
        Assert.Null(CaptureCheck.For(plain));
    }
}
