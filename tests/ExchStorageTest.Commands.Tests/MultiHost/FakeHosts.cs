using System.Collections.Concurrent;
using System.Globalization;
using System.Management.Automation;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;
using ExchStorageTest.MultiHost;

namespace ExchStorageTest.Tests.MultiHost;

/// <summary>
/// A host in this process, over the same channel a remote host uses: the module's <see cref="HostAgent"/> answers the
/// orchestrator's lines on a thread of its own (as the remote pipeline's process block would), in front of an engine of
/// the tests' own (<see cref="FakeEngine"/>) that answers plan, run and caller-stepped search requests with the events
/// the protocol names. Only the transport and the engine are stand-ins; the agent, the channel and the orchestrator are
/// the module's.
/// </summary>
/// <summary>
/// The silence limit of the tests where a host falls silent on purpose: far above what a fake host that answers takes
/// even on a loaded machine (at 300 ms a healthy host was once taken for silent with six CPU hogs on two CPUs), and
/// short enough that waiting for the silent one costs a test two seconds.
/// </summary>
internal static class SilentHost
{
    public static readonly TimeSpan Limit = TimeSpan.FromSeconds(2);
}

internal sealed class FakeHost : IHostLink
{
    public FakeHost(string machine, string folder, TimeSpan? skew = null)
    {
        Machine = machine;
        Folder = folder;
        Skew = skew ?? TimeSpan.Zero;
        Directory.CreateDirectory(folder);
    }

    public string Machine { get; }

    /// <summary>The host's own folder: its engine writes its results file here.</summary>
    public string Folder { get; }

    public TimeSpan Skew { get; }

    /// <summary>Every request the host's engines got, in order.</summary>
    public ConcurrentQueue<JsonObject> Requests { get; } = new();

    /// <summary>Every control line the host's engines got (after the request), in order.</summary>
    public ConcurrentQueue<string> Lines { get; } = new();

    /// <summary>The engines started on the host.</summary>
    public ConcurrentQueue<FakeEngine> Engines { get; } = new();

    /// <summary>A plan the engine refuses: an error event with this code, exit code 2.</summary>
    public string? PlanRefusal { get; set; }

    /// <summary>The plan's capacity section (bound, warm-up, settle, step seconds) for a capacity search.</summary>
    public (double Bound, double Warmup, double Settle, double Step) Capacity { get; set; } = (60, 1, 1, 2);

    /// <summary>Whether a step of this many mailboxes passes on this host.</summary>
    public Func<int, bool> Passes { get; set; } = _ => true;

    /// <summary>A run that measures until it is stopped (then a Stopped result, exit code 3), instead of ending at once.</summary>
    public bool RunsUntilStopped { get; set; }

    /// <summary>The engine falls silent past its heartbeat (the agent kills it).</summary>
    public bool EngineHangs { get; set; }

    /// <summary>After this many answers the host answers nothing more (a dropped network, a hung host).</summary>
    public int? FallsSilentAfter { get; set; }

    /// <summary>After this many judged steps the engine exits without a result (a crash).</summary>
    public int? CrashesAfterSteps { get; set; }

    /// <summary>Called with each judged step's number (a test's clock advances with the steps).</summary>
    public Action<int>? Stepped { get; set; }

    public TimeSpan PollWait { get; set; } = TimeSpan.FromMilliseconds(5);

    /// <summary>How many of the host's pipelines the orchestrator stopped (a host it gave up as silent).</summary>
    public int Aborts => Volatile.Read(ref _aborts);

    private int _aborts;

    internal void Aborted() => Interlocked.Increment(ref _aborts);

    public HostFacts Inspect(Version version, string? modulePath) => new()
    {
        ComputerName = Machine, PSVersion = "7.6.9", IsWindows = false, RuntimeId = "linux-x64", TempPath = "/tmp/",
        ModuleBase = "/modules/ExchStorageTest", EnginePath = "/modules/ExchStorageTest/bin/linux-x64/exchstoragetest-engine",
    };

    public void Send(string localPath, string remotePath) => throw new InvalidOperationException("The fake host has the module: nothing is copied.");

    public void MakeExecutable(string remotePath) => throw new InvalidOperationException("The fake host has the module: nothing is copied.");

    public ClockSkew MeasureSkew() => new(Skew, TimeSpan.FromMilliseconds(1));

    public IAgentPipeline OpenAgentPipeline() => new InProcessAgentPipeline(this);

    public void Fetch(string remotePath, string localPath) => File.Copy(remotePath, localPath, overwrite: false);

