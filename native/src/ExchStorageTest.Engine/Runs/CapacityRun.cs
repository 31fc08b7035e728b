using System.Diagnostics;
using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// The capacity search on one host, in one engine process, on the database set the run prepared once
/// (docs/capacity.md): one cache warm-up, then steps chosen by <see cref="CapacitySequence.Next"/>. Each step is a load
/// phase of its own (sessions enough for its rate) over the same instance workloads, so the database cache model stays
/// warm from step to step; sessions think between transactions to hold the step's paced rate, settle, and are measured
/// over a window judged by <see cref="VerdictJudge"/> with the plan's thresholds, exactly as a Performance test of that
/// many mailboxes. Every finished step is saved (a checkpoint) before the next starts; a stop keeps them all.
/// </summary>
public static class CapacityRun
{
    /// <summary>A step's paced rate as a multiple of its target: the Performance test's (<see cref="Tuner.PaceFactor"/>), so a step loads as that test would.</summary>
    public const double PaceFactor = Tuner.PaceFactor;

    /// <summary>The most sessions a step gets (the tuner's ceiling).</summary>
    private const int MaxSessions = 1024;

    internal static void Run(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        var timing = CapacityTiming.For(plan.DurationSeconds, plan.SampleIntervalSeconds, plan.Schedule.WarmupSeconds)!;
        var search = r.Capacity = new CapacityResult
        {
            BoundSeconds = timing.BoundSeconds, SettleSeconds = timing.SettleSeconds, StepSeconds = timing.WindowSeconds,
            StartMailboxes = plan.Profile.MailboxCount, ResolutionPercent = CapacitySequence.ResolutionPercent, PaceFactor = Tuner.PaceFactor,
            SteppedBy = plan.CallerSteps ? CapacityStepping.Caller : CapacityStepping.Engine,
        };
        r.Settings.LoadModel = "Paced";
        r.Settings.AutoTuned = false; // each step's sessions come from its rate (SessionsFor), not from tuning
        // No target until a step's window is the document's (KeepReportedWindow): a checkpoint pairs no figure with the profile's.
        r.Sizing.TargetTransactionalIops = 0;
        var windows = new Dictionary<int, StepWindow>();
        if (plan.CallerSteps) CallerSteps(ctx, timing, ctx.CapacitySteps!, windows);
        else EngineSteps(ctx, timing, windows);
        // Now that the search has ended, its stop reason says what cut an answer no failing step bounds.
        search.Answer = CapacitySearch.Answer(plan.Profile, search.Steps, search.StopReason);
        var a = search.Answer;
        KeepReportedWindow(ctx, windows);
        ctx.Log(a.Mailboxes > 0
            ? TestRunner.F($"Capacity: {(a.LowerBound ? "at least " : "")}{a.Mailboxes} mailboxes at {plan.Profile.IopsPerMailbox:0.###} IOPS per mailbox with {plan.Profile.HeadroomPercent:0.#}% headroom ({a.MailboxesWithoutHeadroom} without it); {a.PercentOverRequirement:+0.#;-0.#;0}% against the profile's {a.RequiredMailboxes}, {a.ReserveIops:0.#} IOPS of reserve.")
            : "Capacity: no step passed.");
        if (PassiveCopiesLine(plan.Profile) is string passive) ctx.Log(passive);
        if (a.LimitingRule is not null) ctx.Log($"The next step ({a.LimitingMailboxes} mailboxes) failed on {a.LimitingRule}: {a.LimitingReasons.FirstOrDefault(x => x.Code == a.LimitingRule)?.Message}" +
            (a.LowerBound ? $" The answer is a lower bound: the storage carries at least {a.Mailboxes} mailboxes; this host could not load it further." : ""));
        else if (a.LowerBound) ctx.Log($"No step failed: the answer is a lower bound ({a.LowerBoundReason}); the storage carries at least {a.Mailboxes} mailboxes, how many more the search did not reach.");
    }

