using System.Text.Json;
using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Cli;
using ExchStorageTest.Engine.Tests.Reports;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>
/// The aggregate of one run's hosts that searched for capacity together: the merge gives the deployment's curve and
/// answer exactly as <see cref="CapacityDeployment"/> does, the aggregate text, HTML and report event show it, and
/// hosts whose steps did not go together give no deployment answer, with the reason.
/// </summary>
public class CapacityDeploymentReportTests : IDisposable
{
    private readonly TestFolder _dir = new("capdeploy");
    private static readonly VerdictReason SlowLog = new() { Code = "LogWriteLatencyAverage", Measured = 14, Limit = 10, Message = "log writes averaged 14 ms" };

    private static CapacityStep Step(int number, int mailboxes, bool passed, double logMs) => new()
    {
        Step = number, Mailboxes = mailboxes, Passed = passed, TargetIops = mailboxes * 1.0, PacedIops = mailboxes * 1.15, AchievedIops = mailboxes * 1.01,
        LogWriteLatencyAverageMs = logMs, DatabaseReadLatencyAverageMs = 3, Sessions = 4, WindowSeconds = 10,
        MeasureStartUtc = new DateTime(2011, 3, 22, 8, 0, 0, DateTimeKind.Utc).AddSeconds(20 * number),
        Reasons = passed ? new List<VerdictReason>() : new List<VerdictReason> { SlowLog },
        LimitingRule = passed ? null : SlowLog.Code,
    };

    /// <summary>A host's capacity document: its steps (mailboxes, pass) in order, stepped by the caller unless told otherwise.</summary>
    internal static TestResults Host(TestResults fixture, (int Mailboxes, bool Passed)[] steps, string steppedBy = CapacityStepping.Caller)
    {
        fixture.TestType = TestType.Capacity;
        fixture.Profile.MailboxCount = 100;
        fixture.Profile.IopsPerMailbox = 1;
        fixture.Profile.HeadroomPercent = 0;
        var list = steps.Select((s, i) => Step(i + 1, s.Mailboxes, s.Passed, s.Passed ? 4 : 14)).ToList();
        fixture.Capacity = new CapacityResult
        {
            SteppedBy = steppedBy, Steps = list, Answer = CapacitySearch.Answer(fixture.Profile, list), StopReason = "Resolved", StopMessage = "the deployment's search resolved",
            StepSeconds = 10, SettleSeconds = 2, ResolutionPercent = CapacitySequence.ResolutionPercent, StartMailboxes = 100,
        };
        return fixture;
    }

    internal static readonly (int, bool)[] StrongHost = { (100, true), (200, true), (400, true), (300, true) };
    internal static readonly (int, bool)[] WeakHost = { (100, true), (200, true), (400, false), (300, true) };

    [Fact]
    public void The_merge_of_hosts_that_stepped_together_gives_the_deployments_curve_and_answer_and_the_text_shows_it()
    {
        var a = Host(ReportFixtures.Js13(), StrongHost);
        var b = Host(ReportFixtures.Js14(), WeakHost);
        var merged = ResultsMerge.Merge(new[] { a, b });

        var expected = CapacityDeployment.Steps(new (string, IReadOnlyList<CapacityStep>)[] { ("JS13", a.Capacity!.Steps), ("JS14", b.Capacity!.Steps) });
        var deployment = Assert.IsType<CapacityResult>(merged.Capacity);
        Assert.Null(merged.CapacityUnavailable);
        Assert.Equal(expected.Select(s => (s.Mailboxes, s.Passed, s.AchievedIops)), deployment.Steps.Select(s => (s.Mailboxes, s.Passed, s.AchievedIops)));
        var answer = CapacityDeployment.Answer(a.Profile, 2, expected);
        Assert.Equal((600, 800, "LogWriteLatencyAverage", 200), (answer.Mailboxes, answer.LimitingMailboxes, answer.LimitingRule, answer.RequiredMailboxes));
        Assert.Equal((answer.Mailboxes, answer.LimitingMailboxes, answer.LimitingRule, answer.PercentOverRequirement),
            (deployment.Answer.Mailboxes, deployment.Answer.LimitingMailboxes, deployment.Answer.LimitingRule, deployment.Answer.PercentOverRequirement));

        string text = TextReport.Render(merged);
        Assert.Contains("Deployment capacity (2 hosts stepping together)", text, StringComparison.Ordinal);
        Assert.Contains("The storage carried 600 mailboxes", text, StringComparison.Ordinal);
        Assert.Contains("Limited by LogWriteLatencyAverage at 800 mailboxes: JS14: log writes averaged 14 ms", text, StringComparison.Ordinal);
        string html = DeploymentCapacityHtml.Render(merged);
        Assert.Contains("<legend>Deployment capacity (2 hosts stepping together)</legend>", html, StringComparison.Ordinal);
        Assert.Contains("<svg", html, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("steps", "did not step together")]
    [InlineData("engine", "searched on its own")]
    public void Hosts_whose_steps_did_not_go_together_give_no_deployment_answer(string why, string says)
    {
        var a = Host(ReportFixtures.Js13(), StrongHost);
        var b = why == "steps"
            ? Host(ReportFixtures.Js14(), new[] { (100, true), (200, true), (350, false) })
            : Host(ReportFixtures.Js14(), WeakHost, CapacityStepping.Engine);
        var merged = ResultsMerge.Merge(new[] { a, b });
        Assert.Null(merged.Capacity);
        Assert.Contains(says, merged.CapacityUnavailable, StringComparison.Ordinal);
        string text = TextReport.Render(merged);
        Assert.Contains("No deployment answer: ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("The storage carried", text, StringComparison.Ordinal);
    }

    [Fact]
    public void The_report_command_gives_the_deployments_capacity_in_the_aggregate_event_and_its_html_page()
    {
        ResultsFile.Save(Host(ReportFixtures.Js13(), StrongHost), _dir.Combine("js13.json"));
        ResultsFile.Save(Host(ReportFixtures.Js14(), WeakHost), _dir.Combine("js14.json"));
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Html\"],\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        var report = events.Single(e => e.GetProperty("type").GetString() == "report");
        var capacity = report.GetProperty("aggregate").GetProperty("capacity");
        Assert.Equal(600, capacity.GetProperty("mailboxes").GetInt32());
        Assert.Equal("LogWriteLatencyAverage", capacity.GetProperty("limitingRule").GetString());
        var steps = capacity.GetProperty("steps").EnumerateArray().ToList();
        Assert.Equal(new[] { 200, 400, 800, 600 }, steps.Select(s => s.GetProperty("mailboxes").GetInt32()));
        Assert.Equal(new[] { 1, 2, 3, 4 }, steps.Select(s => s.GetProperty("step").GetInt32()));
        Assert.Equal("Fail", steps[2].GetProperty("result").GetString());
        Assert.Contains("Deployment capacity (2 hosts stepping together)", report.GetProperty("text").GetString(), StringComparison.Ordinal);
        var page = Assert.Single(report.GetProperty("files").EnumerateArray().Select(f => f.GetString()!), f => f.EndsWith(".capacity.html", StringComparison.Ordinal));
        Assert.Contains("The storage carried 600 mailboxes", File.ReadAllText(page), StringComparison.Ordinal);
    }

    public void Dispose() => _dir.Dispose();
}
