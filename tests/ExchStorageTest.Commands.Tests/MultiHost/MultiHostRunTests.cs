using System.Management.Automation;
using ExchStorageTest.Json;
using ExchStorageTest.MultiHost;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.MultiHost;

/// <summary>
/// The multi-host orchestrator over the one channel, with hosts in this process (<see cref="FakeHost"/>): what it sends
/// each host, what it makes of their events, a host lost or failing, the capacity search's step loop, its time bound and
/// a stop. What only real remoting shows (sessions, the module copy, records printed once) is the SSH suite's
/// (tests/Remoting).
/// </summary>
public sealed class MultiHostRunTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "exst-unit-" + Guid.NewGuid().ToString("N")[..8]);
    private readonly RecordingOutput _output;

    public MultiHostRunTests()
    {
        Directory.CreateDirectory(_root);
        _output = new RecordingOutput(_root);
    }

    public void Dispose() => Directory.Delete(_root, recursive: true);

    private static MailboxProfile Profile(int mailboxes = 100) =>
        new() { Name = "unit", MailboxCount = mailboxes, IopsPerMailbox = 0.1, MailboxSizeMB = 10, DatabaseCount = 1, DatabasePaths = new[] { "/data/{host}" } };

    private FakeHost Host(string machine, double skewMs = 0) => new(machine, Path.Combine(_root, "host-" + machine), TimeSpan.FromMilliseconds(skewMs));

    private RunSettings Settings(string testType = nameof(TestType.Performance)) => RunSettings.None
        .With(RunSetting.TestType, testType)
        .With(RunSetting.Duration, TimeSpan.FromSeconds(10))
        .With(RunSetting.OutputPath, Path.Combine(_root, "collected"));

    private MultiHostRun Orchestrator(RunSettings settings, IReadOnlyList<HostTarget> hosts, OrchestratorTiming? timing = null) =>
        new(_output, settings, hosts, new ModuleCopy(null), timing ?? new OrchestratorTiming { StepNotice = TimeSpan.Zero, Silence = TimeSpan.FromSeconds(20) });

    private List<TestResult> Results => _output.Objects.OfType<TestResult>().ToList();
    private AggregateResult Aggregate => _output.Objects.OfType<AggregateResult>().Single();

    [Fact]
    public void Every_host_runs_the_request_with_its_own_paths_and_its_clock_s_instant_and_its_events_come_back_as_records_and_results()
    {
        var a = Host("MBX01", skewMs: 1500);
        var b = Host("MBX02", skewMs: -250);
        DateTime startAt = DateTime.UtcNow.AddMinutes(5);
        startAt = startAt.AddTicks(-(startAt.Ticks % TimeSpan.TicksPerMillisecond));

        Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }).Run(Profile(), startAt);

        Assert.Null(_output.OffThread);
        Assert.Empty(_output.Errors);
        foreach (var (host, skew) in new[] { (a, 1500), (b, -250) })
        {
            // One plan, then one run, over the channel; the run's request has the host's paths and the agreed start on its clock.
            var requests = host.Requests.ToList();
            Assert.Equal(new[] { EngineCommands.Plan, EngineCommands.Run }, requests.Select(r => r.GetString(RequestFields.Command)));
            JsonObject run = requests[1];
            Assert.Equal(new object?[] { "/data/" + host.Machine }, run.GetObject(RequestFields.Profile)!.GetArray(ProfileFields.DatabasePaths));
            Assert.Equal(startAt.AddMilliseconds(skew), UtcTime.Parse(run.GetString(RequestFields.StartAtUtc)));
            Assert.Equal(10.0, run.GetNumber(RequestFields.DurationSeconds));
            // The collecting folder is this computer's: each host's engine keeps its own default.
            Assert.False(run.Contains(RequestFields.OutputPath));
        }
        Assert.Equal(new[] { "MBX01", "MBX02" }, Results.Select(r => r.ComputerName));
        foreach (TestResult result in Results)
        {
            Assert.Equal(Path.Combine(_root, "collected", result.ComputerName!, Path.GetFileName(result.RemoteResultsPath!)), result.ResultsPath);
            Assert.True(File.Exists(result.ResultsPath));
        }
        Assert.Equal(2, Aggregate.HostCount);
        Assert.Equal(Verdicts.Pass, Aggregate.Result);
        Assert.Equal(25.0, Aggregate.AchievedIops);
        Assert.Equal(startAt.AddSeconds(30), Aggregate.MeasureAtUtc);
        Assert.True(File.Exists(Path.Combine(_root, "collected", "run.json")));
        // The hosts' test logs and progress, with their names, under their own bars.
        Assert.Contains("MBX01 (mbx01.example): Preparing for testing ...", _output.Verbose);
        Assert.Contains("MBX02 (mbx02.example): ExchStorageTest engine 0.1.0-fake (process 4242): run.", _output.Verbose);
        Assert.Contains(_output.Progress, p => p.ParentActivityId == 1 && p.Activity == "MBX02 (mbx02.example)" && p.CurrentOperation == "Measuring");
    }

    [Fact]
    public void Each_profile_piped_to_one_command_runs_on_every_host_the_second_as_the_first()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        var run = Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() });

        run.Run(Profile(), DateTime.UtcNow.AddMinutes(5));
        run.Run(Profile(200), DateTime.UtcNow.AddMinutes(5));

        Assert.Empty(_output.Errors);
        foreach (var host in new[] { a, b })
            Assert.Equal(new[] { EngineCommands.Plan, EngineCommands.Run, EngineCommands.Plan, EngineCommands.Run },
                host.Requests.Select(r => r.GetString(RequestFields.Command)));
        Assert.Equal(4, Results.Count);
        Assert.Equal(2, _output.Objects.OfType<AggregateResult>().Count());
    }

    [Fact]
    public void Every_host_judges_the_fault_window_and_only_the_first_host_given_is_named_to_start_the_script()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        RunSettings settings = Settings().With(RunSetting.FaultAt, TimeSpan.FromSeconds(20)).With(RunSetting.FaultScript, "/scripts/failover.sh");

        Orchestrator(settings, new[] { a.ToTarget(), b.ToTarget() }).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        Assert.Empty(_output.Errors);
        // The plan too: the first host's engine checks the script is there before anything is written.
        foreach (JsonObject request in a.Requests.Concat(b.Requests))
        {
            Assert.Equal(20.0, request.GetNumber(RequestFields.FaultAtSeconds));
            Assert.Equal("/scripts/failover.sh", request.GetString(RequestFields.FaultScript));
            Assert.Equal("MBX01", request.GetString(RequestFields.FaultScriptHost));
        }
        Assert.Equal(4, a.Requests.Count + b.Requests.Count);
        Assert.Contains(_output.Verbose, v => v.Contains("runs on the first host only, 'MBX01'"));
    }

    [Fact]
    public void A_window_without_a_script_names_no_host()
    {
        var a = Host("MBX01");
        Orchestrator(Settings().With(RunSetting.FaultAt, TimeSpan.FromSeconds(20)), new[] { a.ToTarget() }).Run(Profile(), DateTime.UtcNow.AddMinutes(5));
        Assert.All(a.Requests, r => Assert.False(r.Contains(RequestFields.FaultScriptHost)));
        Assert.All(a.Requests, r => Assert.Equal(20.0, r.GetNumber(RequestFields.FaultAtSeconds)));
    }

    [Fact]
    public void A_host_whose_plan_is_refused_fails_alone_with_the_engine_s_reason()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        b.PlanRefusal = "FolderInUse";

        Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("ExchStorageTest.HostFailed", error.FullyQualifiedErrorId);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains("is refused (FolderInUse)", error.Exception.Message);
        Assert.Equal(new[] { "MBX01" }, Results.Select(r => r.ComputerName));
        Assert.Equal(new[] { "MBX02" }, Aggregate.FailedHosts);
        Assert.Single(b.Requests);
    }

    [Fact]
    public void A_host_that_falls_silent_is_lost_and_the_others_finish()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        b.RunsUntilStopped = true;
        // Each channel answers once, then falls silent: the plan's needs no more; the run's is lost.
        b.FallsSilentAfter = 1;
        var timing = new OrchestratorTiming { Silence = SilentHost.Limit };

        Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }, timing).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains("sent nothing for", error.Exception.Message);
        Assert.Equal(1, b.Aborts);
        Assert.Equal(new[] { "MBX01" }, Results.Select(r => r.ComputerName));
        Assert.Equal(Verdicts.Fail, Aggregate.Result);
    }

    /// <summary>
    /// A channel the orchestrator gave up (the host fell silent) gets no more input: its pipeline was stopped, and over
    /// remoting a line or the end of input written then fails inside PowerShell (the fake fails it too). Where a channel
    /// ends: its plan (the host is named by its silence, not by the write), the run's collection and release, a stop.
    /// </summary>
    [Fact]
    public void A_host_silent_during_its_plan_fails_for_its_silence_and_its_stopped_pipeline_gets_no_input()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        b.FallsSilentAfter = 0;
        var timing = new OrchestratorTiming { Silence = SilentHost.Limit };

        Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }, timing).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains("sent nothing for", error.Exception.Message);
        Assert.Equal(1, b.Aborts);
        Assert.Equal(new[] { EngineCommands.Plan }, b.Requests.Select(r => r.GetString(RequestFields.Command)));
        Assert.Equal(new[] { "MBX01" }, Results.Select(r => r.ComputerName));
    }

    [Fact]
    public void A_stop_after_a_host_fell_silent_stops_the_others_and_writes_nothing_to_the_stopped_pipeline()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        a.RunsUntilStopped = b.RunsUntilStopped = true;
        b.FallsSilentAfter = 2;
        var run = Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }, new OrchestratorTiming { Silence = SilentHost.Limit });
        var stopper = new Thread(() =>
        {
            while (b.Aborts == 0) Thread.Sleep(5);
            _output.IsStopping = true;
            run.Stop();
        });
        stopper.Start();

        Assert.Throws<PipelineStoppedException>(() => run.Run(Profile(), DateTime.UtcNow.AddMinutes(5)));

        stopper.Join();
        Assert.True(a.Engines.Last().Stopped);
        Assert.DoesNotContain(ControlCommands.Stop, b.Lines);
        Assert.Equal(1, b.Aborts);
    }

    [Fact]
    public void A_host_s_engine_silent_past_its_heartbeat_is_killed_there_and_fails_its_host_as_a_local_run_would()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        b.RunsUntilStopped = true;
        b.EngineHangs = true;

        Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() }).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        ErrorRecord error = Assert.Single(_output.Errors);
        Assert.Equal("MBX02", error.TargetObject);
        Assert.Contains("wrote nothing for 30 s, though it promised an event at least every 5 s", error.Exception.Message);
        Assert.True(b.Engines.Last().Killed);
        Assert.Equal(new[] { "MBX01" }, Results.Select(r => r.ComputerName));
    }

    [Fact]
    public void Every_host_failing_its_check_still_leaves_the_record_of_why()
    {
        var a = Host("MBX01");
        a.PlanRefusal = "PathNotFound";

        Orchestrator(Settings(), new[] { a.ToTarget() }).Run(Profile(), DateTime.UtcNow.AddMinutes(5));

        Assert.Empty(Results);
        Assert.Equal(1, Aggregate.HostCount);
        Assert.Single(Aggregate.Failures);
        Assert.True(File.Exists(Path.Combine(_root, "collected", "run.json")));
    }

    [Fact]
    public void A_stop_reaches_every_host_s_engine_and_waits_for_its_partial_result()
    {
        var a = Host("MBX01");
        var b = Host("MBX02");
        a.RunsUntilStopped = b.RunsUntilStopped = true;
        var run = Orchestrator(Settings(), new[] { a.ToTarget(), b.ToTarget() });
        var stopper = new Thread(() =>
        {
            while (a.Engines.Count < 2 || b.Engines.Count < 2) Thread.Sleep(5);
            _output.IsStopping = true;
            run.Stop();
        });
        stopper.Start();

        Assert.Throws<PipelineStoppedException>(() => run.Run(Profile(), DateTime.UtcNow.AddMinutes(5)));

        stopper.Join();
        foreach (FakeHost host in new[] { a, b })
        {
            Assert.Contains(ControlCommands.Stop, host.Lines);
            Assert.True(host.Engines.Last().Stopped);
        }
        Assert.Contains(_output.StoppingWarnings, w => w.Contains("each host judged and saved its partial result"));
        Assert.Empty(_output.Objects);
    }
}
