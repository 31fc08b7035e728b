using System.Globalization;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Runs a planned test end to end: prepare databases, wait for the agreed start, run the test type's load (tune, warm
/// up, measure, shut down), judge, write the results file. Progress and samples go to the event stream; the results
/// document is returned and saved even when the run is stopped or fails part-way. Files are never deleted.
/// </summary>
public static class TestRunner
{
    /// <summary>Runs <paramref name="plan"/>; <paramref name="capacitySteps"/> carries the caller's steps when its capacity search is stepped by its caller (<see cref="TestPlan.CallerSteps"/>).</summary>
    public static TestResults Run(TestPlan plan, EventWriter events, CancellationToken cancel, Capacity.CapacityControl? capacitySteps = null)
    {
        if (plan.CallerSteps && capacitySteps is null)
            throw EngineException.Refused(ErrorCodes.CapacitySteppingInvalid, $"capacitySteps {CapacityStepping.Caller} needs the control channel that carries the caller's steps: start the engine with --control-stdin and write each step after the request line (docs/protocol.md, \"Control channel\").");
        // Before anything else is written: no other run may use these folders (FolderInUse names the holder). The lock
        // lies in them, so folders the run makes (JetstressCmd's) are made first.
        plan.CreateFolders();
        using var runLock = RunLock.Acquire(plan.LockFolders, plan.TestId, "run");
        using var ctx = new RunContext(plan, events, cancel) { CapacitySteps = capacitySteps };
        var r = ctx.Results;
        RunRecord.Begin(ctx);
        try
        {
            Prepare(ctx);
            AgreedStart.Wait(ctx);
            Load(ctx);
        }
        catch (OperationCanceledException)
        {
            r.Completion = Completions.Stopped;
        }
        catch (EngineException ex) when (r.Timeline.Phases.Count > 1)
        {
            // Failed part-way: keep what was measured and say why.
            r.Completion = Completions.Failed;
            ctx.Log($"The run failed: {ex.Code}: {ex.Message}");
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException && r.Timeline.Phases.Count > 1)
        {
            r.Completion = Completions.Failed;
            ctx.Log($"The run failed: {ex.Message}");
        }
        if (cancel.IsCancellationRequested && r.Completion == Completions.Complete) r.Completion = Completions.Stopped;
        RunRecord.End(ctx);
        HostEnvironment.CheckSystemLog(ctx);
        Judge(ctx);
        Save(ctx);
        return r;
    }

    /// <summary>
    /// Prepares the plan's databases — create (re-using a set of ours), attach or restore, under the run lock, with the
    /// run's refusals — and stops: no load, no results file. JetstressCmd's "/threads 0 /timeout 0H0M0S", with which lab
    /// scripts create a host's databases before the runs that open them.
    /// </summary>
    public static IReadOnlyList<PreparedInstance> PrepareOnly(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        plan.CreateFolders();
        using var runLock = RunLock.Acquire(plan.LockFolders, plan.TestId, "prepare");
        events.Log(EventFields.Log.Info, "Preparing for testing ...");
        var prepared = DatabaseSet.Prepare(plan, events, message => events.Log(EventFields.Log.Info, message), cancel);
        events.Log(EventFields.Log.Info, "Preparations for testing are complete.");
        return prepared;
    }

    /// <summary>The databases created, attached or restored and opened for the run; the volumes under them inspected.</summary>
    private static void Prepare(RunContext ctx)
    {
        ctx.BeginPhase("Preparing");
        ctx.Log("Preparing for testing ...");
        ctx.Prepared = DatabaseSet.Prepare(ctx.Plan, ctx.Events, ctx.Log, ctx.Cancel);
        ctx.OpenFiles();
        RunRecord.Sizes(ctx, initial: true);
        ctx.Log("Preparations for testing are complete.");
        HostEnvironment.InspectVolumes(ctx);
        ctx.Checkpoint();
    }

    /// <summary>
    /// Each test type's own run on the prepared databases, one row each (a test holds it against <see cref="TestTypes.All"/>):
    /// a new test type is a row here and one in the contract's traits.
    /// </summary>
    internal static readonly IReadOnlyDictionary<TestType, Action<RunContext>> Runs = new Dictionary<TestType, Action<RunContext>>
    {
        [TestType.Performance] = TransactionalRun.Run,
        [TestType.Stress] = TransactionalRun.Run,
        [TestType.Throughput] = TransactionalRun.Run,
        [TestType.DatabaseBackup] = ctx => WithHostCounters(ctx, () => BackupRun.Run(ctx)),
        [TestType.SoftRecovery] = ctx => WithHostCounters(ctx, () => SoftRecoveryRun.Run(ctx)),
        [TestType.Capacity] = CapacityRun.Run,
    };

