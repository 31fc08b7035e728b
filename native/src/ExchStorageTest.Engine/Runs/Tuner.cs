using System.Diagnostics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>What automatic tuning chose: the sessions and, in profile mode, the rate their think time holds.</summary>
internal readonly record struct TuningChoice(int Sessions, double? PacedIops);

/// <summary>
/// Automatic session tuning, as Jetstress does it: start high (16 sessions) and halve while the
/// target is still met, each step a transient phase (until every instance's database read latency
/// slope settles) and a stable phase that is judged and logged ("N sessions have actual X IOPS
/// (target IOPS: T)", per-instance latencies and slopes, the operation mix). The smallest count that
/// meets the target within the thresholds is chosen, and its sessions then think between
/// transactions whenever they get ahead of <see cref="PaceFactor"/> x the target, so the run loads
/// the storage the way the profile says even where one session per database already overshoots.
/// Throughput mode steps up instead and keeps the largest count that passes. The search is bounded
/// by a time budget (the test duration within 12..180 s unless the request says otherwise) and
/// logs why it stopped. A run whose hosts agreed instants (<see cref="RunSchedule"/>) has a hard end instead: every
/// step ends before the warm-up's share of the time to the agreed measuring start, and the search takes its best
/// count so far when no further step fits.
/// </summary>
internal static class Tuner
{
    /// <summary>The rate the chosen sessions are held to, as a multiple of the target (Jetstress landed at 1.06-1.27x).</summary>
    public const double PaceFactor = 1.15;
    /// <summary>Jetstress's even-latency limit: a transient phase has settled below this slope.</summary>
    public const double SettledSlopeMsPerSample = 0.5;
    public const int StartSessions = 16;
    private const int MaxSessions = 1024;
    private const double MinStepSeconds = 4;

    public static TuningChoice Tune(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        ctx.BeginPhase("Tuning");
        double target = plan.TargetIops;
        int floor = Math.Max(1, plan.Instances.Count);
        int start = Math.Max(StartSessions, floor);
        int rungs = 1;
        for (int n = start; n / 2 >= floor; n /= 2) rungs++;
        var clock = new TuningClock(plan);
        double step = Math.Max(MinStepSeconds, clock.Budget / rungs);
        ctx.Log(TestRunner.F($"Tuning the session count for {target:0.###} target IOPS: from {start} sessions, halving while the target is met ({clock.Describe()}, {step:F1} s per step)."));
        int sessions = start, steps = 0;
        bool ascending = false, latencyCapped = false;
        int? best = null;
        Trial? chosen = null, bestEffort = null;
        string stop;
        while (true)
        {
            if (ctx.Cancel.IsCancellationRequested) { stop = "the run was stopped"; break; }
            if (!clock.Fits(step, steps, out double length)) { stop = clock.RanOut(steps); break; }
            var t = RunTrial(ctx, sessions, length, target);
            steps++;
            if (t.IoFailed) { stop = $"an I/O error stopped the {sessions}-session step"; break; }
            bool meets = t.LatencyOk && t.Achieved >= target && t.Achieved > 0;
            if (t.LatencyOk && (bestEffort is null || t.Achieved > bestEffort.Achieved)) bestEffort = t;
            if (meets) { best = sessions; chosen = t; }
            if (ascending)
            {
                if (meets) { stop = $"{sessions} sessions meet the target and {sessions / 2} did not"; break; }
                if (!t.LatencyOk) { stop = $"{sessions} sessions exceed the latency thresholds before they reach the target"; break; }
                if (sessions >= MaxSessions) { stop = $"even {MaxSessions} sessions fall short of the target"; break; }
                sessions = Math.Min(MaxSessions, sessions * 2);
                continue;
            }
            if (meets)
            {
                if (sessions == floor) { stop = floor == 1 ? "1 session already meets the target" : $"{floor} sessions (one per database) already meet the target"; break; }
                sessions = Math.Max(floor, sessions / 2);
                continue;
            }
            if (best is int b) { stop = t.LatencyOk ? $"{Sessions(sessions)} {Wording.Noun(sessions, "falls", "fall")} short of the target, {b} meet it" : $"{Sessions(sessions)} {Wording.Noun(sessions, "exceeds", "exceed")} the latency thresholds, {b} meet the target"; break; }
            if (!t.LatencyOk)
            {
                if (sessions == floor) { stop = $"even {Sessions(floor)} {Wording.Noun(floor, "exceeds", "exceed")} the latency thresholds"; break; }
                latencyCapped = true;
                sessions = Math.Max(floor, sessions / 2); // fewer sessions, lower latencies
                continue;
            }
            if (latencyCapped) { stop = $"{Sessions(sessions)} {Wording.Noun(sessions, "keeps", "keep")} the latencies within the thresholds but {Wording.Noun(sessions, "falls", "fall")} short of the target, {sessions * 2} exceed the thresholds"; break; }
            if (sessions >= MaxSessions) { stop = $"even {MaxSessions} sessions fall short of the target"; break; }
            ascending = true; // the first count falls short with latencies to spare: more sessions
            sessions = Math.Min(MaxSessions, sessions * 2);
        }
        r.TuningStopReason = stop;
        if (best is int count && chosen is not null && !ctx.Cancel.IsCancellationRequested)
        {
            r.TuningOutcome = TuningOutcomes.Succeeded;
            double pace = Math.Round(PaceFactor * target, 3);
            ctx.Log($"Tuning stopped: {stop}. Tuning chose {Sessions(count)}.");
            if (chosen.Achieved > pace)
                ctx.Log(TestRunner.F($"{Sessions(count)} {Wording.Noun(count, "has", "have")} actual {chosen.Achieved:F1} IOPS, {chosen.Achieved / target:F1} times the target: the sessions will think between transactions (sluggish sessions) to hold {pace:0.###} IOPS ({PaceFactor:F2} x the target)."));
            else
                ctx.Log(TestRunner.F($"The sessions will think between transactions only when they get ahead of {pace:0.###} IOPS ({PaceFactor:F2} x the target)."));
            return new TuningChoice(count, pace);
        }
        int fallback = bestEffort?.Sessions ?? floor;
        if (Stopped(ctx, stop)) return new TuningChoice(fallback, null);
        r.TuningOutcome = TuningOutcomes.Failed;
        ctx.Log($"Tuning failed: {stop}. Continuing with {Sessions(fallback)}, without think time.");
        return new TuningChoice(fallback, null);
    }

