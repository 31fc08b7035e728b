using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>The search's domain logic without I/O: the step sequence, the answer, the limiting rule, the headroom arithmetic, the timing.</summary>
public class CapacitySearchTests
{
    /// <summary>Runs the pure search against storage that carries exactly <paramref name="capacity"/> mailboxes.</summary>
    private static List<StepOutcome> Search(int start, int capacity, int maxSteps = 60)
    {
        var steps = new List<StepOutcome>();
        while (steps.Count < maxSteps && CapacitySequence.Next(start, steps) is int n) steps.Add(new StepOutcome(n, n <= capacity));
        return steps;
    }

    [Fact]
    public void Doubles_from_the_start_until_a_step_fails_then_bisects()
    {
        var steps = Search(start: 100, capacity: 700);
        Assert.Equal(new[] { 100, 200, 400, 800 }, steps.Take(4).Select(s => s.Mailboxes));
        Assert.Equal(600, steps[4].Mailboxes); // halfway between the last pass (400) and the first fail (800)
        var (pass, fail) = CapacitySequence.Bracket(steps);
        Assert.True(pass <= 700 && fail > 700, $"{pass}..{fail}");
        Assert.True(fail - pass <= CapacitySequence.Resolution(pass!.Value), $"{pass}..{fail}");
    }

    [Fact]
    public void Halves_from_the_start_while_steps_fail()
    {
        var steps = Search(start: 1000, capacity: 150);
        Assert.Equal(new[] { 1000, 500, 250, 125 }, steps.Take(4).Select(s => s.Mailboxes));
        var (pass, fail) = CapacitySequence.Bracket(steps);
        Assert.InRange(pass!.Value, 150 - CapacitySequence.Resolution(150), 150);
        Assert.True(fail > 150);
    }

    [Theory]
    [InlineData(1, 37)]
    [InlineData(50, 37)]
    [InlineData(64, 1000)]
    [InlineData(3000, 1000)]
    [InlineData(500, 12345)]
    public void The_answer_does_not_depend_on_the_start_beyond_one_resolution(int start, int capacity)
    {
        var (pass, fail) = CapacitySequence.Bracket(Search(start, capacity));
        Assert.True(pass <= capacity, $"answer {pass} above the capacity {capacity}");
        Assert.True(capacity - pass <= CapacitySequence.Resolution(capacity), $"answer {pass}, capacity {capacity}");
        Assert.True(fail > capacity);
    }

    [Fact]
    public void Ends_when_one_mailbox_fails_and_when_the_most_mailboxes_pass()
    {
        var none = Search(start: 8, capacity: 0);
        Assert.Equal(new[] { 8, 4, 2, 1 }, none.Select(s => s.Mailboxes));
        Assert.Null(CapacitySequence.Next(8, none));

        var all = Search(start: CapacitySequence.MaximumMailboxes / 4, capacity: int.MaxValue);
        Assert.Equal(CapacitySequence.MaximumMailboxes, all[^1].Mailboxes);
        Assert.Null(CapacitySequence.Next(CapacitySequence.MaximumMailboxes / 4, all));
    }

    [Fact]
    public void A_pass_above_a_fail_never_raises_the_answer_above_the_fail()
    {
        var steps = new List<StepOutcome> { new(100, true), new(200, false), new(400, true) };
        Assert.Equal((100, 200), CapacitySequence.Bracket(steps));
        Assert.Equal(150, CapacitySequence.Next(100, steps));
    }

    private static CapacityStep Step(int mailboxes, bool passed, double achieved, params VerdictReason[] reasons) => new()
    {
        Mailboxes = mailboxes, Passed = passed, AchievedIops = achieved, Reasons = reasons.ToList(),
        LimitingRule = CapacitySearch.LimitingRule(reasons),
    };

    [Fact]
    public void The_answer_is_the_last_pass_with_the_next_steps_rule_and_the_esrp_headroom_line()
    {
        var profile = new MailboxProfile { MailboxCount = 1000, IopsPerMailbox = 0.1, HeadroomPercent = 20 };
        var read = new VerdictReason { Code = "DatabaseReadLatencyAverage", Measured = 26, Limit = 20 };
        var steps = new[] { Step(1000, true, 140), Step(2000, true, 280), Step(4000, false, 420, read), Step(3000, true, 420), Step(3500, false, 480, read) };
        var a = CapacitySearch.Answer(profile, steps);
        Assert.Equal(3000, a.Mailboxes);
        Assert.Equal(3600, a.MailboxesWithoutHeadroom); // the same IOPS at 0.1 per mailbox without the 20%
        Assert.Equal(360, a.TargetIops);
        Assert.Equal(3500, a.LimitingMailboxes);
        Assert.Equal("DatabaseReadLatencyAverage", a.LimitingRule);
        Assert.Equal(200, a.PercentOverRequirement); // 3000 against the profile's 1000
        Assert.Equal(120, a.RequiredIops);
        Assert.Equal(300, a.ReserveIops); // 420 achieved at the answer against the required 120
        Assert.False(a.Resolved); // 3000..3500 is wider than 5% of 3000
    }