    /// <summary>
    /// With passive copies on the volumes, each step's mailboxes are the active databases' and their volumes carried the
    /// passive copies' I/O too: the test log (and so the text report and -Verbose) says by how much the model scales the
    /// database load, so the answer is read against it. Null in the Jetstress model.
    /// </summary>
    internal static string? PassiveCopiesLine(MailboxProfile p)
    {
        int passive = PassiveCopyModel.PassivePerDatabase(p);
        if (passive == 0) return null;
        double factor = PassiveCopyModel.DatabaseIopsFactor(p);
        return TestRunner.F($"Passive copies: each step's volumes carried {passive} passive copies beside each active database ({p.CopiesPerVolume} copies per volume, {p.ActiveCopiesPerVolume} active, {p.LaggedCopiesPerVolume} lagged): by the model, {factor:0.##}x the active databases' database IOPS and {PassiveCopyModel.LogBytesFactor(p):0.##}x their log bytes (docs/load-model.md). The mailboxes above are active ones with that load on their disks; storage limited by its database IOPS would carry up to {factor:0.##}x as many tested without passive copies (the Jetstress model).");
    }

    /// <summary>What a judged step measured beyond its summary, kept in memory until the search ends: the document's measured figures become the reported step's (<see cref="KeepReportedWindow"/>).</summary>
    private sealed record StepWindow(List<InstanceResult> Instances, List<SamplePoint> Series, List<InstanceSample> InstanceSeries, List<HostCounter> HostCounters);

    /// <summary>The engine's own search: <see cref="CapacitySequence.Next"/> chooses each step, within the time bound; a stopped search resumes.</summary>
    private static void EngineSteps(RunContext ctx, CapacityTiming timing, Dictionary<int, StepWindow> windows)
    {
        var plan = ctx.Plan;
        var search = ctx.Results.Capacity!;
        ctx.Log(TestRunner.F($"Capacity search: from {plan.Profile.MailboxCount} mailboxes at {plan.Profile.IopsPerMailbox:0.###} IOPS per mailbox (headroom {plan.Profile.HeadroomPercent:0.#}%), doubling until a step fails, then bisecting to {CapacitySequence.ResolutionPercent:0.#}%; each step settles {timing.SettleSeconds:0.#} s and measures {timing.WindowSeconds:0.#} s; the whole search within {timing.BoundSeconds:0} s ({timing.StepsThatFit} steps fit after the {timing.WarmupSeconds:0.#} s warm-up)."));
        var clock = Stopwatch.StartNew();
        bool warm = false;
        var outcomes = new List<StepOutcome>();
        if (CapacityResume.Find(ctx) is { } previous)
        {
            search.ResumedFrom = previous.SavedPath;
            search.Steps.AddRange(previous.Capacity!.Steps);
            outcomes.AddRange(search.Steps.Select(s => new StepOutcome(s.Mailboxes, s.Passed)));
            search.Answer = CapacitySearch.Answer(plan.Profile, search.Steps);
            ctx.Log($"Resuming the capacity search of {Path.GetFileName(previous.SavedPath)} ({previous.Completion}): its {search.Steps.Count} finished steps ({string.Join(", ", search.Steps.Select(s => $"{s.Mailboxes} {(s.Passed ? Verdicts.Pass : Verdicts.Fail)}"))}) count as this run's.");
        }
        while (true)
        {
            if (ctx.Cancel.IsCancellationRequested) { End(ctx, CapacityStopReasons.Stopped, "the search was stopped"); break; }
            double elapsed = clock.Elapsed.TotalSeconds + (warm ? 0 : timing.WarmupSeconds);
            var decision = CapacitySequence.Decide(plan.Profile.MailboxCount, outcomes, _ => timing.Fits(elapsed), timing.BoundSeconds);
            if (decision.Mailboxes is not int mailboxes)
            {
                End(ctx, decision.StopReason!, decision.Message!);
                break;
            }
            var step = RunStep(ctx, timing, search.Steps.Count + 1, mailboxes, warmFirst: !warm, measureAtUtc: null, windows);
            warm = true;
            if (step is null) { EndUnfinished(ctx); break; }
            outcomes.Add(new StepOutcome(step.Mailboxes, step.Passed));
            if (Record(ctx, step, announce: false)) break;
        }
    }

