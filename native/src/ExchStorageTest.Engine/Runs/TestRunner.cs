using System.Diagnostics;
using System.Globalization;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Runs a planned test end to end: prepare databases, (tune), warm up, measure, shut down, judge,
/// write the results file. Progress and samples go to the event stream; the results document is
/// returned and saved even when the run is stopped or fails part-way. Files are never deleted.
/// </summary>
public static class TestRunner
{
    /// <summary>
    /// Hosts that run together agree instants (<see cref="RunSchedule"/>): each prepares, then waits here for the
    /// load start — or, for backup and recovery, which measure from their first I/O, for the measuring start — so the
    /// windows line up (within the hosts' clock skew, which the orchestrator measures and reports).
    /// </summary>
    private static void WaitForAgreedStart(RunContext ctx)
    {
        var schedule = ctx.Plan.Schedule;
        bool measuresAtOnce = ctx.Plan.TestType is TestType.DatabaseBackup or TestType.SoftRecovery;
        if ((measuresAtOnce ? schedule.MeasureStartUtc : schedule.LoadStartUtc) is not DateTime at) return;
        var wait = at - DateTime.UtcNow;
        if (wait <= TimeSpan.Zero)
        {
            ctx.Log($"The agreed start {at:o} passed {-wait.TotalSeconds:F1} s before preparation ended; starting at once.");
            return;
        }
        ctx.BeginPhase("WaitingForStart");
        ctx.Log(measuresAtOnce || schedule.LeadSeconds == 0
            ? $"Waiting for the agreed start at {at:o} ({wait.TotalSeconds:F1} s) ..."
            : F($"Waiting for the agreed start at {at:o} ({wait.TotalSeconds:F1} s) ...; every host measures from {schedule.MeasureStartUtc:o}, after tuning and warm-up ({schedule.LeadSeconds:F0} s)."));
        while (DateTime.UtcNow < at)
        {
            ctx.Cancel.ThrowIfCancellationRequested();
            var left = at - DateTime.UtcNow;
            ctx.Events.Progress("WaitingForStart", 0, Math.Max(0, left.TotalSeconds), $"Start at {at:HH:mm:ss} UTC");
            ctx.Cancel.WaitHandle.WaitOne(NextWait(left));
        }
    }

    /// <summary>
    /// The next slice of the wait for the agreed start: at most a second (progress stays live), never negative.
    /// The instant can pass between the loop's check and this reading of the clock (a busy machine preempts the
    /// thread), and WaitOne reads a TimeSpan from -1 ms to -2 ms as -1, Infinite: that host then never started.
    /// </summary>
    internal static TimeSpan NextWait(TimeSpan left) =>
        left <= TimeSpan.Zero ? TimeSpan.Zero : left < TimeSpan.FromSeconds(1) ? left : TimeSpan.FromSeconds(1);