    [Fact]
    public void The_verdict_passes_when_the_answer_carries_the_profile_and_fails_below_it()
    {
        var profile = new MailboxProfile { MailboxCount = 1000, IopsPerMailbox = 0.1 };
        var read = new VerdictReason { Code = "DatabaseReadLatencyAverage", Measured = 26, Limit = 20 };
        TestResults Search(params CapacityStep[] steps) => new()
        {
            TestType = TestType.Capacity, Profile = profile,
            Capacity = new CapacityResult { Steps = steps.ToList(), Answer = CapacitySearch.Answer(profile, steps) },
        };
        var enough = VerdictJudge.Judge(Search(Step(1000, true, 110), Step(2000, false, 150, read)), Thresholds.Strict());
        Assert.Equal("Pass", enough.Result);
        var short_ = VerdictJudge.Judge(Search(Step(1000, false, 80, read), Step(500, true, 55)), Thresholds.Strict());
        Assert.Equal("Fail", short_.Result);
        var reason = Assert.Single(short_.Reasons);
        Assert.Equal("CapacityBelowRequirement", reason.Code);
        Assert.Equal(500, reason.Measured);
        Assert.Equal(1000, reason.Limit);
        Assert.Contains("DatabaseReadLatencyAverage at 1000", reason.Message);
    }

    [Fact]
    public void The_limiting_rule_is_an_io_error_first_then_the_reason_furthest_beyond_its_limit()
    {
        var logAvg = new VerdictReason { Code = "LogWriteLatencyAverage", Measured = 12, Limit = 10 };
        var readMax = new VerdictReason { Code = "DatabaseReadLatencyMaximum", Measured = 150, Limit = 100 };
        var iops = new VerdictReason { Code = "TargetIopsNotMet", Measured = 50, Limit = 100 };
        var io = new VerdictReason { Code = "IoErrors", Measured = 1, Limit = 0 };
        Assert.Equal("DatabaseReadLatencyMaximum", CapacitySearch.LimitingRule(new[] { logAvg, readMax }));
        Assert.Equal("TargetIopsNotMet", CapacitySearch.LimitingRule(new[] { logAvg, readMax, iops }));
        Assert.Equal("IoErrors", CapacitySearch.LimitingRule(new[] { logAvg, io }));
        var stalls = new VerdictReason { Code = "PageFaultStalls", Measured = 20, Limit = 1 };
        Assert.Equal("LogWriteLatencyAverage", CapacitySearch.LimitingRule(new[] { stalls, logAvg }));
        Assert.Equal("PageFaultStalls", CapacitySearch.LimitingRule(new[] { stalls }));
        Assert.Null(CapacitySearch.LimitingRule(Array.Empty<VerdictReason>()));
    }

    [Fact]
    public void Timing_shares_the_bound_among_the_planned_steps_with_a_minimum_window_and_stops_within_it()
    {
        var t = CapacityTiming.For(1800, 15, 90)!;
        Assert.Equal(10, t.SettleSeconds);
        Assert.Equal((1800 - 90) / 12.0 - 10, t.WindowSeconds, 3);
        Assert.True(t.StepsThatFit >= CapacityTiming.PlannedSteps);
        Assert.True(t.Fits(1800 - t.StepSeconds));
        Assert.False(t.Fits(1800 - t.StepSeconds + 1));

        var shortBound = CapacityTiming.For(30, 1, 2)!;
        Assert.Equal(CapacityTiming.MinimumWindowSamples * 1.0, shortBound.WindowSeconds);
        Assert.Equal(4, shortBound.StepsThatFit); // (30 - 2) / (2 + 4)

        Assert.Null(CapacityTiming.For(CapacityTiming.MinimumBound(15, 60) - 1, 15, 60));
        Assert.NotNull(CapacityTiming.For(CapacityTiming.MinimumBound(15, 60), 15, 60));
    }
}