    /// <summary>
    /// A search stepped by its caller (several hosts stepping together, docs/capacity.md "Several hosts"): no load while
    /// it waits for the caller's next command; each step measures from the caller's instant and is announced as a
    /// <see cref="EventTypes.CapacityStep"/> event; the caller's <c>end</c> says why the search ended. The caller holds
    /// the time bound and chooses the steps, so there is no resume and no bound here.
    /// </summary>
    private static void CallerSteps(RunContext ctx, CapacityTiming timing, CapacityControl control, Dictionary<int, StepWindow> windows)
    {
        var search = ctx.Results.Capacity!;
        ctx.Log(TestRunner.F($"Capacity search stepped by its caller: each step runs the mailboxes the caller sends, settles until the caller's measuring instant and measures {timing.WindowSeconds:0.#} s; the first step warms the cache up first, until it is ~90% full and the engine's code is warm, or the step must settle for its instant. Waiting for the first step ..."));
        bool warm = false;
        while (true)
        {
            ctx.BeginPhase("WaitingForStep");
            switch (control.TryTake(ctx.Cancel))
            {
                case null:
                    End(ctx, CapacityStopReasons.Stopped, "the search was stopped");
                    return;
                case CapacityEndCommand end:
                    EndAsCaller(ctx, end);
                    return;
                case CapacityStepCommand next:
                    var step = RunStep(ctx, timing, search.Steps.Count + 1, next.Mailboxes, warmFirst: !warm, next.MeasureAtUtc, windows);
                    warm = true;
                    if (step is null) { EndUnfinished(ctx); return; }
                    if (Record(ctx, step, announce: true)) return;
                    break;
            }
        }
    }

    /// <summary>
    /// A judged step joins the search: the answer so far, a checkpoint (a stop keeps it), the caller told when it steps
    /// the search; then today's rules end the search on an I/O error (unless ContinueOnError) or a failed worker.
    /// </summary>
    private static bool Record(RunContext ctx, CapacityStep step, bool announce)
    {
        var search = ctx.Results.Capacity!;
        search.Steps.Add(step);
        search.Answer = CapacitySearch.Answer(ctx.Plan.Profile, search.Steps);
        ctx.Checkpoint();
        if (announce) ctx.Events.Emit(EventTypes.CapacityStep, w => CapacityFieldsWriter.WriteStep(w, step));
        if (step.IoErrors > 0 && !ctx.Plan.Request.ContinueOnError) { End(ctx, CapacityStopReasons.Failed, $"an I/O error failed the {step.Mailboxes}-mailbox step"); return true; }
        if (ctx.Results.Completion == Completions.Failed) { End(ctx, CapacityStopReasons.Failed, $"an I/O worker failed during the {step.Mailboxes}-mailbox step"); return true; }
        return false;
    }

    /// <summary>A step that has no verdict: stopped during it, or it could not finish.</summary>
    private static void EndUnfinished(RunContext ctx)
    {
        if (ctx.Cancel.IsCancellationRequested) End(ctx, CapacityStopReasons.Stopped, "the search was stopped during a step; the finished steps are kept");
        else End(ctx, CapacityStopReasons.Failed, "a step could not finish");
    }

    /// <summary>The caller's <c>end</c>: its reason is one a search gives (else Failed, with a warning), its words the stop message.</summary>
    private static void EndAsCaller(RunContext ctx, CapacityEndCommand end)
    {
        string? reason = CapacityStopReasons.All.FirstOrDefault(x => string.Equals(x, end.StopReason, StringComparison.OrdinalIgnoreCase));
        if (reason is null)
            ctx.Warn($"The caller ended the search with the stop reason '{end.StopReason}', which is not one of {string.Join(", ", CapacityStopReasons.All)}: recorded as {CapacityStopReasons.Failed}.");
        string message = string.IsNullOrWhiteSpace(end.Message) ? "the caller ended the search" : end.Message.Trim().TrimEnd('.');
        End(ctx, reason ?? CapacityStopReasons.Failed, reason is null ? $"{message} (stop reason '{end.StopReason}')" : message);
    }

    private static void End(RunContext ctx, string reason, string message)
    {
        var search = ctx.Results.Capacity!;
        search.StopReason = reason;
        search.StopMessage = message;
        if (reason == CapacityStopReasons.Stopped) ctx.Results.Completion = Completions.Stopped;
        if (reason == CapacityStopReasons.Failed) ctx.Results.Completion = Completions.Failed;
        ctx.Log($"Capacity search ended: {message}.");
    }

    /// <summary>
    /// Sessions enough for a paced rate: by Little's law a session carries rate x latency I/Os in flight, so at the
    /// rules' average read latency limit the rate needs rate x limit sessions; twice that, so a step fails on its
    /// latency or its IOPS, not on too few sessions. A given thread count is used as it is.
    /// </summary>
    internal static int SessionsFor(double pacedIops, double readLimitMs, int instances, int? given) =>
        given ?? Math.Clamp((int)Math.Ceiling(2 * pacedIops * readLimitMs / 1000), Math.Max(2, instances), MaxSessions);

