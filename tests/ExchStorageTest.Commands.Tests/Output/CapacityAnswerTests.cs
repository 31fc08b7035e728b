using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Tests.Output;

/// <summary>The module's capacity answer read from the engine's result event: a search the host limited is a lower bound, and says so.</summary>
public sealed class CapacityAnswerTests
{
    private static JsonObject Event(string rule, bool lowerBound) => new JsonObject()
        .Set(EventFields.Result.CapacityFields.Mailboxes, 150L)
        .Set(EventFields.Result.CapacityFields.LimitingMailboxes, 200L)
        .Set(EventFields.Result.CapacityFields.LimitingRule, rule)
        .Set(EventFields.Result.CapacityFields.LowerBound, lowerBound);

    [Fact]
    public void A_search_the_host_limited_reads_as_a_lower_bound_named_by_the_host()
    {
        var a = CapacityAnswer.FromEvent(Event(ReasonCodes.HostLimited, lowerBound: true))!;
        Assert.True(a.LowerBound);
        Assert.Equal("HostLimited", a.LimitingRule);
        Assert.Equal("at least 150 mailboxes (limited by HostLimited at 200)", a.ToString());
    }

    [Fact]
    public void A_search_the_storage_limited_is_the_answer_itself()
    {
        var a = CapacityAnswer.FromEvent(Event("LogWriteLatencyAverage", lowerBound: false))!;
        Assert.False(a.LowerBound);
        Assert.Equal("150 mailboxes (limited by LogWriteLatencyAverage at 200)", a.ToString());
        // An engine from before the field: not a lower bound.
        var old = new JsonObject().Set(EventFields.Result.CapacityFields.Mailboxes, 150L);
        Assert.False(CapacityAnswer.FromEvent(old)!.LowerBound);
    }

    [Fact]
    public void A_search_cut_before_any_step_failed_reads_as_a_lower_bound_named_by_what_cut_it()
    {
        var cut = new JsonObject()
            .Set(EventFields.Result.CapacityFields.Mailboxes, 160L)
            .Set(EventFields.Result.CapacityFields.LowerBound, true)
            .Set(EventFields.Result.CapacityFields.LowerBoundReason, CapacityStopReasons.TimeBoundReached)
            .Set(EventFields.Result.CapacityFields.StopReason, CapacityStopReasons.TimeBoundReached);
        var a = CapacityAnswer.FromEvent(cut)!;
        Assert.True(a.LowerBound);
        Assert.Equal("TimeBoundReached", a.LowerBoundReason);
        Assert.Null(a.LimitingRule);
        Assert.Equal("at least 160 mailboxes (no step failed: TimeBoundReached)", a.ToString());
        Assert.Null(CapacityAnswer.FromEvent(Event("LogWriteLatencyAverage", lowerBound: false))!.LowerBoundReason);
    }
}
