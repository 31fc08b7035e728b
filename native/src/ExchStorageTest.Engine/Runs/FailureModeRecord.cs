using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// What a load test's measured window records for failure-mode judgement (results <c>failureMode</c>, docs/failure-mode.md):
/// every stall the watch found in it, each volume's one-second series, the declared window and its script. Judged later,
/// with the rest of the results, by the one judgement a re-judgement uses too.
/// </summary>
internal static class FailureModeRecord
{
    /// <summary>A measured window up to this long keeps every second of every volume; a longer one the seconds around its events.</summary>
    private const double WholeSeriesSeconds = 3600;

    /// <summary>Around the fault window and each stall, the seconds kept in a longer window's series.</summary>
    private const double MarginSeconds = 30;

    /// <summary>Fills <c>failureMode</c> of the results from <paramref name="phase"/> after it stopped.</summary>
    public static void Collect(RunContext ctx, LoadPhase phase, FaultWindow? window, FaultScriptRun? script, ReseedRun? reseed = null)
    {
        var r = ctx.Results;
        var d = phase.Driver;
        double windowSeconds = d.AccountedSeconds;
        double tps = LoadDriver.TicksPerSecond;
        var seconds = d.TakeSeconds(all: true);
        var fm = new FailureModeResult
        {
            StallLimitSeconds = ctx.Plan.StallLimitSeconds,
            StallDetectSeconds = FaultRules.StallDetectSeconds,
            Window = window,
            Script = script,
        };
        foreach (var s in d.Stalls.OrderBy(s => s.StartTicks))
        {
            double start = (s.StartTicks - phase.WindowStartTicks) / tps;
            if (start < 0 || start >= windowSeconds) continue; // before or after the measured window
            long endSecond = (long)Math.Floor((s.EndTicks - phase.WindowStartTicks) / tps);
            double longest = 0;
            for (long k = endSecond; k <= endSecond + 1; k++)
                if (seconds.TryGetValue((s.Volume, k), out var sum)) longest = Math.Max(longest, sum.MaxLatencyNs / 1e6);
            fm.Stalls.Add(new StallRecord
            {
                Volume = phase.Volumes[s.Volume],
                StartUtc = d.UtcAt(s.StartTicks),
                StartSeconds = Math.Round(start, 3),
                LengthSeconds = Math.Round((s.EndTicks - s.StartTicks) / tps, 3),
                Ended = s.Ended,
                InFlight = s.InFlight,
                LongestIoMs = Math.Round(longest, 3),
                InFaultWindow = window is not null && start >= window.AtSeconds && start < window.AtSeconds + window.LengthSeconds,
            });
        }
        bool whole = windowSeconds <= WholeSeriesSeconds;
        fm.VolumeSeriesSpan = whole ? "Whole" : "AroundEvents";
        foreach (var ((volume, second), sum) in seconds.OrderBy(x => x.Key.Volume).ThenBy(x => x.Key.Second))
        {
            if (second < 0 || second >= Math.Ceiling(windowSeconds)) continue;
            if (!whole && !NearAnEvent(second, fm)) continue;
            fm.VolumeSeries.Add(new VolumeSecond
            {
                Volume = phase.Volumes[volume],
                ElapsedSeconds = second,
                Operations = sum.Operations,
                AverageLatencyMs = sum.Operations > 0 ? Math.Round(sum.LatencyNs / 1e6 / sum.Operations, 3) : 0,
                MaxLatencyMs = Math.Round(sum.MaxLatencyNs / 1e6, 3),
                Errors = sum.Errors,
            });
        }
        if (reseed is not null && window is not null)
        {
            reseed.Volumes = Analysis.ReseedImpact.Of(fm.VolumeSeries, window, reseed);
            fm.Reseed = reseed;
        }
        fm.Multipath = MultipathStates(r);
        r.FailureMode = fm;
    }

    /// <summary>
    /// Each multipath volume's paths before (the inspection before the load) and now, read again the same way: a failover
    /// that left a path failed, or a policy changed, shows here. Nothing when no volume is multipath (no tool is run).
    /// </summary>
    internal static List<VolumeMultipath> MultipathStates(TestResults r)
    {
        var before = r.Environment.Volumes.Where(v => v.Multipath is not null).ToList();
        if (before.Count == 0) return new List<VolumeMultipath>();
        List<VolumeReport> after;
        try { after = Inspection.InspectCommand.Run(before.Select(v => v.Path), new Inspection.VolumeCheckOptions { ProbeDirectIo = false }); }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or InvalidOperationException) { after = new List<VolumeReport>(); }
        return before.Select(v => new VolumeMultipath
        {
            Volume = VolumeNames.Of(r.Environment.Volumes, v.Path),
            Before = v.Multipath!.Describe(),
            After = after.FirstOrDefault(a => a.Path == v.Path)?.Multipath?.Describe(),
        }).GroupBy(m => m.Volume).Select(g => g.First()).ToList();
    }

    /// <summary>A second a longer window keeps: from the baseline before the fault window to a margin after it, or near a stall.</summary>
    private static bool NearAnEvent(long second, FailureModeResult fm)
    {
        if (fm.Window is { } w && second >= w.AtSeconds - FaultRules.BaselineSeconds && second <= w.AtSeconds + w.LengthSeconds + MarginSeconds) return true;
        foreach (var s in fm.Stalls)
            if (second >= s.StartSeconds - MarginSeconds && second <= s.StartSeconds + s.LengthSeconds + MarginSeconds) return true;
        return false;
    }
}
