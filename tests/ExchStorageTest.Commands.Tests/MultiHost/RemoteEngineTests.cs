using ExchStorageTest.Json;
using ExchStorageTest.MultiHost;

namespace ExchStorageTest.Tests.MultiHost;

/// <summary>The host's answers on the one channel, and the capacity search's conclusion both drivers share.</summary>
public sealed class RemoteEngineTests
{
    [Fact]
    public void An_answer_reads_back_as_written_and_anything_else_is_no_answer()
    {
        var e = new JsonObject().Set(EventFields.Type, EventTypes.Log).Set(EventFields.Log.Message, "x");
        HostAnswer back = HostAnswer.Parse(new HostAnswer(new[] { e }, exitCode: 2, errorTail: "tail", engineVersion: "1.0", processId: 7).ToJson())!;
        Assert.Equal("x", Assert.Single(back.Events).GetString(EventFields.Log.Message));
        Assert.Equal(2, back.ExitCode);
        Assert.Equal("tail", back.ErrorTail);
        Assert.Equal("1.0", back.EngineVersion);
        Assert.Equal(7, back.ProcessId);
        Assert.Null(HostAnswer.Parse(new HostAnswer(Array.Empty<JsonObject>()).ToJson())!.ExitCode);
        Assert.Null(HostAnswer.Parse("{\"type\":\"log\"}"));
        Assert.Null(HostAnswer.Parse("not json"));
    }

    [Fact]
    public void The_agent_takes_plan_and_run_requests_only()
    {
        Assert.NotNull(HostAgent.Request("{\"protocol\":1,\"command\":\"plan\"}"));
        Assert.Throws<ArgumentException>(() => HostAgent.Request("{\"protocol\":1,\"command\":\"report\"}"));
    }

    [Theory]
    [InlineData(1, "Resolved", "100 mailboxes pass and 104 fail, within the 5% resolution")]
    [InlineData(2, "Resolved", "100 mailboxes a host pass on every host and 104 fail on at least one, within the 5% resolution")]
    public void The_search_s_conclusion_is_one_rule_in_the_words_of_one_host_or_of_a_deployment(int hosts, string reason, string message)
    {
        var steps = new List<StepOutcome> { new(100, true), new(104, false) };
        CapacityDecision decision = CapacitySequence.Decide(100, steps, _ => true, 600, hosts);
        Assert.True(decision.Ends);
        Assert.Equal(reason, decision.StopReason);
        Assert.Equal(message, decision.Message);
    }

    [Fact]
    public void The_next_step_is_the_sequence_s_unless_it_would_not_end_within_the_bound()
    {
        var steps = new List<StepOutcome> { new(100, true) };
        Assert.Equal(200, CapacitySequence.Decide(100, steps, _ => true, 600).Mailboxes);
        CapacityDecision bound = CapacitySequence.Decide(100, steps, m => m < 200, 600);
        Assert.Equal(CapacityStopReasons.TimeBoundReached, bound.StopReason);
        Assert.Equal("the time bound (600 s) leaves no room for the 200-mailbox step", bound.Message);
        CapacityDecision top = CapacitySequence.Decide(1, new List<StepOutcome> { new(CapacitySequence.MaximumMailboxes, true) }, _ => true, 600);
        Assert.Equal(CapacityStopReasons.MaximumReached, top.StopReason);
    }
}