    /// <summary>
    /// One step: sessions for its paced rate, the search's one warm-up first, settling, then the measured window judged.
    /// With the caller's <paramref name="measureAtUtc"/> the warm-up ends in time to settle and the settling lasts until
    /// that instant, so every host's window starts together; an instant already gone settles the usual time, late.
    /// </summary>
    private static CapacityStep? RunStep(RunContext ctx, CapacityTiming timing, int number, int mailboxes, bool warmFirst, DateTime? measureAtUtc, Dictionary<int, StepWindow> windows)
    {
        var plan = ctx.Plan;
        double target = CapacitySearch.TargetIops(plan.Profile, mailboxes);
        double paced = Math.Round(target * Tuner.PaceFactor, 3);
        int sessions = SessionsFor(paced, plan.Thresholds.AverageDatabaseReadLatencyMs, ctx.Instances.Count, plan.ThreadCount);
        string name = $"Step {number}: {mailboxes} mailboxes";
        using var phase = new LoadPhase(ctx, PhaseOptions.SearchStep(plan, sessions));
        phase.PaceAt(paced);
        int errorsBefore = ctx.Results.Errors.Count;
        CapacityStep? step = null;
        phase.Start();
        try
        {
            if (warmFirst) Warmup(ctx, phase, timing, measureAtUtc);
            if (ctx.Cancel.IsCancellationRequested || phase.Driver.StoppedByError) return null;
            ctx.BeginPhase(name);
            var settleUntil = SettleUntil(ctx, timing, measureAtUtc, name);
            ctx.Log(TestRunner.F($"{name}: {Wording.Count(sessions, "session")} paced at {paced:0.###} IOPS ({Tuner.PaceFactor:0.00} x the target {target:0.###}); settling until {settleUntil:HH:mm:ss.fff} UTC ({(settleUntil - DateTime.UtcNow).TotalSeconds:0.#} s)."));
            // The settling's length is read from the clock last, so the window opens at the instant itself.
            phase.Run(Math.Max(0, (settleUntil - DateTime.UtcNow).TotalSeconds), Math.Min(plan.SampleIntervalSeconds, 2), name, null);
            if (ctx.Cancel.IsCancellationRequested) return null;
            var start = DateTime.UtcNow;
            phase.BeginMeasuring();
            // The host's counters over this window alone, as a Performance test's over its own (what is missing said once).
            var counters = HostEnvironment.StartCounters(ctx, warn: warmFirst);
            WindowEnd end;
            try { end = phase.Run(timing.WindowSeconds, plan.SampleIntervalSeconds, name, null); }
            finally { HostEnvironment.StopCounters(ctx, counters, warn: warmFirst); }
            if (end == WindowEnd.Cancelled) return null;
            phase.EndMeasuring();
            List<InstanceResult> measured;
            (step, measured) = Judge(ctx, phase, number, mailboxes, target, paced, sessions, start);
            lock (ctx.Results.TimeSeries)
                windows[number] = new StepWindow(measured, ctx.Results.TimeSeries.ToList(), ctx.Results.InstanceSeries.ToList(), ctx.Results.HostCounters);
        }
        finally
        {
            phase.Stop();
            // Each step is summed up in its step; the document keeps the series and counters of the reported step's window only.
            lock (ctx.Results.TimeSeries)
            {
                ctx.Results.TimeSeries.Clear();
                ctx.Results.InstanceSeries.Clear();
            }
            ctx.Results.HostCounters = new List<HostCounter>();
        }
        // Errors the driver records as it stops (in flight at the window's end) fail the step too.
        step.IoErrors = Math.Max(step.IoErrors, ctx.Results.Errors.Count - errorsBefore);
        if (step.IoErrors > 0 && step.Passed) Fail(step, ctx.Results.Errors.Skip(errorsBefore).ToList());
        ctx.Log(TestRunner.F($"{name}: {step.AchievedIops:F1} IOPS (target {target:0.###}), DB read {step.DatabaseReadLatencyAverageMs:F1} ms (p99 {step.DatabaseReadLatencyP99Ms:F1}), log write {step.LogWriteLatencyAverageMs:F1} ms (p99 {step.LogWriteLatencyP99Ms:F1}): {(step.Passed ? Verdicts.Pass : "Fail - " + string.Join(" ", step.Reasons.Select(x => x.Message)))}"));
        return step;
    }