    public static int FindMaximum(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        ctx.BeginPhase("Tuning");
        int floor = Math.Max(1, plan.Instances.Count);
        var clock = new TuningClock(plan);
        double step = Math.Max(MinStepSeconds, clock.Budget / 5);
        ctx.Log(TestRunner.F($"Searching for the largest session count that passes the thresholds: from {Sessions(floor)}, doubling ({clock.Describe()}, {step:F1} s per step)."));
        int sessions = floor, steps = 0, best = -1;
        string stop;
        while (true)
        {
            if (ctx.Cancel.IsCancellationRequested) { stop = "the run was stopped"; break; }
            if (!clock.Fits(step, steps, out double length)) { stop = clock.RanOut(steps); break; }
            var t = RunTrial(ctx, sessions, length, target: null);
            steps++;
            if (t.IoFailed) { stop = $"an I/O error stopped the {sessions}-session step"; break; }
            if (t.LatencyOk && t.Achieved > 0) best = sessions;
            else { stop = $"{Sessions(sessions)} {Wording.Noun(sessions, "exceeds", "exceed")} the latency thresholds"; break; }
            if (sessions >= MaxSessions) { stop = $"{MaxSessions} sessions is the most tried"; break; }
            sessions = Math.Min(MaxSessions, sessions * 2);
        }
        r.TuningStopReason = stop;
        if (best > 0 && !ctx.Cancel.IsCancellationRequested)
        {
            r.TuningOutcome = TuningOutcomes.Succeeded;
            ctx.Log($"Tuning stopped: {stop}. Tuning chose {Sessions(best)}.");
            return best;
        }
        if (Stopped(ctx, stop)) return floor;
        r.TuningOutcome = TuningOutcomes.Failed;
        ctx.Log($"Tuning failed: {stop}. Continuing with {Sessions(floor)}.");
        return floor;
    }

    /// <summary>
    /// A search the run's stop cut short: it neither found a count nor showed that none meets the target, so its outcome
    /// is Stopped, never Failed (a Failed tuning is a Fail reason the run did not earn).
    /// </summary>
    private static bool Stopped(RunContext ctx, string stop)
    {
        if (!ctx.Cancel.IsCancellationRequested) return false;
        ctx.Results.TuningOutcome = TuningOutcomes.Stopped;
        ctx.Log($"Tuning stopped: {stop}; no thread count was chosen.");
        return true;
    }

