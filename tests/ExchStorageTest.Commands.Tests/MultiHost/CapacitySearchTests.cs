using System.Management.Automation;
using ExchStorageTest.Json;
using ExchStorageTest.MultiHost;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.MultiHost;

/// <summary>
/// A deployment's capacity search stepped from here (docs/capacity.md, "Several hosts"), with hosts in this process: the
/// step loop, the every-host rule, the time bound, a host lost part-way and a stop, each in milliseconds.
/// </summary>
public sealed class CapacitySearchTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "exst-unit-" + Guid.NewGuid().ToString("N")[..8]);
    private readonly RecordingOutput _output;

    public CapacitySearchTests()
    {
        Directory.CreateDirectory(_root);
        _output = new RecordingOutput(_root);
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private static MailboxProfile Profile() =>
        new() { Name = "capacity", MailboxCount = 100, IopsPerMailbox = 0.1, MailboxSizeMB = 10, DatabaseCount = 1, DatabasePaths = new[] { "/data/{host}" } };

    private FakeHost Host(string machine, Func<int, bool> passes) => new(machine, Path.Combine(_root, machine)) { Passes = passes };

    private RunSettings Settings => RunSettings.None.With(RunSetting.TestType, nameof(TestType.Capacity)).With(RunSetting.OutputPath, Path.Combine(_root, "collected"));

    private void Search(OrchestratorTiming timing, params FakeHost[] hosts) =>
        new MultiHostRun(_output, Settings, hosts.Select(h => h.ToTarget()).ToList(), new ModuleCopy(null), timing).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

    private static OrchestratorTiming Fast => new() { StepNotice = TimeSpan.Zero, Silence = TimeSpan.FromSeconds(20) };

    /// <summary>The steps each engine was sent, as mailbox counts.</summary>
    private static List<int> StepsSent(FakeHost host) => host.Lines.Where(l => l.StartsWith(ControlCommands.Step + " ", StringComparison.Ordinal))
        .Select(l => (int)((JsonReader.Parse(l[5..]) as JsonObject)!.GetNumber(ControlFields.Mailboxes)!)).ToList();

    private static string? EndReason(FakeHost host) => host.Lines.Where(l => l.StartsWith(ControlCommands.End + " ", StringComparison.Ordinal))
        .Select(l => (JsonReader.Parse(l[4..]) as JsonObject)!.GetString(ControlFields.StopReason)).SingleOrDefault();

    [Fact]
    public void Every_host_steps_together_and_a_step_passes_only_where_every_host_passed_it()
    {
        // MBX01 carries up to 700 mailboxes, MBX02 only 300: the deployment's answer is MBX02's.
        var a = Host("MBX01", m => m <= 700);
        var b = Host("MBX02", m => m <= 300);

        Search(Fast, a, b);

        Assert.Null(_output.OffThread);
        Assert.Empty(_output.Errors);
        List<int> steps = StepsSent(a);
        Assert.Equal(steps, StepsSent(b));
        // The contract's sequence over the deployment's outcomes: 100, 200, 400 (fails on MBX02), then bisection to 5%.
        var outcomes = new List<StepOutcome>();
        foreach (int mailboxes in steps)
        {
            Assert.Equal(mailboxes, CapacitySequence.Next(100, outcomes));
            outcomes.Add(new StepOutcome(mailboxes, mailboxes <= 300));
        }
        Assert.Null(CapacitySequence.Next(100, outcomes));
        Assert.Equal(new[] { 100, 200, 400 }, steps.Take(3));
        Assert.Equal(CapacityStopReasons.Resolved, EndReason(a));
        Assert.Equal(CapacityStopReasons.Resolved, EndReason(b));
        // Each host's run asked its engine to be stepped by its caller, and each returned its result.
        Assert.All(new[] { a, b }, h => Assert.Equal(CapacityStepping.Caller, h.Requests.Last().GetString(RequestFields.CapacitySteps)));
        Assert.Equal(2, _output.Objects.OfType<TestResult>().Count());
        Assert.Contains(_output.Verbose, v => v.StartsWith("Step 3: 400 mailboxes a host (800 in all): Fail for the deployment (MBX01 (mbx01.example) Pass", StringComparison.Ordinal));
    }

    [Fact]
    public void The_time_bound_ends_the_search_before_a_step_that_would_not_end_within_it()
    {
        // A clock that moves with the steps: each judged step takes its settle and window (1 s + 2 s) of the 8.5 s bound after a 1 s warm-up.
        DateTime now = DateTime.UtcNow;
        DateTime startAt = DateTime.UtcNow.AddMinutes(5);
        var timing = new OrchestratorTiming { StepNotice = TimeSpan.Zero, Silence = TimeSpan.FromSeconds(20), Now = () => now };
        var a = Host("MBX01", _ => true);
        a.Capacity = (8.5, 1, 1, 2);
        a.Stepped = step => now = startAt.AddSeconds(1 + 3 * step);

        new MultiHostRun(_output, Settings, new[] { a.ToTarget() }, new ModuleCopy(null), timing).Run(Profile(), startAt);

        // Step 1 ends at 4 s, step 2 at 7 s; a third would end at 10 s, beyond 8.5 s.
        Assert.Equal(new[] { 100, 200 }, StepsSent(a));
        Assert.Equal(CapacityStopReasons.TimeBoundReached, EndReason(a));
        Assert.Contains(_output.Verbose, v => v.Contains("the time bound (8 s) leaves no room for the 400-mailbox step", StringComparison.Ordinal) || v.Contains("the time bound (9 s) leaves no room for the 400-mailbox step", StringComparison.Ordinal));
    }

    [Fact]
    public void A_host_whose_engine_ends_part_way_fails_and_the_others_end_their_search_as_Failed()
    {
        var a = Host("MBX01", _ => true);
        var b = Host("MBX02", _ => true);
        b.CrashesAfterSteps = 2;

        Search(Fast, a, b);

        Assert.Equal(new[] { 100, 200, 400 }, StepsSent(a));
        Assert.Equal(CapacityStopReasons.Failed, EndReason(a));
        Assert.Null(EndReason(b));
        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains(_output.Verbose, v => v.Contains("ended (Failed): the search ended on MBX02 (mbx02.example) before the deployment's did", StringComparison.Ordinal));
        Assert.Equal(new[] { "MBX01" }, _output.Objects.OfType<TestResult>().Select(r => r.ComputerName));
    }

    [Fact]
    public void A_host_silent_part_way_fails_and_the_others_end_their_search_as_Failed_with_nothing_written_to_its_stopped_pipeline()
    {
        var a = Host("MBX01", _ => true);
        var b = Host("MBX02", _ => true);
        b.FallsSilentAfter = 3;

        Search(new OrchestratorTiming { StepNotice = TimeSpan.Zero, Silence = SilentHost.Limit }, a, b);

        Assert.Equal(CapacityStopReasons.Failed, EndReason(a));
        Assert.Null(EndReason(b));
        Assert.Equal(1, b.Aborts);
        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains("sent nothing for", error.Exception.Message);
        Assert.Equal(new[] { "MBX01" }, _output.Objects.OfType<TestResult>().Select(r => r.ComputerName));
    }

    [Fact]
    public void A_stop_during_the_search_stops_every_host_s_engine_which_keeps_its_finished_steps()
    {
        var a = Host("MBX01", _ => true);
        var b = Host("MBX02", _ => true);
        var run = new MultiHostRun(_output, Settings, new[] { a.ToTarget(), b.ToTarget() }, new ModuleCopy(null), Fast);
        // Stopped as the second step is judged on MBX01.
        a.Stepped = step =>
        {
            if (step != 2) return;
            _output.IsStopping = true;
            run.Stop();
        };

        Assert.Throws<PipelineStoppedException>(() => run.Run(Profile(), DateTime.UtcNow.AddMinutes(5)));

        foreach (FakeHost host in new[] { a, b })
        {
            Assert.Contains(ControlCommands.Stop, host.Lines);
            Assert.True(host.Engines.Last().Stopped);
            Assert.Null(EndReason(host));
        }
        Assert.Empty(_output.Objects);
    }
}