    /// <summary>The test type's own run on the prepared databases.</summary>
    private static void Load(RunContext ctx) => Runs[ctx.Plan.TestType](ctx);

    /// <summary>Host counters over a backup or recovery run (the whole run is their measured window).</summary>
    private static void WithHostCounters(RunContext ctx, Action run)
    {
        var counters = HostEnvironment.StartCounters(ctx);
        try { run(); }
        finally { HostEnvironment.StopCounters(ctx, counters); }
    }

    /// <summary>"Creating test report ...": the verdict's inputs as Jetstress logs them, the verdict, then the check against the calculator's design (when the profile came from one).</summary>
    private static void Judge(RunContext ctx)
    {
        var r = ctx.Results;
        ctx.Log("Creating test report ...");
        foreach (var inst in r.Instances)
        {
            if (inst.Stream(StreamNames.DatabaseRead) is { } dr) ctx.Log(F($"{inst.Name} has {dr.LatencyMs.Mean:F1} for I/O Database Reads Average Latency."));
            if (inst.Stream(StreamNames.LogWrite) is { } lw) ctx.Log(F($"{inst.Name} has {lw.LatencyMs.Mean:F1} for I/O Log Writes Average Latency."));
            if (inst.Stream(StreamNames.LogReplicationRead) is { } lr) ctx.Log(F($"{inst.Name} has {lr.LatencyMs.Mean:F1} for I/O Log Reads Average Latency."));
        }
        if (TestTypes.Of(r.TestType).Transactional)
        {
            double maxStalls = 0;
            int above = 0;
            foreach (var inst in r.Instances) { maxStalls = Math.Max(maxStalls, inst.MaximumPageFaultStallsPerSecond); above += inst.PageFaultStallSamplesAboveZero; }
            ctx.Log(F($"Test has {maxStalls:G4} Maximum Database Page Fault Stalls/sec."));
            ctx.Log($"The test has {above} Database Page Fault Stalls/sec samples higher than 0.");
            ctx.Log($"{Path.GetFileName(ctx.ResultsPath)} has {RunRecord.SampleCount(r)} samples queried.");
        }
        r.SeriesAnalysis = SeriesFindings.Of(r);
        foreach (var (warning, line) in SeriesFindings.LogLines(r.SeriesAnalysis))
            if (warning) ctx.Warn(line); else ctx.Log(line);
        foreach (string line in RunJudgement.Judge(r, ctx.Plan.Thresholds, ctx.Plan.StallLimitSeconds)) ctx.Log(line);
        ctx.Log($"Overall test result: {r.Verdict.Result}" + (r.Verdict.Reasons.Count > 0 ? " - " + string.Join(" ", r.Verdict.Reasons.Select(x => x.Message)) : ""));
        r.CalculatorCheck = CalculatorCheck.For(r);
        foreach (var row in r.CalculatorCheck?.Rows ?? new List<CalculatorCheckRow>()) ctx.Log($"Calculator ({r.CalculatorCheck!.Calculator} {r.CalculatorCheck.Version}): {row.Line}");
        r.CaptureCheck = CaptureCheck.For(r);
        if (r.CaptureCheck is { } captured) ctx.Log($"Capture: {captured.Line}");
    }

    /// <summary>The final save; a results file that cannot be written is an error event, and the last checkpoint is named.</summary>
    private static void Save(RunContext ctx)
    {
        var r = ctx.Results;
        try
        {
            ctx.SaveFinal();
            ctx.Events.Log(EventFields.Log.Info, $"Results saved to {ctx.ResultsPath}");
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            r.SaveError = $"Could not write the results file '{ctx.ResultsPath}': {ex.Message}" +
                (r.SavedPath is null ? " No checkpoint was saved either." : $" The last checkpoint ({r.SavedPath}) holds the samples up to then.");
            ctx.Events.Error("ResultsWriteFailed", ErrorCategories.WriteError, r.SaveError, ctx.ResultsPath);
        }
    }

    internal static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