    /// <summary>
    /// When tuning must end. On its own, a run lets a step start while it ends within 110% of the budget (the first step
    /// always runs). With agreed instants the end is the schedule's tuning deadline, the same instant on every host: a
    /// step is cut to fit it, and none starts that would lose more than a tenth of its length (the first: of
    /// <see cref="MinStepSeconds"/>).
    /// </summary>
    private sealed class TuningClock
    {
        private readonly DateTime _deadline;
        private readonly bool _agreed;

        public TuningClock(TestPlan plan)
        {
            Budget = plan.Schedule.TuningSeconds;
            _agreed = plan.Schedule.TuningDeadlineUtc is not null;
            _deadline = plan.Schedule.TuningDeadlineUtc ?? DateTime.UtcNow.AddSeconds(Budget * 1.1);
        }

        public double Budget { get; }

        public string Describe() => _agreed
            ? TestRunner.F($"time budget {Budget:F0} s, ending by {_deadline:HH:mm:ss} UTC for the agreed measuring start")
            : TestRunner.F($"time budget {Budget:F0} s");

        /// <summary>
        /// Whether another step fits, and how long it may run. With agreed instants a step may lose up to a tenth of its
        /// length to the deadline (the steps themselves take a few milliseconds beyond their windows).
        /// </summary>
        public bool Fits(double step, int stepsTaken, out double length)
        {
            double left = (_deadline - DateTime.UtcNow).TotalSeconds;
            length = Math.Min(step, left);
            if (!_agreed) return left >= step || stepsTaken == 0;
            return left >= 0.9 * (stepsTaken == 0 ? MinStepSeconds : step);
        }

        public string RanOut(int stepsTaken) => _agreed
            ? TestRunner.F($"the tuning time ran out: tuning ends by {_deadline:HH:mm:ss} UTC to leave the warm-up its time before the agreed measuring start, and {(stepsTaken == 0 ? "no" : "no further")} step fits")
            : TestRunner.F($"the tuning time ({Budget:F0} s) ran out");
    }

    /// <summary>A judged tuning step. IoFailed: an I/O error stopped it (without continue-on-error), and the search ends there.</summary>
    private sealed record Trial(int Sessions, double Achieved, bool LatencyOk, bool IoFailed);

    private static string Sessions(int count) => Wording.Count(count, "session");

    /// <summary>The target a step is judged against, as its log entry records it: none when searching for the maximum.</summary>
    private static double? StepTarget(double? target) => target is double t ? Math.Round(t, 3) : null;

    /// <summary>One tuning step: a transient phase until the read-latency slopes settle, then a judged stable phase.</summary>
    private static Trial RunTrial(RunContext ctx, int sessions, double seconds, double? target)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        using var phase = new LoadPhase(ctx, PhaseOptions.SearchStep(plan, sessions));
        double interval = seconds >= 20 ? 1 : 0.5;
        var instances = ctx.Instances.Select(w => w.Index).ToArray();
        var transient = new ReadLatencySlopes(phase, instances);
        phase.Start();
        var sw = Stopwatch.StartNew();
        phase.Run(seconds * 0.4, interval, "Tuning", () => transient.Settled, transient.Add);
        double transientSeconds = sw.Elapsed.TotalSeconds;
        double slope = transient.SteepestSlope;
        string settledNote = transient.Settled
            ? TestRunner.F($"read latency slope settled after {Wording.Count(transient.Samples, "sample")} ({slope:F2} ms/sample)")
            : TestRunner.F($"read latency slope not settled within {transientSeconds:F0} s ({slope:F2} ms/sample); measuring anyway");
        r.TuningLog.Add(new TuningStep
        {
            TimeUtc = DateTime.UtcNow, ThreadCount = sessions, TargetRateIops = StepTarget(target), Phase = "Transient", Samples = transient.Samples,
            DatabaseReadLatencyMs = Math.Round(transient.LastMean, 3), ReadLatencySlopeMsPerSample = Math.Round(slope, 3), Note = settledNote,
        });
        ctx.Log($"{Sessions(sessions)}: transient phase, {settledNote}.");

