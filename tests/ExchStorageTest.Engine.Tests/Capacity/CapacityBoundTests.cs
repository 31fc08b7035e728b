using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>
/// The answer states its bound (docs/capacity.md, "Reading the answer"): a search that never failed — cut by the time
/// bound, the most the search tries, a stop or a failure — or one the host failed answers "at least N", with what cut it;
/// a step the storage failed makes the answer the storage's own. Pure: the answer and its words over given steps.
/// </summary>
public class CapacityBoundTests
{
    private static readonly MailboxProfile Profile = new() { MailboxCount = 20, IopsPerMailbox = 1, HeadroomPercent = 0, MailboxSizeMB = 20, DatabaseCount = 1, CopiesPerDatabase = 1 };
    private static readonly VerdictReason SlowLog = new() { Code = "LogWriteLatencyAverage", Measured = 14, Limit = 10, Message = "log writes averaged 14 ms" };
    private static readonly VerdictReason Host = new() { Code = ReasonCodes.HostLimited, Measured = 0.4, Message = "The host, not the storage, failed the step" };

    private static CapacityStep Step(int number, int mailboxes, VerdictReason? failedBy = null) => new()
    {
        Step = number, Mailboxes = mailboxes, TargetIops = mailboxes, AchievedIops = mailboxes * 1.15,
        Passed = failedBy is null, Reasons = failedBy is null ? new List<VerdictReason>() : new List<VerdictReason> { failedBy },
        LimitingRule = failedBy?.Code,
    };

    /// <summary>The tester's search: doubling from 20, every step passed, until the bound left no room for the next.</summary>
    private static readonly CapacityStep[] NeverFailed = { Step(1, 20), Step(2, 40), Step(3, 80), Step(4, 160) };

    private static CapacityResult Search(IReadOnlyList<CapacityStep> steps, string stopReason) => new()
    {
        Steps = steps.ToList(), Answer = CapacitySearch.Answer(Profile, steps, stopReason), StopReason = stopReason, StopMessage = "as the test says",
        ResolutionPercent = CapacitySequence.ResolutionPercent,
    };

    [Fact]
    public void A_search_the_time_bound_cut_before_any_step_failed_answers_at_least_its_largest_pass()
    {
        var c = Search(NeverFailed, CapacityStopReasons.TimeBoundReached);
        var a = c.Answer;
        Assert.Equal(160, a.Mailboxes);
        Assert.True(a.LowerBound);
        Assert.Equal(CapacityStopReasons.TimeBoundReached, a.LowerBoundReason);
        Assert.Null(a.LimitingRule);
        Assert.Null(a.LimitingMailboxes);
        Assert.False(a.Resolved);
        var said = CapacityReport.Answer(c, Profile);
        Assert.StartsWith("The storage carried at least 160 mailboxes", said[0], StringComparison.Ordinal);
        Assert.Contains(said, l => l.Contains("no step failed before the search ended (TimeBoundReached)", StringComparison.Ordinal));
        // A lower bound above the requirement still passes it: the storage carries at least the profile's mailboxes.
        var r = new TestResults { TestType = TestType.Capacity, Profile = Profile, Capacity = c };
        Assert.Equal(Verdicts.Pass, VerdictJudge.Judge(r, Thresholds.Strict()).Result);
    }

    [Theory]
    [InlineData(CapacityStopReasons.MaximumReached)]
    [InlineData(CapacityStopReasons.Stopped)]
    [InlineData(CapacityStopReasons.Failed)]
    public void Every_other_end_of_a_search_that_never_failed_is_a_lower_bound_named_by_that_end(string stopReason)
    {
        var a = Search(NeverFailed, stopReason).Answer;
        Assert.True(a.LowerBound);
        Assert.Equal(stopReason, a.LowerBoundReason);
        Assert.Equal(160, a.Mailboxes);
    }

    [Fact]
    public void A_checkpoint_of_a_search_that_has_not_ended_is_a_lower_bound_of_an_interrupted_search()
    {
        var a = CapacitySearch.Answer(Profile, NeverFailed);
        Assert.True(a.LowerBound);
        Assert.Equal(Completions.Interrupted, a.LowerBoundReason);
    }