    public HostTarget ToTarget() => new(Machine.ToLowerInvariant() + ".example", this);
}

/// <summary>
/// The remote pipeline of <see cref="HostAgent.Script"/>, in this process: begin, one process call a line, end. As strict
/// as PowerShell's remoting client about input to a pipeline that was stopped: a line or the end of input written after
/// <see cref="Abort"/> fails (there it reaches the command's transport, which the stop tears down, and throws a
/// NullReferenceException from the remoting fragmentor; measured over SSH: 27 of 40 writes within 20 ms of BeginStop).
/// </summary>
internal sealed class InProcessAgentPipeline : IAgentPipeline
{
    private readonly FakeHost _host;
    private readonly BlockingCollection<string> _lines = new();
    private readonly CancellationTokenSource _abort = new();
    private int _answers;

    public InProcessAgentPipeline(FakeHost host) => _host = host;

    public void Start(string requestJson, Action<string> answered, Action<Exception?> ended)
    {
        var thread = new Thread(() =>
        {
            try
            {
                var engine = new FakeEngine(HostAgent.Request(requestJson), _host);
                _host.Engines.Enqueue(engine);
                using var agent = new HostAgent(engine, _host.PollWait);
                foreach (string line in _lines.GetConsumingEnumerable(_abort.Token))
                {
                    string answer = agent.Take(line);
                    if (++_answers > _host.FallsSilentAfter) _abort.Token.WaitHandle.WaitOne();
                    _abort.Token.ThrowIfCancellationRequested();
                    answered(answer);
                }
                foreach (string answer in agent.Finish()) answered(answer);
                ended(null);
            }
            catch (OperationCanceledException)
            {
                ended(new PipelineStoppedException());
            }
            catch (Exception ex)
            {
                ended(ex);
            }
        }) { IsBackground = true, Name = "fake host " + _host.Machine };
        thread.Start();
    }

    public void Send(string line)
    {
        RefuseAfterStop($"the line '{line}'");
        if (!_lines.IsAddingCompleted) _lines.Add(line);
    }

    public void Complete()
    {
        RefuseAfterStop("the end of input");
        _lines.CompleteAdding();
    }

    private void RefuseAfterStop(string what)
    {
        if (_abort.IsCancellationRequested) throw new InvalidOperationException($"{what} was written to {_host.Machine}'s pipeline after it was stopped.");
    }

    public void Abort()
    {
        _host.Aborted();
        _abort.Cancel();
    }

    public void Dispose()
    {
        _abort.Cancel();
    }
}

/// <summary>
/// An engine of the tests' own: a plan request gets a plan event (or the host's refusal), a run its progress, log and
/// result events, a caller-stepped capacity search a capacityStep event a step (judged by the host's rule) and its result
/// at the end or the stop. Exit codes as docs/protocol.md gives them.
/// </summary>
internal sealed class FakeEngine : IEngineStream
{
    private readonly BlockingCollection<EngineEvent> _events = new();
    private readonly FakeHost _host;
    private readonly JsonObject _request;
    private readonly List<JsonObject> _steps = new();
    private int? _exit;

    public FakeEngine(JsonObject request, FakeHost host)
    {
        _request = request;
        _host = host;
        host.Requests.Enqueue(request);
        if (request.GetString(RequestFields.Command) == EngineCommands.Plan) Plan();
        else if (request.GetString(RequestFields.CapacitySteps) == CapacityStepping.Caller) Emit(Log("Capacity search stepped by its caller: waiting for the first step ..."));
        else
        {
            Emit(Log("Preparing for testing ..."));
            Emit(new JsonObject().Set(EventFields.Type, EventTypes.Progress).Set(EventFields.Progress.Phase, "Measuring").Set(EventFields.Progress.Percent, 50.0).Set(EventFields.Progress.Status, "123 IOPS"));
            if (!host.RunsUntilStopped) End(Completions.Complete, 0);
        }
    }

    public string EngineVersion => "0.1.0-fake";
    public int ProcessId => 4242;
    public string ErrorTail => "";
    public bool Stopped { get; private set; }

    public EngineEvent? Next(TimeSpan timeout, out bool ended)
    {
        ended = false;
        try
        {
            if (_events.TryTake(out EngineEvent? next, timeout)) return next;
        }
        catch (InvalidOperationException)
        {
        }
        ended = _events.IsCompleted;
        return null;
    }