    /// <summary>
    /// The search's one warm-up, until its prerequisites are met (<see cref="WarmupPrerequisites"/>) or its bound has
    /// passed: the plan's warm-up, or with the caller's instant, until the first step must start settling to measure at it.
    /// </summary>
    private static void Warmup(RunContext ctx, LoadPhase phase, CapacityTiming timing, DateTime? measureAtUtc)
    {
        ctx.BeginPhase("Warmup");
        double bound = measureAtUtc is DateTime at ? Math.Max(0, (at.AddSeconds(-timing.SettleSeconds) - DateTime.UtcNow).TotalSeconds) : timing.WarmupSeconds;
        ctx.Log(TestRunner.F($"Attaining prerequisites: warming the database cache at the first step's rate (at most {bound:0.#} s{(measureAtUtc is null ? "" : ", until the step settles for its measuring instant")})."));
        var prerequisites = new WarmupPrerequisites(ctx);
        phase.Run(bound, Math.Min(ctx.Plan.SampleIntervalSeconds, 2), "Warmup", prerequisites.Met);
        foreach (var line in prerequisites.Describe()) ctx.Log(line);
    }

    /// <summary>
    /// When a step's settling ends and its window opens: the settle time from now, or the caller's instant. An instant
    /// already gone cannot be kept: the step settles the usual time and measures late, which its measureStartUtc shows.
    /// </summary>
    private static DateTime SettleUntil(RunContext ctx, CapacityTiming timing, DateTime? measureAtUtc, string name)
    {
        var now = DateTime.UtcNow;
        if (measureAtUtc is DateTime at && at > now) return at;
        if (measureAtUtc is DateTime passed)
            ctx.Warn(TestRunner.F($"{name}: the caller's measuring instant {passed:o} passed {(now - passed).TotalSeconds:F1} s before the step was ready to settle; it settles {timing.SettleSeconds:0.#} s and measures from then, late against the other hosts."));
        return now.AddSeconds(timing.SettleSeconds);
    }

    /// <summary>The step's window judged as a Performance test of this many mailboxes: the same document shape, the same judge.</summary>
    private static (CapacityStep, List<InstanceResult>) Judge(RunContext ctx, LoadPhase phase, int number, int mailboxes, double target, double paced, int sessions, DateTime start)
    {
        var doc = new TestResults { TestType = TestType.Performance };
        var results = phase.StreamResults();
        double window = phase.Driver.AccountedSeconds;
        for (int i = 0; i < ctx.Instances.Count; i++)
        {
            var w = ctx.Instances[i];
            var inst = new InstanceResult { Name = $"Instance.{w.Index}", Index = w.Index };
            inst.Streams.AddRange(results.Where(x => x.Instance == w).Select(x => x.Result));
            inst.PageFaultStallsPerSecond = phase.StallsPerSecond(i, window);
            inst.MaximumPageFaultStallsPerSecond = phase.MaxStallsPerSecond(i);
            (inst.PageFaultStallWaitMs, inst.FlushBacklogPages, inst.FlushWritesInFlight) = phase.FlushEvidenceOfWindow(i);
            doc.Instances.Add(inst);
        }
        doc.Settings.WriteBackOf(ctx.Shape);
        doc.MachineEvidence = phase.MachineEvidence;
        if (phase.MachineEvidence is { } host) ctx.Log($"Step {number}: " + MachineLimit.Describe(host));
        doc.Sizing.TargetTransactionalIops = target;
        doc.Sizing.AchievedTransactionalIops = Math.Round(TransactionalIops.Achieved(doc), 3);
        var verdict = VerdictJudge.Judge(doc, ctx.Plan.Thresholds);
        var reads = doc.Instances.Select(i => i.Stream(StreamNames.DatabaseRead)).Where(s => s is { Operations: > 0 }).ToList();
        var logs = doc.Instances.Select(i => i.Stream(StreamNames.LogWrite)).Where(s => s is { Operations: > 0 }).ToList();
        return (new CapacityStep
        {
            Step = number, Mailboxes = mailboxes, TargetIops = target, PacedIops = paced, Sessions = sessions,
            MeasureStartUtc = start, WindowSeconds = Math.Round(window, 3),
            AchievedIops = doc.Sizing.AchievedTransactionalIops,
            DatabaseReadLatencyAverageMs = WeightedMean(reads!), DatabaseReadLatencyP99Ms = Highest(reads!, s => s.LatencyMs.P99),
            DatabaseReadLatencyMaximumMs = Highest(reads!, s => s.MaxSampleAverageLatencyMs),
            LogWriteLatencyAverageMs = WeightedMean(logs!), LogWriteLatencyP99Ms = Highest(logs!, s => s.LatencyMs.P99),
            LogWriteLatencyMaximumMs = Highest(logs!, s => s.MaxSampleAverageLatencyMs),
            PageFaultStallsPerSecond = Math.Round(doc.Instances.Select(i => i.PageFaultStallsPerSecond).DefaultIfEmpty(0).Max(), 3),
            IoErrors = doc.Instances.Sum(i => i.Streams.Sum(s => s.ErrorCount)),
            Passed = verdict.Result == Verdicts.Pass, Reasons = verdict.Reasons,
            LimitingRule = CapacitySearch.LimitingRule(verdict.Reasons),
            MachineEvidence = doc.MachineEvidence,
        }, doc.Instances);
    }

