using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Automatic thread (session) tuning, Jetstress-style: each candidate runs a transient phase
/// (until the read-latency slope settles or its time is up) and a stable phase that is judged.
/// Profile mode picks the smallest count that meets the target IOPS within the thresholds;
/// Throughput mode steps up and keeps the largest count that still passes. Every step is logged.
/// The whole search is time-bounded: ~3 minutes by default, less for short tests.
/// </summary>
internal static class Tuner
{
    public static int Tune(RunContext ctx) => Search(ctx, maximise: false);

    public static int FindMaximum(RunContext ctx) => Search(ctx, maximise: true);

    private static int Search(RunContext ctx, bool maximise)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        ctx.BeginPhase("Tuning");
        double budget = Math.Clamp(plan.DurationSeconds, 12, 180);
        double step = Math.Clamp(budget / 5, 3, 45);
        double interval = Math.Clamp(step / 8, 0.5, plan.SampleIntervalSeconds);
        var deadline = DateTime.UtcNow.AddSeconds(budget + step);
        int sessions = Math.Max(1, plan.Instances.Count);
        int best = -1, lastTried = sessions;
        string why = "";
        ctx.Log(maximise ? "Searching for the maximum thread count that passes the thresholds ..." : $"Tuning thread count for {plan.TargetIops:F1} target IOPS ...");
        while (!ctx.Cancel.IsCancellationRequested && sessions <= 1024)
        {
            lastTried = sessions;
            var (achieved, readLat, readMax, logLat, logMax) = Trial(ctx, sessions, step, interval);
            var t = plan.Thresholds;
            bool latencyOk = readLat <= t.AverageDatabaseReadLatencyMs && readMax <= t.MaximumDatabaseReadLatencyMs
                && logLat <= t.AverageLogWriteLatencyMs && logMax <= t.MaximumLogWriteLatencyMs;
            bool iopsOk = maximise || achieved >= plan.TargetIops;
            bool passed = latencyOk && iopsOk && achieved > 0;
            string note = passed ? "meets the goals" : !latencyOk ? "latency above the thresholds" : "achieved IOPS below the target";
            r.TuningLog.Add(new TuningStep { TimeUtc = DateTime.UtcNow, ThreadCount = sessions, Phase = "Stable", AchievedIops = Math.Round(achieved, 3), DatabaseReadLatencyMs = Math.Round(readLat, 3), LogWriteLatencyMs = Math.Round(logLat, 3), Passed = passed, Note = note });
            ctx.Log(TestRunner.F($"Tuning: {sessions} sessions achieved {achieved:F1} IOPS, DB read {readLat:F1} ms (max sample {readMax:F1}), log write {logLat:F1} ms: {note}."));
            ctx.Events.Progress("Tuning", Math.Min(99, 100 * (1 - (deadline - DateTime.UtcNow).TotalSeconds / (budget + step))), Math.Max(0, (deadline - DateTime.UtcNow).TotalSeconds), TestRunner.F($"{sessions} sessions: {achieved:F0} IOPS, DB read {readLat:F1} ms"));
            if (passed) best = sessions;
            if (!maximise && passed) break;
            if (!latencyOk) { why = "latencies exceed the thresholds"; break; }
            if (DateTime.UtcNow.AddSeconds(step) > deadline) { why = "the tuning time ran out"; break; }
            sessions *= 2;
        }
        if (ctx.Cancel.IsCancellationRequested) { r.TuningOutcome = "Failed"; return Math.Max(best, lastTried); }
        if (best > 0)
        {
            r.TuningOutcome = "Succeeded";
            ctx.Log($"Tuning chose {best} sessions.");
            return best;
        }
        r.TuningOutcome = "Failed";
        int fallback = maximise ? Math.Max(1, plan.Instances.Count) : lastTried;
        ctx.Log($"Tuning failed ({why}); continuing with {fallback} sessions.");
        return fallback;
    }

    private static (double Achieved, double ReadLat, double ReadMax, double LogLat, double LogMax) Trial(RunContext ctx, int sessions, double seconds, double interval)
    {
        var plan = ctx.Plan;
        var options = new PhaseOptions(sessions, null, true, plan.Profile.BackgroundMaintenance, plan.Profile.CopiesPerDatabase > 1, false);
        using var phase = new LoadPhase(ctx, options);
        phase.Start();
        // Transient: until the read-latency slope settles (< 5 ms per sample, as Jetstress) or a third of the step.
        double prev = double.NaN;
        int settled = 0;
        phase.Run(seconds / 3, interval, "Tuning", null, samples =>
        {
            double sum = 0; long n = 0;
            foreach (var s in samples) if (s.StreamId >= 0 && s.Operations > 0 && phase.Driver.Keys[s.StreamId].Stream == StreamNames.DatabaseRead) { sum += s.AverageLatencyMs * s.Operations; n += s.Operations; }
            double lat = n > 0 ? sum / n : 0;
            if (!double.IsNaN(prev) && Math.Abs(lat - prev) < 5) settled++;
            prev = lat;
        });
        ctx.Results.TuningLog.Add(new TuningStep { TimeUtc = DateTime.UtcNow, ThreadCount = sessions, Phase = "Transient", DatabaseReadLatencyMs = double.IsNaN(prev) ? 0 : Math.Round(prev, 3), Note = settled > 0 ? "latency slope settled" : "slope not yet settled" });
        phase.BeginMeasuring();
        phase.Run(seconds * 2 / 3, interval, "Tuning", null);
        // Tuning samples are not part of the measured window's time series.
        ctx.Results.TimeSeries.Clear();
        ctx.Results.InstanceSeries.Clear();
        phase.Stop();
        double achieved = 0, readSum = 0, logSum = 0, readMax = 0, logMax = 0;
        long reads = 0, logs = 0;
        foreach (var (_, s) in phase.StreamResults())
        {
            if (s.Stream is StreamNames.DatabaseRead or StreamNames.DatabaseWrite) achieved += s.OperationsPerSecond;
            if (s.Stream == StreamNames.DatabaseRead) { readSum += s.LatencyMs.Mean * s.Operations; reads += s.Operations; readMax = Math.Max(readMax, s.MaxSampleAverageLatencyMs); }
            if (s.Stream == StreamNames.LogWrite) { logSum += s.LatencyMs.Mean * s.Operations; logs += s.Operations; logMax = Math.Max(logMax, s.MaxSampleAverageLatencyMs); }
        }
        return (achieved, reads > 0 ? readSum / reads : 0, readMax, logs > 0 ? logSum / logs : 0, logMax);
    }
}
