using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Performance, Stress and Throughput on the prepared databases: the sessions chosen (given, tuned or searched for),
/// one load phase of the test's own load (<see cref="PhaseOptions.Test"/>) through the warm-up ("attaining
/// prerequisites"), the settling and the measured window, a clean shutdown that writes every page the databases grew by,
/// and for Stress the checksum pass.
/// </summary>
internal static class TransactionalRun
{
    public static void Run(RunContext ctx)
    {
        var r = ctx.Results;
        var (sessions, pace) = ChooseLoad(ctx);
        if (ctx.Cancel.IsCancellationRequested) { r.Completion = Completions.Stopped; return; }

        LogStartOfDispatch(ctx, sessions);
        using var phase = new LoadPhase(ctx, PhaseOptions.Test(ctx.Plan, sessions));
        r.Engine.WorkerCount = phase.WorkerCount;
        phase.Start();
        bool grownPagesWritten;
        var fault = new FaultWindowRun();
        try
        {
            Warmup(ctx, phase);
            if (GoingOn(ctx, phase)) Settle(ctx, phase, pace);
            if (GoingOn(ctx, phase)) Measure(ctx, phase, fault);
        }
        finally
        {
            grownPagesWritten = ShutDown(ctx, phase);
            FailureModeRecord.Collect(ctx, phase, fault.Window, fault.Script?.Record ?? fault.Elsewhere, fault.Reseed?.Record);
            fault.Script?.Dispose();
            fault.Reseed?.Dispose();
        }
        DatabaseGrowth.Record(ctx, grownPagesWritten);
        ctx.Log(string.Join(" and ", ctx.Instances.Select(w => $"Instance.{w.Index} (complete)")));
        ctx.Log($"{Path.GetFileName(ctx.ResultsPath)} has {RunRecord.SampleCount(r)} samples.");
        if (ctx.Plan.TestType == TestType.Stress && r.Completion == Completions.Complete) ChecksumPass(ctx);
    }

    /// <summary>
    /// The sessions the test runs and the rate they are paced at (null: not paced): Throughput searches for the most
    /// that pass; a given thread count is taken as it is; an open loop needs sessions enough for its arrivals;
    /// otherwise the tuner finds them for the profile's target.
    /// </summary>
    private static (int Sessions, double? Pace) ChooseLoad(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        int sessions;
        double? pace = null;
        if (plan.TestType == TestType.Throughput) sessions = Tuner.FindMaximum(ctx);
        else if (plan.ThreadCount is int t) sessions = t;
        else if (plan.Request.TargetRateIops is not null) sessions = Math.Max(plan.Instances.Count, 8);
        else (sessions, pace) = Tuner.Tune(ctx);
        r.Settings.ThreadCount = sessions;
        r.Settings.PacedIops = pace;
        if (pace is not null) r.Settings.LoadModel = "Paced";
        return (sessions, pace);
    }

    private static bool GoingOn(RunContext ctx, LoadPhase phase) => !ctx.Cancel.IsCancellationRequested && !phase.Driver.StoppedByError;