    /// <summary>Runs <paramref name="plan"/>; <paramref name="capacitySteps"/> carries the caller's steps when its capacity search is stepped by its caller (<see cref="TestPlan.CallerSteps"/>).</summary>
    public static TestResults Run(TestPlan plan, EventWriter events, CancellationToken cancel, Capacity.CapacityControl? capacitySteps = null)
    {
        if (plan.CallerSteps && capacitySteps is null)
            throw EngineException.Refused(ErrorCodes.CapacitySteppingInvalid, $"capacitySteps {CapacityStepping.Caller} needs the control channel that carries the caller's steps: start the helper with --control-stdin and write each step after the request line (docs/protocol.md, \"Control channel\").");
        // Before anything is written: no other run may use these folders (FolderInUse names the holder).
        using var runLock = RunLock.Acquire(plan.LockFolders, plan.TestId, "run");
        using var ctx = new RunContext(plan, events, cancel) { CapacitySteps = capacitySteps };
        var r = ctx.Results;
        FillSettings(ctx);
        try
        {
            ctx.BeginPhase("Preparing");
            ctx.Log("Preparing for testing ...");
            ctx.Prepared = DatabaseSet.Prepare(plan, events, ctx.Log, cancel);
            ctx.OpenFiles();
            FillSizing(ctx, initial: true);
            ctx.Log("Preparations for testing are complete.");
            HostEnvironment.InspectVolumes(ctx);
            ctx.Checkpoint();
            WaitForAgreedStart(ctx);

            switch (plan.TestType)
            {
                case TestType.DatabaseBackup: WithHostCounters(ctx, () => BackupRun.Run(ctx)); break;
                case TestType.SoftRecovery: WithHostCounters(ctx, () => SoftRecoveryRun.Run(ctx)); break;
                case TestType.Capacity: CapacityRun.Run(ctx); break;
                default: TransactionalRun(ctx); break;
            }
        }
        catch (OperationCanceledException)
        {
            r.Completion = "Stopped";
        }
        catch (EngineException ex) when (r.Timeline.Phases.Count > 1)
        {
            // Failed part-way: keep what was measured and say why.
            r.Completion = "Failed";
            ctx.Log($"The run failed: {ex.Code}: {ex.Message}");
        }
        catch (Exception ex) when (ex is IOException or InvalidOperationException && r.Timeline.Phases.Count > 1)
        {
            r.Completion = "Failed";
            ctx.Log($"The run failed: {ex.Message}");
        }
        if (cancel.IsCancellationRequested && r.Completion == "Complete") r.Completion = "Stopped";
        Finish(ctx);
        return r;
    }

    /// <summary>
    /// Prepares the plan's databases — create (re-using a set of ours), attach or restore, under the run lock, with the
    /// run's refusals — and stops: no load, no results file. JetstressCmd's "/threads 0 /timeout 0H0M0S", with which lab
    /// scripts create a host's databases before the runs that open them.
    /// </summary>
    public static IReadOnlyList<PreparedInstance> PrepareOnly(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        using var runLock = RunLock.Acquire(plan.LockFolders, plan.TestId, "prepare");
        events.Log(EventFields.Log.Info, "Preparing for testing ...");
        var prepared = DatabaseSet.Prepare(plan, events, message => events.Log(EventFields.Log.Info, message), cancel);
        events.Log(EventFields.Log.Info, "Preparations for testing are complete.");
        return prepared;
    }

    /// <summary>Host counters over a backup or recovery run (the whole run is their measured window).</summary>
    private static void WithHostCounters(RunContext ctx, Action run)
    {
        var counters = HostEnvironment.StartCounters(ctx);
        try { run(); }
        finally { HostEnvironment.StopCounters(ctx, counters); }
    }

    private static void TransactionalRun(RunContext ctx)
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
        if (ctx.Cancel.IsCancellationRequested) { r.Completion = "Stopped"; return; }

