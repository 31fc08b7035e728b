using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>Hosts stepping together without I/O: the shared sequence driven by the deployment rule, the deployment's curve and answer.</summary>
public class CapacityDeploymentTests
{
    private static readonly VerdictReason SlowLog = new() { Code = "LogWriteLatencyAverage", Measured = 14, Limit = 10, Message = "log writes averaged 14 ms" };

    private static CapacityStep Step(int number, int mailboxes, bool passed, double achieved, double logMs) => new()
    {
        Step = number, Mailboxes = mailboxes, Passed = passed, TargetIops = mailboxes * 0.12, AchievedIops = achieved,
        LogWriteLatencyAverageMs = logMs, Sessions = 4, WindowSeconds = 10,
        MeasureStartUtc = new DateTime(2026, 11, 24, 22, 0, 0, DateTimeKind.Utc).AddSeconds(20 * number),
        Reasons = passed ? new List<VerdictReason>() : new List<VerdictReason> { SlowLog },
        LimitingRule = passed ? null : SlowLog.Code,
    };

    [Fact]
    public void A_deployment_step_passes_only_when_every_host_passed_it()
    {
        Assert.True(CapacitySequence.Deployment(400, new[] { true, true }).Passed);
        Assert.False(CapacitySequence.Deployment(400, new[] { true, false }).Passed);
        Assert.False(CapacitySequence.Deployment(400, new[] { false, true }).Passed);
        Assert.Equal(400, CapacitySequence.Deployment(400, new[] { true }).Mailboxes);
        Assert.Throws<ArgumentException>(() => CapacitySequence.Deployment(400, Array.Empty<bool>()));
    }

    [Theory]
    [InlineData(100, 700, 300)]
    [InlineData(100, 300, 700)]
    [InlineData(1000, 450, 5000)]
    public void Hosts_stepping_together_answer_what_the_weakest_host_carries(int start, int capacityA, int capacityB)
    {
        var outcomes = new List<StepOutcome>();
        while (outcomes.Count < 60 && CapacitySequence.Next(start, outcomes) is int n)
            outcomes.Add(CapacitySequence.Deployment(n, new[] { n <= capacityA, n <= capacityB }));
        int weakest = Math.Min(capacityA, capacityB);
        var (pass, fail) = CapacitySequence.Bracket(outcomes);
        Assert.True(pass <= weakest && fail > weakest, $"{pass}..{fail} around the weakest host's {weakest}");
        Assert.True(weakest - pass <= CapacitySequence.Resolution(weakest), $"answer {pass}, weakest host {weakest}");
    }

    [Fact]
    public void The_deployment_curve_sums_the_load_takes_the_worst_latency_and_names_the_failing_host()
    {
        var a = new List<CapacityStep> { Step(1, 100, true, 14, 2), Step(2, 200, true, 27, 4), Step(3, 400, true, 55, 8) };
        var b = new List<CapacityStep> { Step(1, 100, true, 13, 3), Step(2, 200, true, 26, 6), Step(3, 400, false, 50, 14) };
        var steps = CapacityDeployment.Steps(new (string, IReadOnlyList<CapacityStep>)[] { ("hostA", a), ("hostB", b) });

        Assert.Equal(new[] { 200, 400, 800 }, steps.Select(s => s.Mailboxes));
        Assert.Equal(new[] { true, true, false }, steps.Select(s => s.Passed));
        Assert.Equal(105, steps[2].AchievedIops);
        Assert.Equal(96, steps[2].TargetIops, 3);
        Assert.Equal(14, steps[2].LogWriteLatencyAverageMs);
        Assert.Equal(8, steps[2].Sessions);
        Assert.Equal("LogWriteLatencyAverage", steps[2].LimitingRule);
        Assert.StartsWith("hostB: ", Assert.Single(steps[2].Reasons).Message);

        var profile = new MailboxProfile { MailboxCount = 150, IopsPerMailbox = 0.1, HeadroomPercent = 20 };
        var answer = CapacityDeployment.Answer(profile, 2, steps);
        Assert.Equal(400, answer.Mailboxes);        // 200 a host on both hosts
        Assert.Equal(800, answer.LimitingMailboxes);
        Assert.Equal(300, answer.RequiredMailboxes); // the profile on each of the two hosts
        Assert.Equal(33.3, answer.PercentOverRequirement);
        Assert.Equal(36, answer.RequiredIops);
        Assert.Equal(53 - 36, answer.ReserveIops, 3);
    }

    [Fact]
    public void A_deployment_is_resolved_where_its_hosts_search_was_in_mailboxes_a_host()
    {
        // 28 pass and 30 fail a host is within 5% of 28 (2 mailboxes); as a deployment of two, 56 and 60 are 4 apart,
        // more than 5% of 56 (3), but no count between them exists for two hosts stepping together.
        var a = new List<CapacityStep> { Step(1, 20, true, 11, 2), Step(2, 40, false, 20, 14), Step(3, 30, false, 16, 14), Step(4, 28, true, 15, 3) };
        var b = new List<CapacityStep> { Step(1, 20, true, 11, 2), Step(2, 40, true, 21, 5), Step(3, 30, true, 16, 5), Step(4, 28, true, 15, 3) };
        var steps = CapacityDeployment.Steps(new (string, IReadOnlyList<CapacityStep>)[] { ("hostA", a), ("hostB", b) });
        var answer = CapacityDeployment.Answer(new MailboxProfile { MailboxCount = 20, IopsPerMailbox = 0.5 }, 2, steps);
        Assert.Equal(56, answer.Mailboxes);
        Assert.Equal(60, answer.LimitingMailboxes);
        Assert.True(answer.Resolved);
        // One step short of the bracket (30 fail, 27 pass a host: 3 apart, more than 5% of 27) is not resolved.
        var shorter = CapacityDeployment.Steps(new (string, IReadOnlyList<CapacityStep>)[] { ("hostA", a.Take(3).Append(Step(4, 27, true, 14, 3)).ToList()), ("hostB", b.Take(3).Append(Step(4, 27, true, 14, 3)).ToList()) });
        Assert.False(CapacityDeployment.Answer(new MailboxProfile { MailboxCount = 20, IopsPerMailbox = 0.5 }, 2, shorter).Resolved);
    }

    [Fact]
    public void Steps_that_did_not_go_together_are_refused()
    {
        var a = new List<CapacityStep> { Step(1, 100, true, 14, 2), Step(2, 200, true, 27, 4) };
        var b = new List<CapacityStep> { Step(1, 100, true, 13, 3), Step(2, 50, true, 7, 2) };
        var ex = Assert.Throws<ArgumentException>(() => CapacityDeployment.Steps(new (string, IReadOnlyList<CapacityStep>)[] { ("hostA", a), ("hostB", b) }));
        Assert.Contains("hostB 50", ex.Message);
    }
}