    /// <summary>
    /// The reported step's window becomes the document's measured figures (instances, streams, stalls, target and achieved
    /// IOPS, collection window, host counters, time series, host evidence), so every report's Jetstress tables show one
    /// step's evidence with that step's own target: the answer's step, or when no step passed, the first failing step (the
    /// one that shows why). None when no step of this process finished (<see cref="CapacityResult.ReportedStep"/> null):
    /// the document then holds no measured window, and its target is 0 rather than a target no window was measured against.
    /// </summary>
    private static void KeepReportedWindow(RunContext ctx, Dictionary<int, StepWindow> windows)
    {
        var r = ctx.Results;
        var search = r.Capacity!;
        var step = CapacitySearch.ReportedStep(search.Steps, search.Answer);
        if (step is null || !windows.TryGetValue(step.Step, out var window))
        {
            r.Sizing.TargetTransactionalIops = 0;
            r.Sizing.AchievedTransactionalIops = 0;
            ctx.Log(step is null
                ? "No step finished: the report has no measured window."
                : $"The report has no measured window: step {step.Step} ({step.Mailboxes} mailboxes), the one that answers, ran in the search this one continued; its figures are in that search's results file.");
            return;
        }
        search.ReportedStep = step.Step;
        foreach (var m in window.Instances)
        {
            var inst = RunRecord.Instance(ctx, m.Index);
            inst.Streams = m.Streams;
            inst.Sessions = step.Sessions;
            inst.PageFaultStallsPerSecond = m.PageFaultStallsPerSecond;
            inst.MaximumPageFaultStallsPerSecond = m.MaximumPageFaultStallsPerSecond;
        }
        r.Settings.ThreadCount = step.Sessions;
        r.Settings.PacedIops = step.PacedIops;
        r.Timeline.CollectionStartUtc = step.MeasureStartUtc;
        r.Timeline.CollectionEndUtc = step.MeasureStartUtc.AddSeconds(step.WindowSeconds);
        r.Sizing.TargetTransactionalIops = step.TargetIops;
        r.Sizing.AchievedTransactionalIops = step.AchievedIops;
        r.MachineEvidence = step.MachineEvidence;
        r.HostCounters = window.HostCounters;
        lock (r.TimeSeries)
        {
            r.TimeSeries.AddRange(window.Series);
            r.InstanceSeries.AddRange(window.InstanceSeries);
        }
        ctx.Log($"The report's measured figures are step {step.Step}'s ({step.Mailboxes} mailboxes, target {step.TargetIops:0.###} IOPS, {(step.Passed ? "the answer" : "the first failing step: no step passed")}).");
    }

    /// <summary>I/O errors seen only when the driver stopped (after the window's judgement) still fail the step.</summary>
    private static void Fail(CapacityStep step, List<IoErrorRecord> errors)
    {
        var first = errors.FirstOrDefault();
        step.Passed = false;
        step.Reasons.Add(VerdictJudge.IoErrors(step.IoErrors, first));
        step.LimitingRule = CapacitySearch.LimitingRule(step.Reasons);
    }

    private static double WeightedMean(List<StreamResult> streams)
    {
        long ops = streams.Sum(s => s.Operations);
        return ops == 0 ? 0 : Math.Round(streams.Sum(s => s.LatencyMs.Mean * s.Operations) / ops, 3);
    }

    private static double Highest(List<StreamResult> streams, Func<StreamResult, double> figure) =>
        Math.Round(streams.Select(figure).DefaultIfEmpty(0).Max(), 3);
}