    [Fact]
    public void A_step_the_storage_failed_bounds_the_answer_from_above_whatever_ended_the_search()
    {
        var steps = new[] { Step(1, 20), Step(2, 40), Step(3, 80, SlowLog), Step(4, 60) };
        var c = Search(steps, CapacityStopReasons.TimeBoundReached);
        var a = c.Answer;
        Assert.Equal((60, 80, "LogWriteLatencyAverage"), (a.Mailboxes, a.LimitingMailboxes, a.LimitingRule));
        Assert.False(a.LowerBound);
        Assert.Null(a.LowerBoundReason);
        Assert.False(a.Resolved); // 60..80 is wider than 5%: the bound cut the bisection, which Resolved says
        var said = CapacityReport.Answer(c, Profile);
        Assert.StartsWith("The storage carried 60 mailboxes", said[0], StringComparison.Ordinal);
        Assert.DoesNotContain(said, l => l.Contains("lower bound", StringComparison.Ordinal));
    }

    [Fact]
    public void A_step_the_host_failed_is_a_lower_bound_named_by_the_host_whatever_ended_the_search()
    {
        var steps = new[] { Step(1, 20), Step(2, 40, Host), Step(3, 30), Step(4, 35, Host), Step(5, 32) };
        var c = Search(steps, CapacityStopReasons.Resolved);
        var a = c.Answer;
        Assert.Equal((32, 35, ReasonCodes.HostLimited), (a.Mailboxes, a.LimitingMailboxes, a.LimitingRule));
        Assert.True(a.LowerBound);
        Assert.Equal(ReasonCodes.HostLimited, a.LowerBoundReason);
        Assert.Contains(CapacityReport.Answer(c, Profile), l => l.StartsWith("The answer is a lower bound: the host, not the storage", StringComparison.Ordinal));
    }

    [Fact]
    public void No_pass_is_no_lower_bound_and_no_step_says_the_search_has_no_answer()
    {
        var failed = Search(new[] { Step(1, 20, SlowLog), Step(2, 10, SlowLog) }, CapacityStopReasons.TimeBoundReached);
        Assert.False(failed.Answer.LowerBound);
        Assert.Equal(0, failed.Answer.Mailboxes);
        var none = Search(Array.Empty<CapacityStep>(), CapacityStopReasons.Stopped);
        Assert.False(none.Answer.LowerBound);
        Assert.Equal("No step finished: the search has no answer.", CapacityReport.Answer(none, Profile)[0]);
    }

    [Fact]
    public void A_deployment_that_never_failed_is_a_lower_bound_cut_by_the_deployments_end()
    {
        var steps = new[] { Step(1, 40), Step(2, 80), Step(3, 160) };
        var a = CapacityDeployment.Answer(Profile, 2, steps, CapacityStopReasons.TimeBoundReached);
        Assert.Equal(160, a.Mailboxes);
        Assert.True(a.LowerBound);
        Assert.Equal(CapacityStopReasons.TimeBoundReached, a.LowerBoundReason);
    }

    [Fact]
    public void The_reported_step_is_the_answers_else_the_first_failing_step_else_none()
    {
        // Two passes at the answer's count: the one that achieved more is the answer's evidence.
        var again = Step(5, 60);
        again.AchievedIops = 80;
        var steps = new[] { Step(1, 20), Step(2, 40), Step(3, 80, SlowLog), Step(4, 60), again };
        Assert.Equal(5, CapacitySearch.ReportedStep(steps, CapacitySearch.Answer(Profile, steps))!.Step);
        var failed = new[] { Step(1, 20, SlowLog), Step(2, 10, SlowLog) };
        Assert.Equal(2, CapacitySearch.ReportedStep(failed, CapacitySearch.Answer(Profile, failed))!.Step); // the smallest fail: the one that bounds
        Assert.Null(CapacitySearch.ReportedStep(Array.Empty<CapacityStep>(), CapacitySearch.Answer(Profile, Array.Empty<CapacityStep>())));
    }
}
