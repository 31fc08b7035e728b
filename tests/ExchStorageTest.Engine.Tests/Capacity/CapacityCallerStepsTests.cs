using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Capacity;

/// <summary>
/// A capacity search stepped by its caller (capacitySteps Caller, docs/capacity.md "Several hosts"): the real engine with
/// --control-stdin on a plain folder, steps sent as an orchestrator sends them, each measured from the caller's instant
/// and answered with a capacityStep event; the caller's end finishes the document, a stop keeps the finished steps.
/// </summary>
public class CapacityCallerStepsTests
{
    private readonly Xunit.Abstractions.ITestOutputHelper _out;

    public CapacityCallerStepsTests(Xunit.Abstractions.ITestOutputHelper output) => _out = output;

    internal static JsonObject Request(TestFolder folder) => new()
    {
        ["protocol"] = 1, ["command"] = "run", ["testType"] = "Capacity", ["capacitySteps"] = "Caller",
        ["durationSeconds"] = 30, ["warmupSeconds"] = 3, ["sampleIntervalSeconds"] = 1, ["outputPath"] = folder.Sub("results"),
        ["profile"] = new JsonObject
        {
            ["name"] = "Capacity", ["mailboxCount"] = 20, ["iopsPerMailbox"] = 1, ["mailboxSizeMB"] = 10, ["databaseCount"] = 1,
            ["copiesPerDatabase"] = 1, ["backgroundMaintenance"] = false, ["databasePaths"] = new JsonArray(folder.Sub("db")),
            ["minimumDatabaseCacheMB"] = 8, ["maximumDatabaseCacheMB"] = 32,
        },
    };

    private static string Step(int mailboxes, DateTime at) =>
        $"step {{\"mailboxes\":{mailboxes},\"measureAtUtc\":\"{at.ToString("yyyy-MM-ddTHH:mm:ss.fffZ", CultureInfo.InvariantCulture)}\"}}";

    /// <summary>Waits until the prepared engine waits for its first step (its databases are created: the instant can be near).</summary>
    internal static void WaitUntilReady(EngineProcess engine) =>
        engine.WaitFor("log", e => e.GetProperty("message").GetString()!.Contains("Waiting for the first step", StringComparison.Ordinal), 180);

    private JsonElement StepEvent(EngineProcess engine, int number, int mailboxes, DateTime at)
    {
        var e = engine.WaitFor(EventTypes.CapacityStep, 120);
        Assert.Equal(number, e.GetProperty("step").GetInt32());
        Assert.Equal(mailboxes, e.GetProperty("mailboxes").GetInt32());
        var started = e.GetProperty("measureStartUtc").GetDateTime().ToUniversalTime();
        _out.WriteLine($"step {number}: window opened {(started - at).TotalMilliseconds:F1} ms after the caller's instant");
        // The window opens at the caller's instant: the hosts' windows line up within their clocks' skew.
        Assert.InRange((started - at).TotalSeconds, -0.2, 0.2);
        Assert.True(e.GetProperty("windowSeconds").GetDouble() >= 4, "the window is the plan's step window");
        Assert.Contains(e.GetProperty("result").GetString(), new[] { "Pass", "Fail" });
        return e;
    }

    [Fact]
    public void Steps_sent_by_the_caller_measure_from_its_instants_and_its_end_finishes_the_search()
    {
        using var folder = new TestFolder("capcaller");
        using var engine = new EngineProcess(Request(folder).Json(), controlChannel: true);
        WaitUntilReady(engine);
        // Malformed and unknown lines are ignored (warned about, not fatal); the search goes on.
        engine.Send("step {not json");
        engine.Send("step {\"mailboxes\":0,\"measureAtUtc\":\"2026-01-01T00:00:00Z\"}");
        engine.Send("end {}");
        engine.Send("hello there");
        var at1 = DateTime.UtcNow.AddSeconds(3);
        engine.Send(Step(20, at1));
        StepEvent(engine, 1, 20, at1);
        var at2 = DateTime.UtcNow.AddSeconds(3);
        engine.Send(Step(40, at2));
        StepEvent(engine, 2, 40, at2);
        engine.Send("end {\"stopReason\":\"Resolved\",\"message\":\"the deployment's search resolved\"}");
        var result = engine.WaitFor(EventTypes.Result, 120);
        Assert.Equal(0, engine.WaitForExit());

        var warnings = engine.OfType("log").Where(e => e.GetProperty("level").GetString() == "warning").Select(e => e.GetProperty("message").GetString()!).ToList();
        Assert.Equal(3, warnings.Count(w => w.StartsWith("Ignored the control line", StringComparison.Ordinal)));
        var capacity = result.GetProperty("capacity");
        Assert.Equal("Resolved", capacity.GetProperty("stopReason").GetString());
        Assert.Equal("the deployment's search resolved", capacity.GetProperty("stopMessage").GetString());
        Assert.Equal(new[] { 1, 2 }, capacity.GetProperty("steps").EnumerateArray().Select(s => s.GetProperty("step").GetInt32()));
        Assert.Equal("Complete", result.GetProperty("completion").GetString());

        var saved = ResultsFile.Load(result.GetProperty("resultsPath").GetString()!);
        Assert.Equal(CapacityStepping.Caller, saved.Capacity!.SteppedBy);
        Assert.Equal(new[] { 20, 40 }, saved.Capacity.Steps.Select(s => s.Mailboxes));
        // Each host's answer is its own search's: the pure answer of the steps it ran.
        var expected = CapacitySearch.Answer(saved.Profile, saved.Capacity.Steps);
        Assert.Equal((expected.Mailboxes, expected.LimitingMailboxes, expected.LimitingRule, expected.Resolved),
            (saved.Capacity.Answer.Mailboxes, saved.Capacity.Answer.LimitingMailboxes, saved.Capacity.Answer.LimitingRule, saved.Capacity.Answer.Resolved));
        Assert.Equal(expected.Mailboxes, capacity.GetProperty("mailboxes").GetInt32());
    }