    /// <summary>Jetstress's test log lines before the load starts: cache, flush thresholds, latency thresholds, operation mix, sampling.</summary>
    internal static void LogStartOfDispatch(RunContext ctx, int sessions)
    {
        var plan = ctx.Plan;
        ctx.Log("Starting transaction dispatch ..");
        long minCache = 0, maxCache = 0;
        int start = 0, stop = 0;
        foreach (var w in ctx.Instances)
        {
            maxCache += RunRecord.UsedMaximumCacheBytes(w);
            minCache += RunRecord.UsedMinimumCacheBytes(ctx, w);
            start += w.Cache.ConfiguredStartThreshold;
            stop += w.Cache.ConfiguredStopThreshold;
        }
        // The caches that run, as the reports state them; the profile's own figures beside them when the databases cut them.
        ctx.Log($"Database cache settings: (minimum: {RunContext.Mb(minCache)}, maximum: {RunContext.Mb(maxCache)})");
        long configuredMin = plan.Profile.MinimumDatabaseCacheMB * 1048576, configuredMax = plan.Profile.MaximumDatabaseCacheMB * 1048576;
        if (RunContext.Mb(minCache) != RunContext.Mb(configuredMin) || RunContext.Mb(maxCache) != RunContext.Mb(configuredMax))
            ctx.Log($"Database cache configured: (minimum: {RunContext.Mb(configuredMin)}, maximum: {RunContext.Mb(configuredMax)}); {Reports.ReportText.CacheCutReason}.");
        ctx.Log($"Database flush thresholds: (start: {RunContext.Mb((long)start * PageFormat.PageSize)}, stop: {RunContext.Mb((long)stop * PageFormat.PageSize)})");
        var t = plan.Thresholds;
        ctx.Log(TestRunner.F($"Database read latency thresholds: (average: {t.AverageDatabaseReadLatencyMs:G} msec/read, maximum: {t.MaximumDatabaseReadLatencyMs:G} msec/read)."));
        ctx.Log(TestRunner.F($"Log write latency thresholds: (average: {t.AverageLogWriteLatencyMs:G} msec/write, maximum: {t.MaximumLogWriteLatencyMs:G} msec/write)."));
        var s = ctx.Shape;
        ctx.Log($"Operation mix: Sessions {sessions}, Inserts {s.InsertPercent}%, Deletes {s.DeletePercent}%, Replaces {s.ReplacePercent}%, Reads {s.ReadPercent}%, Lazy Commits {s.LazyCommitPercent}%.");
        if (plan.Request.TargetRateIops is double rate) ctx.Log(TestRunner.F($"Open-loop pacing: {rate:F1} transactional IOPS target, Poisson arrivals; latency measured from the intended start."));
        string picked = plan.Request.SampleIntervalSeconds is null
            ? TestRunner.F($", picked for the {plan.DurationSeconds:0.###} s window: at least {RunDefaults.MinimumSamples} samples, at most {RunDefaults.SampleIntervalSeconds:0} s apart; -SampleIntervalSeconds sets it")
            : "";
        ctx.Log(TestRunner.F($"Performance logging started (interval: {plan.SampleIntervalSeconds * 1000:F0} ms{picked})."));
    }

    /// <summary>
    /// "Attaining prerequisites" (<see cref="WarmupPrerequisites"/>), bounded by the warm-up's time — with agreed
    /// instants, until the schedule's warm-up deadline, however early tuning ended.
    /// </summary>
    private static void Warmup(RunContext ctx, LoadPhase phase)
    {
        var plan = ctx.Plan;
        ctx.BeginPhase("Warmup");
        ctx.Log("Attaining prerequisites:");
        double bound = plan.Schedule.WarmupDeadlineUtc is DateTime until ? SecondsUntil(until) : plan.Schedule.WarmupSeconds;
        var prerequisites = new WarmupPrerequisites(ctx);
        if (bound > 0) phase.Run(bound, Math.Min(plan.SampleIntervalSeconds, 2), "Warmup", prerequisites.Met);
        foreach (var line in prerequisites.Describe()) ctx.Log(line);
    }

    /// <summary>
    /// Between the warm-up and the measured window. Tuned sessions start thinking between transactions and the load
    /// settles at the paced rate, so the window sees the steady state. With agreed instants the chosen load — paced or
    /// not — runs on until the agreed measuring start, so shared storage carries every host's load until they all
    /// measure together.
    /// </summary>
    private static void Settle(RunContext ctx, LoadPhase phase, double? pace)
    {
        var schedule = ctx.Plan.Schedule;
        double seconds = schedule.MeasureStartUtc is DateTime measureAt ? SecondsUntil(measureAt) : pace is null ? 0 : schedule.SettleSeconds;
        if (pace is double rate)
        {
            phase.PaceAt(rate);
            ctx.Log(TestRunner.F($"Sessions think between transactions from here on, holding the transactional load to {rate:0.###} IOPS; settling for {seconds:F0} s") +
                (schedule.Agreed ? $", until the agreed measuring start at {schedule.MeasureStartUtc:o}." : "."));
        }
        else if (seconds > 0)
            ctx.Log(TestRunner.F($"Holding the load for {seconds:F0} s, until the agreed measuring start at {schedule.MeasureStartUtc:o}."));
        if (seconds > 0) phase.Run(seconds, Math.Min(ctx.Plan.SampleIntervalSeconds, 2), "Warmup", null);
    }