        var stable = new ReadLatencySlopes(phase, instances);
        phase.BeginMeasuring();
        phase.Run(Math.Max(seconds - transientSeconds, seconds * 0.6), interval, "Tuning", null, stable.Add);
        // Tuning samples are not part of the measured window's time series.
        r.TimeSeries.Clear();
        r.InstanceSeries.Clear();
        phase.Stop();

        var figures = StepFigures.Of(phase, ctx.Instances);
        var t = plan.Thresholds;
        bool latencyOk = figures.Instances.TrueForAll(i =>
            i.ReadLatencyMs <= t.AverageDatabaseReadLatencyMs && i.ReadMaxSampleMs <= t.MaximumDatabaseReadLatencyMs
            && i.LogWriteLatencyMs <= t.AverageLogWriteLatencyMs && i.LogWriteMaxSampleMs <= t.MaximumLogWriteLatencyMs);
        bool passed = latencyOk && figures.Achieved > 0 && (target is null || figures.Achieved >= target);
        string note = !latencyOk ? "latencies above the thresholds" : target is null || figures.Achieved >= target ? "within the thresholds" + (target is null ? "" : ", target met") : "below the target";
        var s = ctx.Shape;
        r.TuningLog.Add(new TuningStep
        {
            TimeUtc = DateTime.UtcNow, ThreadCount = sessions, TargetRateIops = StepTarget(target), Phase = "Stable", Samples = stable.Samples,
            AchievedIops = Math.Round(figures.Achieved, 3),
            DatabaseReadLatencyMs = Math.Round(figures.ReadLatencyMs, 3), LogWriteLatencyMs = Math.Round(figures.LogWriteLatencyMs, 3),
            LogReadLatencyMs = Math.Round(figures.LogReadLatencyMs, 3), ReadLatencySlopeMsPerSample = Math.Round(stable.SteepestSlope, 3),
            ReadsPerWrite = Math.Round(figures.ReadsPerWrite, 3), TransfersPerLogWrite = Math.Round(figures.TransfersPerLogWrite, 3),
            Instances = figures.Instances.Select(i => new TuningInstance
            {
                Instance = $"Instance.{i.Index}", DatabaseReadLatencyMs = Math.Round(i.ReadLatencyMs, 3), LogWriteLatencyMs = Math.Round(i.LogWriteLatencyMs, 3),
                LogReadLatencyMs = Math.Round(i.LogReadLatencyMs, 3), ReadLatencySlopeMsPerSample = Math.Round(stable.SlopeOf(i.Index), 3),
            }).ToList(),
            Passed = passed, Note = note,
        });
        string targetText = target is double tt ? TestRunner.F($"{tt:0.###}") : "none, searching for the maximum";
        ctx.Log(TestRunner.F($"{Sessions(sessions)} {Wording.Noun(sessions, "has", "have")} actual {figures.Achieved:F1} IOPS (target IOPS: {targetText})."));
        foreach (var i in figures.Instances)
            ctx.Log(TestRunner.F($"Instance.{i.Index} has {i.ReadLatencyMs:F1} for I/O Database Reads Average Latency, {i.LogWriteLatencyMs:F1} for I/O Log Writes Average Latency, {i.LogReadLatencyMs:F1} for I/O Log Reads Average Latency; read latency slope {stable.SlopeOf(i.Index):F2} ms/sample."));
        // The step runs flat out: with several sessions per database committing at once, group commit folds their forced
        // commits into each log write, so its transfers per log write exceed the paced run's (docs/load-model.md).
        double perDatabase = (double)sessions / Math.Max(1, ctx.Instances.Count);
        ctx.Log(TestRunner.F($"Operation mix: Sessions {sessions}, Inserts {s.InsertPercent}%, Deletes {s.DeletePercent}%, Replaces {s.ReplacePercent}%, Reads {s.ReadPercent}%, Lazy Commits {s.LazyCommitPercent}%; at this step's flat-out rate ({perDatabase:0.#} sessions per database committing together) database reads per write {figures.ReadsPerWrite:F2}, database transfers per log write {figures.TransfersPerLogWrite:F1}."));
        ctx.Log($"{Sessions(sessions)}: {note}.");
        return new Trial(sessions, figures.Achieved, latencyOk, phase.Driver.StoppedByError);
    }
}