    [Fact]
    public void A_stop_while_waiting_for_the_next_step_keeps_the_finished_steps()
    {
        using var folder = new TestFolder("capcallerstop");
        using var engine = new EngineProcess(Request(folder).Json(), controlChannel: true);
        WaitUntilReady(engine);
        var at = DateTime.UtcNow.AddSeconds(3);
        engine.Send(Step(20, at));
        StepEvent(engine, 1, 20, at);
        engine.Send("stop");
        var result = engine.WaitFor(EventTypes.Result, 120);
        Assert.Equal(3, engine.WaitForExit());

        Assert.Equal("Stopped", result.GetProperty("completion").GetString());
        var saved = ResultsFile.Load(result.GetProperty("resultsPath").GetString()!);
        Assert.Equal("Stopped", saved.Capacity!.StopReason);
        Assert.Equal(20, Assert.Single(saved.Capacity.Steps).Mailboxes);
    }

    /// <summary>
    /// A stop while a step runs (the orchestrator's Ctrl+C, relayed to every host's engine as a stop line): the step has
    /// no verdict and is dropped, every finished step is kept, and the search ends Stopped.
    /// </summary>
    [Fact]
    public void A_stop_during_a_step_drops_that_step_and_keeps_the_finished_ones()
    {
        using var folder = new TestFolder("capcallerstopstep");
        using var engine = new EngineProcess(Request(folder).Json(), controlChannel: true);
        WaitUntilReady(engine);
        var at = DateTime.UtcNow.AddSeconds(3);
        engine.Send(Step(20, at));
        StepEvent(engine, 1, 20, at);
        engine.Send(Step(40, DateTime.UtcNow.AddSeconds(3)));
        engine.WaitFor("log", e => e.GetProperty("message").GetString()!.StartsWith("Step 2: 40 mailboxes:", StringComparison.Ordinal), 120);
        engine.Send("stop");
        var result = engine.WaitFor(EventTypes.Result, 120);
        Assert.Equal(3, engine.WaitForExit());

        Assert.Empty(engine.OfType(EventTypes.CapacityStep).Skip(1));
        Assert.Equal("Stopped", result.GetProperty("completion").GetString());
        var saved = ResultsFile.Load(result.GetProperty("resultsPath").GetString()!);
        Assert.Equal(CapacityStopReasons.Stopped, saved.Capacity!.StopReason);
        Assert.Equal(20, Assert.Single(saved.Capacity.Steps).Mailboxes);
    }

    [Theory]
    [InlineData("Sometimes", "Capacity", "'Sometimes' is not Engine or Caller")]
    [InlineData("Caller", "Performance", "a Performance test has no steps to send")]
    public void The_plan_refuses_an_unknown_driver_and_a_caller_for_another_test_type(string steps, string testType, string says)
    {
        using var folder = new TestFolder("capcallerplan");
        var request = CapacityRigTests.Request(folder.Sub("db"), folder.Sub("results"), start: 20, boundSeconds: 30);
        request.CapacitySteps = steps;
        request.TestType = Enum.Parse<TestType>(testType);
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(request));
        Assert.Equal(ErrorCodes.CapacitySteppingInvalid.Code, ex.Code);
        Assert.Contains(says, ex.Message, StringComparison.Ordinal);
        Assert.True(ex.IsRefusal);
    }

    [Fact]
    public void A_caller_stepped_search_without_the_control_channel_is_refused_before_anything_is_written()
    {
        using var folder = new TestFolder("capcallernochannel");
        var request = Request(folder);
        using var engine = new EngineProcess(request.Json());
        var error = engine.WaitFor(EventTypes.Error, 60);
        Assert.Equal(2, engine.WaitForExit());
        Assert.Equal(ErrorCodes.CapacitySteppingInvalid.Code, error.GetProperty("code").GetString());
        Assert.Contains("--control-stdin", error.GetProperty("message").GetString(), StringComparison.Ordinal);
        Assert.False(Directory.Exists(folder.Sub("db")) && Directory.EnumerateFileSystemEntries(folder.Sub("db")).Any(), "nothing is written");
        Assert.False(Directory.Exists(folder.Sub("results")) && Directory.EnumerateFileSystemEntries(folder.Sub("results")).Any(), "no results file");
    }
}