    public void Send(string command, JsonObject? argument)
    {
        _host.Lines.Enqueue(argument == null ? command : command + " " + JsonWriter.Write(argument));
        if (_exit.HasValue) return;
        switch (command)
        {
            case ControlCommands.Stop:
                Stopped = true;
                End(Completions.Stopped, 3, CapacityStopReasons.Stopped);
                break;
            case ControlCommands.Step when argument != null:
                Step((int)(argument.GetNumber(ControlFields.Mailboxes) ?? 0), argument.GetString(ControlFields.MeasureAtUtc));
                break;
            case ControlCommands.End when argument != null:
                End(Completions.Complete, 0, argument.GetString(ControlFields.StopReason));
                break;
        }
    }

    public int? WaitForExit(TimeSpan timeout) => _exit;

    /// <summary>Set by a test: the engine went silent past its heartbeat.</summary>
    public string? Lost => _host.EngineHangs && _exit == null ? "wrote nothing for 30 s, though it promised an event at least every 5 s: it was frozen or hung, and was killed" : null;

    public string DescribeExit() => $"ended with exit code {_exit}";

    public void Kill()
    {
        if (_exit.HasValue) return;
        Killed = true;
        Exit(137);
    }

    public bool Killed { get; private set; }

    public void Dispose() => _events.Dispose();

    private void Plan()
    {
        if (_host.PlanRefusal is string code)
        {
            Emit(new JsonObject().Set(EventFields.Type, EventTypes.Error).Set(EventFields.Error.Code, code).Set(EventFields.Error.Category, "ResourceUnavailable")
                .Set(EventFields.Error.Message, $"The folder '{Paths()[0]}' is refused ({code}).").Set(EventFields.Error.Target, Paths()[0]));
            Exit(2);
            return;
        }
        var plan = new JsonObject().Set(EventFields.Type, EventTypes.Plan)
            .Set(EventFields.Plan.TestType, _request.GetString(RequestFields.TestType))
            .Set(EventFields.Plan.TargetIops, 12.0)
            .Set(EventFields.Plan.Files, Paths().Select(p => (object?)new JsonObject().Set(EventFields.Plan.File.Path, p + "/db.edb").Set(EventFields.Plan.File.SizeBytes, 1048576L)
                .Set(EventFields.Plan.File.Kind, "Database").Set(EventFields.Plan.File.Exists, false)).ToList())
            .Set(EventFields.Plan.Schedule, new JsonObject().Set(EventFields.Plan.ScheduleFields.LeadSeconds, 30.0));
        if (_request.GetString(RequestFields.TestType) == nameof(TestType.Capacity))
            plan.Set(EventFields.Plan.Capacity, new JsonObject()
                .Set(EventFields.Plan.CapacityPlan.BoundSeconds, _host.Capacity.Bound).Set(EventFields.Plan.CapacityPlan.WarmupSeconds, _host.Capacity.Warmup)
                .Set(EventFields.Plan.CapacityPlan.SettleSeconds, _host.Capacity.Settle).Set(EventFields.Plan.CapacityPlan.StepSeconds, _host.Capacity.Step));
        Emit(plan);
        Exit(0);
    }

    private string[] Paths() => ((_request.GetObject(RequestFields.Profile)?.GetArray(ProfileFields.DatabasePaths)) ?? Array.Empty<object?>()).OfType<string>().ToArray();

    private void Step(int mailboxes, string? measureAt)
    {
        int number = _steps.Count + 1;
        if (_host.CrashesAfterSteps is int crash && number > crash)
        {
            Exit(1);
            return;
        }
        bool passed = _host.Passes(mailboxes);
        var step = new JsonObject()
            .Set(EventFields.Result.CapacityFields.Step.Number, number)
            .Set(EventFields.Result.CapacityFields.Step.Mailboxes, mailboxes)
            .Set(EventFields.Result.CapacityFields.Step.TargetIops, mailboxes * 0.1)
            .Set(EventFields.Result.CapacityFields.Step.AchievedIops, passed ? mailboxes * 0.1 : mailboxes * 0.05)
            .Set(EventFields.Result.CapacityFields.Step.Result, Verdicts.Of(passed))
            .Set(EventFields.Result.CapacityFields.Step.LimitingRule, passed ? null : "LogWriteLatencyAverage")
            .Set(EventFields.Result.CapacityFields.Step.MeasureStartUtc, measureAt);
        _steps.Add(step);
        _host.Stepped?.Invoke(number);
        Emit(new JsonObject().Set(EventFields.Type, EventTypes.CapacityStep).Set(EventFields.Result.CapacityFields.Step.Number, number)
            .Set(EventFields.Result.CapacityFields.Step.Mailboxes, mailboxes).Set(EventFields.Result.CapacityFields.Step.Result, Verdicts.Of(passed))
            .Set(EventFields.Result.CapacityFields.Step.TargetIops, mailboxes * 0.1).Set(EventFields.Result.CapacityFields.Step.AchievedIops, passed ? mailboxes * 0.1 : mailboxes * 0.05)
            .Set(EventFields.Result.CapacityFields.Step.MeasureStartUtc, measureAt));
    }