    /// <summary>The measured window, with the host's counters over it, and the declared fault window inside it.</summary>
    private static void Measure(RunContext ctx, LoadPhase phase, FaultWindowRun fault)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        ctx.BeginPhase("Measuring");
        r.Timeline.CollectionStartUtc = DateTime.UtcNow;
        phase.BeginMeasuring();
        LogLateMeasuringStart(ctx, r.Timeline.CollectionStartUtc.Value);
        var counters = HostEnvironment.StartCounters(ctx);
        WindowEnd end;
        try { end = RunMeasured(ctx, phase, r.Timeline.CollectionStartUtc.Value, fault); }
        finally
        {
            fault.Script?.Finish();
            fault.Reseed?.Finish();
            phase.EndMeasuring();
            HostEnvironment.StopCounters(ctx, counters);
        }
        r.Timeline.CollectionEndUtc = DateTime.UtcNow;
        if (fault.Reseed?.Record is { } seed)
        {
            ctx.Log("Reseed: " + Analysis.ReseedImpact.Line(seed) + ".");
            if (seed.Error is { } why) ctx.Warn(why);
        }
        if (end == WindowEnd.Cancelled) r.Completion = Completions.Stopped;
        if (end == WindowEnd.Error) r.Completion = Completions.Failed;
        ctx.Log("Performance logging has ended.");
    }

    /// <summary>
    /// The measured window's load. With a declared fault window (docs/failure-mode.md) it runs in three stretches split at
    /// the window's start and end — the agreed measuring start plus FaultAt on every host of a run, else this window's
    /// start plus FaultAt — so a sample ends at each edge and the steady state is judged from whole samples on either
    /// side; the fault script starts at the window's start on the host that runs it.
    /// </summary>
    private static WindowEnd RunMeasured(RunContext ctx, LoadPhase phase, DateTime windowStartUtc, FaultWindowRun fault)
    {
        var plan = ctx.Plan;
        double interval = plan.SampleIntervalSeconds;
        if (plan.Fault is not { } f) return phase.Run(plan.DurationSeconds, interval, "Measuring", null);
        DateTime faultStart = (plan.Schedule.MeasureStartUtc ?? windowStartUtc).AddSeconds(f.AtSeconds);
        DateTime faultEnd = faultStart.AddSeconds(f.LengthSeconds);
        DateTime windowEnd = windowStartUtc.AddSeconds(plan.DurationSeconds);
        var end = RunUntil(phase, faultStart, interval);
        if (end != WindowEnd.Elapsed) return end;

        var started = DateTime.UtcNow;
        fault.Window = new FaultWindow
        {
            AtSeconds = Math.Round((started - windowStartUtc).TotalSeconds, 3), LengthSeconds = f.LengthSeconds,
            StartUtc = started, EndUtc = started.AddSeconds(f.LengthSeconds), Source = "Declared",
        };
        string scriptPart = "";
        if (f.RunsScriptHere)
        {
            fault.Script = FaultScript.Start(f.Script!, plan.TestId, started, f.LengthSeconds);
            scriptPart = fault.Script.Record.Error is { } why ? $"; {why}" : $"; fault script {f.Script} started";
        }
        else if (f.Script is not null)
        {
            fault.Elsewhere = FaultScript.Elsewhere(f.Script, f.ScriptHost ?? "");
            scriptPart = $"; fault script {f.Script} runs on {f.ScriptHost}";
        }
        if (f.ReseedPath is string spare)
        {
            fault.Reseed = StartReseed(ctx, spare, started, windowStartUtc, faultEnd);
            scriptPart += TestRunner.F($"; reseeding {fault.Reseed.Record.SourceFile} onto {fault.Reseed.Record.TargetFile} at {fault.Reseed.Record.TargetMBPerSecond:0.#} MB/s");
        }
        ctx.Log(TestRunner.F($"Fault window begins {fault.Window.AtSeconds:0.#} s into the measured window, for up to {f.LengthSeconds:0.#} s (until {fault.Window.EndUtc:HH:mm:ss} UTC){scriptPart}."));
        if (fault.Script?.Record.Error is { } error) ctx.Warn(error);
        phase.Driver.SetFaultWindow(true);
        try { end = RunUntil(phase, faultEnd, interval); }
        finally { phase.Driver.SetFaultWindow(false); }
        if (end != WindowEnd.Elapsed) return end;
        ctx.Log("Fault window ends; the rest of the measured window is steady state.");
        return RunUntil(phase, windowEnd, interval);
    }

    /// <summary>The reseed of the window (docs/failure-mode.md): the run's first database streamed onto the spare folder, from now until the window's end at the latest.</summary>
    private static ReseedStream StartReseed(RunContext ctx, string spare, DateTime started, DateTime windowStartUtc, DateTime faultEnd)
    {
        var volumes = ctx.Results.Environment.Volumes;
        string source = ReseedPlan.Source(ctx.Plan).DatabaseFile, target = ReseedPlan.Target(ctx.Plan, spare);
        var record = new ReseedRun
        {
            SourceFile = source, SourceVolume = VolumeNames.Of(volumes, source),
            TargetFile = target, TargetVolume = VolumeNames.Of(volumes, target),
            IoSizeBytes = ReseedRules.IoSizeBytes, TargetMBPerSecond = Math.Round(ReseedRules.TargetBytesPerSecond / 1048576.0, 3),
            StartedUtc = started, StartSeconds = Math.Round((started - windowStartUtc).TotalSeconds, 3),
        };
        return ReseedStream.Start(record, source, faultEnd, ctx.Plan.Request.AllowBufferedIo);
    }

    /// <summary>Runs the load until <paramref name="instantUtc"/>, sampling on the interval and once at the end.</summary>
    private static WindowEnd RunUntil(LoadPhase phase, DateTime instantUtc, double interval)
    {
        double seconds = (instantUtc - DateTime.UtcNow).TotalSeconds;
        // An edge already behind (a late start) gets no sample of its own: a sample of a few milliseconds says nothing.
        return seconds < 0.05 ? WindowEnd.Elapsed : phase.Run(seconds, interval, "Measuring", null);
    }

    /// <summary>The declared fault window as it ran: its instants, and its script's run here or the record that another host runs it.</summary>
    private sealed class FaultWindowRun
    {
        public FaultWindow? Window;
        public FaultScript? Script;
        public FaultScriptRun? Elsewhere;
        public ReseedStream? Reseed;
    }

    /// <summary>Says so when this host starts measuring after the agreed instant (its preparation or tuning overran).</summary>
    private static void LogLateMeasuringStart(RunContext ctx, DateTime started)
    {
        if (ctx.Plan.Schedule.MeasureStartUtc is not DateTime agreed) return;
        double late = (started - agreed).TotalSeconds;
        if (late >= 1) ctx.Warn(TestRunner.F($"Measuring started {late:F1} s after the agreed measuring start at {agreed:o}: this host's window is shifted against the others'."));
    }

    /// <summary>
    /// Ends the load however the window ended: a clean shutdown of the databases (sessions finish their transaction, the
    /// log and every grown page are written) unless the run failed, then the workers stop and what they measured is
    /// collected. True when the shutdown wrote every page the databases grew by.
    /// </summary>
    private static bool ShutDown(RunContext ctx, LoadPhase phase)
    {
        ctx.Log("Dispatching transactions ends.");
        ctx.Log("Shutting down databases ...");
        bool grownPagesWritten = false;
        if (ctx.Results.Completion != Completions.Failed && !phase.Driver.StoppedByError) grownPagesWritten = phase.Shutdown(maxSeconds: ctx.Cancel.IsCancellationRequested ? 5 : 30);
        phase.Stop();
        RunRecord.Collect(ctx, phase);
        return grownPagesWritten;
    }

    /// <summary>Stress's checksum pass over every database page and log file, after a complete run.</summary>
    private static void ChecksumPass(RunContext ctx)
    {
        var r = ctx.Results;
        ctx.BeginPhase("Checksum");
        ctx.Log("Verifying database and log checksums ...");
        r.Checksum = ChecksumVerifier.Verify(ctx.Plan.Instances.Select(i => i.DatabaseFile), ctx.Plan.Instances.Select(i => i.LogFolder), ctx.Events, ctx.Cancel);
        ctx.Log($"Checksum pass: {r.Checksum.PagesChecked} pages and {r.Checksum.LogsChecked} log files checked; {r.Checksum.BadPages} bad pages, {r.Checksum.BadLogs} bad logs.");
    }

    private static double SecondsUntil(DateTime instantUtc) => Math.Max(0, (instantUtc - DateTime.UtcNow).TotalSeconds);
}