        LogStartOfDispatch(ctx, sessions);
        var options = new PhaseOptions(sessions, plan.Request.TargetRateIops, Transactional: true,
            Maintenance: plan.Profile.BackgroundMaintenance, Replication: plan.Profile.CopiesPerDatabase > 1, Backup: false, Grow: true);
        using var phase = new LoadPhase(ctx, options);
        r.Engine.WorkerCount = phase.WorkerCount;
        phase.Start();
        bool grownPagesWritten = false;
        try
        {
            Warmup(ctx, phase);
            if (!ctx.Cancel.IsCancellationRequested && !phase.Driver.StoppedByError) Settle(ctx, phase, pace);
            if (!ctx.Cancel.IsCancellationRequested && !phase.Driver.StoppedByError)
            {
                ctx.BeginPhase("Measuring");
                r.Timeline.CollectionStartUtc = DateTime.UtcNow;
                phase.BeginMeasuring();
                LogLateMeasuringStart(ctx, r.Timeline.CollectionStartUtc.Value);
                var counters = HostEnvironment.StartCounters(ctx);
                WindowEnd end;
                try { end = phase.Run(plan.DurationSeconds, plan.SampleIntervalSeconds, "Measuring", null); }
                finally { HostEnvironment.StopCounters(ctx, counters); }
                r.Timeline.CollectionEndUtc = DateTime.UtcNow;
                if (end == WindowEnd.Cancelled) r.Completion = "Stopped";
                if (end == WindowEnd.Error) r.Completion = "Failed";
                ctx.Log("Performance logging has ended.");
            }
        }
        finally
        {
            ctx.Log("Dispatching transactions ends.");
            ctx.Log("Shutting down databases ...");
            if (r.Completion != "Failed" && !phase.Driver.StoppedByError) grownPagesWritten = phase.Shutdown(maxSeconds: ctx.Cancel.IsCancellationRequested ? 5 : 30);
            phase.Stop();
            Collect(ctx, phase);
        }
        DatabaseGrowth.Record(ctx, grownPagesWritten);
        ctx.Log(string.Join(" and ", ctx.Instances.Select(w => $"Instance.{w.Index} (complete)")));
        ctx.Log($"{Path.GetFileName(ctx.ResultsPath)} has {SampleCount(r)} samples.");
        if (plan.TestType == TestType.Stress && r.Completion == "Complete")
        {
            ctx.BeginPhase("Checksum");
            ctx.Log("Verifying database and log checksums ...");
            r.Checksum = ChecksumVerifier.Verify(plan.Instances.Select(i => i.DatabaseFile), plan.Instances.Select(i => i.LogFolder), ctx.Events, ctx.Cancel);
            ctx.Log($"Checksum pass: {r.Checksum.PagesChecked} pages and {r.Checksum.LogsChecked} log files checked; {r.Checksum.BadPages} bad pages, {r.Checksum.BadLogs} bad logs.");
        }
    }

    internal static void LogStartOfDispatch(RunContext ctx, int sessions)
    {
        var plan = ctx.Plan;
        ctx.Log("Starting transaction dispatch ..");
        long minCache = 0, maxCache = 0;
        int start = 0, stop = 0;
        foreach (var w in ctx.Instances)
        {
            maxCache += (long)w.Cache.Capacity * PageFormat.PageSize;
            start += w.Cache.StartThreshold;
            stop += w.Cache.StopThreshold;
        }
        minCache = Math.Min(maxCache, plan.Profile.MinimumDatabaseCacheMB * 1048576 * maxCache / Math.Max(1, plan.Profile.MaximumDatabaseCacheMB * 1048576));
        ctx.Log($"Database cache settings: (minimum: {RunContext.Mb(minCache)}, maximum: {RunContext.Mb(maxCache)})");
        ctx.Log($"Database flush thresholds: (start: {RunContext.Mb((long)start * PageFormat.PageSize)}, stop: {RunContext.Mb((long)stop * PageFormat.PageSize)})");
        var t = plan.Thresholds;
        ctx.Log(F($"Database read latency thresholds: (average: {t.AverageDatabaseReadLatencyMs:G} msec/read, maximum: {t.MaximumDatabaseReadLatencyMs:G} msec/read)."));
        ctx.Log(F($"Log write latency thresholds: (average: {t.AverageLogWriteLatencyMs:G} msec/write, maximum: {t.MaximumLogWriteLatencyMs:G} msec/write)."));
        var s = ctx.Shape;
        ctx.Log($"Operation mix: Sessions {sessions}, Inserts {s.InsertPercent}%, Deletes {s.DeletePercent}%, Replaces {s.ReplacePercent}%, Reads {s.ReadPercent}%, Lazy Commits {s.LazyCommitPercent}%.");
        if (plan.Request.TargetRateIops is double rate) ctx.Log(F($"Open-loop pacing: {rate:F1} transactional IOPS target, Poisson arrivals; latency measured from the intended start."));
        string picked = plan.Request.SampleIntervalSeconds is null
            ? F($", picked for the {plan.DurationSeconds:0.###} s window: at least {RunDefaults.MinimumSamples} samples, at most {RunDefaults.SampleIntervalSeconds:0} s apart; -SampleIntervalSeconds sets it")
            : "";
        ctx.Log(F($"Performance logging started (interval: {plan.SampleIntervalSeconds * 1000:F0} ms{picked})."));
    }

    /// <summary>
    /// "Attaining prerequisites": run until each cache model is ~90% full, bounded by the warm-up's time — with agreed
    /// instants, until the schedule's warm-up deadline, however early tuning ended.
    /// </summary>
    private static void Warmup(RunContext ctx, LoadPhase phase)
    {
        var plan = ctx.Plan;
        ctx.BeginPhase("Warmup");
        ctx.Log("Attaining prerequisites:");
        double bound = plan.Schedule.WarmupDeadlineUtc is DateTime until ? SecondsUntil(until) : plan.Schedule.WarmupSeconds;
        long target = 0;
        foreach (var w in ctx.Instances) target += (long)(w.Cache.Capacity * 0.9) * PageFormat.PageSize;
        Func<bool> full = () =>
        {
            foreach (var w in ctx.Instances) if (w.Cache.Resident < w.Cache.Capacity * 0.9) return false;
            return true;
        };
        if (bound > 0) phase.Run(bound, Math.Min(plan.SampleIntervalSeconds, 2), "Warmup", full);
        long cache = 0;
        foreach (var w in ctx.Instances) cache += (long)w.Cache.Resident * PageFormat.PageSize;
        ctx.Log(F($"\\MSExchange Database(ExchStorageTest)\\Database Cache Size, Last: {cache:F1} (lower bound: {target:F1}, upper bound: none)") + (full() ? "" : " - warm-up time bound reached"));
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
            ctx.Log(F($"Sessions think between transactions from here on, holding the transactional load to {rate:0.###} IOPS; settling for {seconds:F0} s") +
                (schedule.Agreed ? $", until the agreed measuring start at {schedule.MeasureStartUtc:o}." : "."));
        }
        else if (seconds > 0)
            ctx.Log(F($"Holding the load for {seconds:F0} s, until the agreed measuring start at {schedule.MeasureStartUtc:o}."));
        if (seconds > 0) phase.Run(seconds, Math.Min(ctx.Plan.SampleIntervalSeconds, 2), "Warmup", null);
    }

    /// <summary>Says so when this host starts measuring after the agreed instant (its preparation or tuning overran).</summary>
    private static void LogLateMeasuringStart(RunContext ctx, DateTime started)
    {
        if (ctx.Plan.Schedule.MeasureStartUtc is not DateTime agreed) return;
        double late = (started - agreed).TotalSeconds;
        if (late >= 1) ctx.Warn(F($"Measuring started {late:F1} s after the agreed measuring start at {agreed:o}: this host's window is shifted against the others'."));
    }

    private static double SecondsUntil(DateTime instantUtc) => Math.Max(0, (instantUtc - DateTime.UtcNow).TotalSeconds);

    internal static void Collect(RunContext ctx, LoadPhase phase)
    {
        var r = ctx.Results;
        double window = phase.Driver.AccountedSeconds;
        foreach (var (w, s) in phase.StreamResults())
        {
            var inst = InstanceFor(ctx, w.Index);
            inst.Streams.RemoveAll(x => x.Stream == s.Stream);
            inst.Streams.Add(s);
        }
        for (int i = 0; i < ctx.Instances.Count; i++)
        {
            var w = ctx.Instances[i];
            var inst = InstanceFor(ctx, w.Index);
            if (phase.Transactional[i] is { } transactional) inst.Sessions = transactional.Sessions;
            if (phase.Options.Transactional && window > 0)
            {
                inst.PageFaultStallsPerSecond = phase.StallsPerSecond(i, window);
                inst.MaximumPageFaultStallsPerSecond = phase.MaxStallsPerSecond(i);
                inst.PageFaultStallSamplesAboveZero = phase.StallSamples(i);
            }
        }
        r.Sizing.AchievedTransactionalIops = Math.Round(TransactionalIops.Achieved(r), 3);
    }

    internal static InstanceResult InstanceFor(RunContext ctx, int index)
    {
        var inst = ctx.Results.Instances.Find(x => x.Index == index);
        if (inst is not null) return inst;
        var p = ctx.Prepared.First(x => x.Plan.Index == index);
        inst = new InstanceResult
        {
            Name = p.Plan.Name, Index = index, DatabasePath = p.Plan.DatabaseFile, LogPath = p.Plan.LogFolder,
            DatabaseSizeBytes = p.Header.SizeBytes, InstanceId = $"0x{p.InstanceId:X16}", DatabaseCreated = p.Created,
        };
        ctx.Results.Instances.Add(inst);
        ctx.Results.Instances.Sort((a, b) => a.Index.CompareTo(b.Index));
        return inst;
    }

    private static void FillSettings(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        var s = ctx.Shape;
        r.Settings = new RunSettings
        {
            DurationSeconds = plan.DurationSeconds,
            WarmupSeconds = plan.Schedule.WarmupSeconds,
            StartAtUtc = plan.Schedule.LoadStartUtc,
            MeasureAtUtc = plan.Schedule.MeasureStartUtc,
            SampleIntervalSeconds = plan.SampleIntervalSeconds,
            ThreadCount = plan.ThreadCount ?? 0,
            AutoTuned = plan.ThreadCount is null && plan.Request.TargetRateIops is null,
            LoadModel = plan.Request.TargetRateIops is null ? "Closed" : "Open",
            TargetRateIops = plan.Request.TargetRateIops,
            ContinueOnError = plan.Request.ContinueOnError,
            DatabaseSource = plan.Request.DatabaseSource,
            Thresholds = plan.Thresholds,
            InsertPercent = s.InsertPercent, DeletePercent = s.DeletePercent, ReplacePercent = s.ReplacePercent,
            ReadPercent = s.ReadPercent, LazyCommitPercent = s.LazyCommitPercent,
            OutputPath = plan.OutputPath,
        };
        r.Environment = new EnvironmentInfo
        {
            MachineName = Environment.MachineName,
            OperatingSystem = RuntimeInformation.OSDescription,
            Runtime = RuntimeInformation.FrameworkDescription,
            ProcessorCount = Environment.ProcessorCount,
            MemoryBytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
        };
        foreach (var i in plan.Instances)
        {
            foreach (var path in new[] { i.DatabaseFolder, i.LogFolder })
            {
                if (r.Environment.Volumes.Exists(v => v.Path == path)) continue;
                var v = new VolumeReport { Path = path };
                try
                {
                    var info = VolumeSpace.Of(Directory.Exists(path) ? path : Path.GetDirectoryName(path) ?? path);
                    v.TotalBytes = info.TotalBytes;
                    v.FreeBytes = info.FreeBytes;
                }
                catch (Exception) { /* folder not there yet: sizes unknown */ }
                r.Environment.Volumes.Add(v);
            }
        }
        r.Sizing.TargetTransactionalIops = plan.TestType == TestType.Throughput ? 0 : Math.Round(plan.TargetIops, 3);
        r.Sizing.DatabaseFileCount = plan.Instances.Count;
        r.Sizing.CapacityPercent = plan.TestType == TestType.Throughput ? plan.Request.CapacityPercent : null;
        r.Sizing.PageSizeBytes = PageFormat.PageSize;
        r.Sizing.LogFileSizeBytes = LogFormat.FileSize;
    }

    private static void FillSizing(RunContext ctx, bool initial)
    {
        long total = 0;
        foreach (var p in ctx.Prepared)
        {
            total += File.Exists(p.Plan.DatabaseFile) ? new FileInfo(p.Plan.DatabaseFile).Length : 0;
            var inst = InstanceFor(ctx, p.Plan.Index);
            if (ctx.Instances.Find(w => w.Index == p.Plan.Index) is { } w)
            {
                inst.MaximumDatabaseCacheBytes = (long)w.Cache.Capacity * PageFormat.PageSize;
                inst.MinimumDatabaseCacheBytes = Math.Min(inst.MaximumDatabaseCacheBytes, ctx.Plan.Profile.MinimumDatabaseCacheMB * 1048576 / Math.Max(1, ctx.Plan.Instances.Count));
            }
        }
        if (initial) ctx.Results.Sizing.InitialDatabaseSizeBytes = total;
        else ctx.Results.Sizing.FinalDatabaseSizeBytes = total;
    }

    private static void Finish(RunContext ctx)
    {
        var r = ctx.Results;
        var plan = ctx.Plan;
        ctx.EndPhase();
        r.Timeline.TestEndUtc = DateTime.UtcNow;
        r.Environment.IoBackend = ctx.BackendName;
        r.Environment.WorkerCpus = ctx.WorkerCpus.ToList();
        r.Environment.DirectIo = ctx.DirectIo;
        if (ctx.Prepared.Count > 0) FillSizing(ctx, initial: false);
        foreach (var w in ctx.Instances)
        {
            var inst = InstanceFor(ctx, w.Index);
            inst.DatabaseCacheSizeBytes = (long)w.Cache.Resident * PageFormat.PageSize;
            inst.Transactions = w.Transactions;
            inst.ChecksumErrors = w.ChecksumErrors;
            inst.ChecksumRaces = w.ChecksumRaces;
            inst.ChecksumProblems = new List<string>(w.ChecksumProblems);
            inst.LogGenerationsWritten = w.GenerationsCompleted;
        }
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - ctx.StartCpu).TotalSeconds;
        r.Engine.ProcessCpuSeconds = Math.Round(cpu, 3);
        r.Engine.TotalOperations = ctx.TotalOperations;
        r.Engine.CpuMicrosecondsPerIo = ctx.TotalOperations > 0 ? Math.Round(cpu * 1e6 / ctx.TotalOperations, 2) : 0;
        r.Engine.IoFeatures = ctx.IoFeatures;
        if (ctx.IoFeatures.Count > 0)
            ctx.Log($"I/O backend {ctx.BackendName}: " + string.Join("; ", ctx.IoFeatures.Select(f => f.Describe())) + ".");

        HostEnvironment.CheckSystemLog(ctx);
        ctx.Log("Creating test report ...");
        foreach (var inst in r.Instances)
        {
            if (inst.Stream(StreamNames.DatabaseRead) is { } dr) ctx.Log(F($"{inst.Name} has {dr.LatencyMs.Mean:F1} for I/O Database Reads Average Latency."));
            if (inst.Stream(StreamNames.LogWrite) is { } lw) ctx.Log(F($"{inst.Name} has {lw.LatencyMs.Mean:F1} for I/O Log Writes Average Latency."));
            if (inst.Stream(StreamNames.LogReplicationRead) is { } lr) ctx.Log(F($"{inst.Name} has {lr.LatencyMs.Mean:F1} for I/O Log Reads Average Latency."));
        }
        if (r.TestType is TestType.Performance or TestType.Stress or TestType.Throughput)
        {
            double maxStalls = 0;
            int above = 0;
            foreach (var inst in r.Instances) { maxStalls = Math.Max(maxStalls, inst.MaximumPageFaultStallsPerSecond); above += inst.PageFaultStallSamplesAboveZero; }
            ctx.Log(F($"Test has {maxStalls:G4} Maximum Database Page Fault Stalls/sec."));
            ctx.Log($"The test has {above} Database Page Fault Stalls/sec samples higher than 0.");
            ctx.Log($"{Path.GetFileName(ctx.ResultsPath)} has {SampleCount(r)} samples queried.");
        }
        r.Verdict = VerdictJudge.Judge(r, plan.Thresholds);
        ctx.Log($"Overall test result: {r.Verdict.Result}" + (r.Verdict.Reasons.Count > 0 ? " - " + string.Join(" ", r.Verdict.Reasons.Select(x => x.Message)) : ""));
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

    internal static int SampleCount(TestResults r)
    {
        var seen = new HashSet<double>();
        foreach (var s in r.TimeSeries) seen.Add(s.ElapsedSeconds);
        return seen.Count;
    }

    internal static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