    /// <summary>The run's result event, after its results file is saved in the host's folder.</summary>
    private void End(string completion, int exit, string? stopReason = null)
    {
        string testId = _request.GetString(RequestFields.TestId) ?? "test";
        string resultsPath = Path.Combine(_host.Folder, testId + ".json");
        File.WriteAllText(resultsPath, JsonWriter.Write(new JsonObject().Set("testId", testId).Set("machine", _host.Machine)));
        var result = new JsonObject().Set(EventFields.Type, EventTypes.Result)
            .Set(EventFields.Result.TestId, testId)
            .Set(EventFields.Result.TestType, _request.GetString(RequestFields.TestType))
            .Set(EventFields.Result.Verdict, Verdicts.Pass)
            .Set(EventFields.Result.Completion, completion)
            .Set(EventFields.Result.TargetIops, 12.0)
            .Set(EventFields.Result.AchievedIops, 12.5)
            .Set(EventFields.Result.StartAtUtc, _request.GetString(RequestFields.StartAtUtc))
            .Set(EventFields.Result.ResultsPath, resultsPath);
        if (_request.GetString(RequestFields.CapacitySteps) == CapacityStepping.Caller)
            result.Set(EventFields.Result.Capacity, new JsonObject().Set(EventFields.Result.CapacityFields.StopReason, stopReason)
                .Set(EventFields.Result.CapacityFields.Steps, _steps.Cast<object?>().ToList()));
        Emit(result);
        Exit(exit);
    }

    private static JsonObject Log(string message) =>
        new JsonObject().Set(EventFields.Type, EventTypes.Log).Set(EventFields.Log.Level, EventFields.Log.Info).Set(EventFields.Log.Message, message);

    private void Emit(JsonObject fields) => _events.Add(new EngineEvent(fields.Set(EventFields.TimeUtc, DateTime.UtcNow.ToString("o", CultureInfo.InvariantCulture))));

    private void Exit(int code)
    {
        _exit = code;
        _events.CompleteAdding();
    }
}

/// <summary>What a multi-host run said, as the command would have written it.</summary>
internal sealed class RecordingOutput : IRunOutput
{
    private readonly string _root;

    public RecordingOutput(string root) => _root = root;

    public ConcurrentQueue<string> Verbose { get; } = new();
    public ConcurrentQueue<string> Warnings { get; } = new();
    public ConcurrentQueue<ErrorRecord> Errors { get; } = new();
    public ConcurrentQueue<ProgressRecord> Progress { get; } = new();
    public ConcurrentQueue<object> Objects { get; } = new();
    public List<string> StoppingWarnings { get; } = new();
    public bool Confirm { get; set; } = true;
    public volatile bool IsStopping;
    public int ThreadId { get; } = Environment.CurrentManagedThreadId;

    /// <summary>Set when a record was written off the command's thread (PowerShell refuses those).</summary>
    public string? OffThread { get; private set; }

    public bool CanWrite => !IsStopping;
    void IRunSink.Verbose(string message) => Record(Verbose, message);
    public void Information(string message) => Record(Verbose, message);
    public void Warning(string message) => Record(Warnings, message);
    void IRunSink.Progress(ProgressRecord record) => Record(Progress, record);
    public void Error(ErrorRecord record) => Record(Errors, record);
    public void Output(object item) => Record(Objects, item);
    public bool ShouldRun(string description, string warning, string caption) => Confirm;
    public bool WhatIf => false;
    public bool Stopping => IsStopping;
    public void WarnWhileStopping(string message) => StoppingWarnings.Add(message);
    public string ResolvePath(string path) => Path.Combine(_root, path);

    public TestReport? Merge(string[] resultsFiles) => new()
    {
        Aggregate = new ReportAggregate { Hosts = resultsFiles.Length, TargetIops = 12.0 * resultsFiles.Length, AchievedIops = 12.5 * resultsFiles.Length },
    };

    private void Record<T>(ConcurrentQueue<T> queue, T item)
    {
        if (Environment.CurrentManagedThreadId != ThreadId) OffThread ??= $"{item} (thread {Environment.CurrentManagedThreadId})";
        queue.Enqueue(item);
    }
}
