using ExchStorageTest.Contract;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// The figures of a fault window (docs/failure-mode.md), a pure function of the results document: per volume its
/// pre-fault baseline, its longest stall in the window, the I/O errors the engine saw there, the I/O it did not do, and
/// when it was back; then the window's totals. The rules that judge them are <see cref="Verdict.FailureModeJudge"/>'s.
/// <para>
/// Seconds are the volume series' whole seconds (<see cref="VolumeSecond.ElapsedSeconds"/>, its start): the window's
/// seconds run from the one the fault starts in to the one it ends in; the baseline is the seconds before, at most
/// <see cref="FaultRules.BaselineSeconds"/>. A second with no record had no completions (0 I/O per second). Instants
/// (stalls, errors, system-log events) are in the window when they fall in [start, end) of its UTC instants.
/// </para>
/// </summary>
public static class FaultAnalysis
{
    public static FaultJudgement Of(TestResults r, FaultWindow window, Thresholds t)
    {
        var fm = r.FailureMode ?? new FailureModeResult();
        var j = new FaultJudgement();
        (j.ExcludedFromSeconds, j.ExcludedToSeconds) = SampleBoundaries.Widen(r, window.AtSeconds, window.AtSeconds + window.LengthSeconds);
        var stalls = fm.Stalls.Where(s => In(window, s.StartUtc)).ToList();
        var errors = r.Errors.Where(e => In(window, e.TimeUtc)).ToList();
        var series = new Dictionary<string, Dictionary<long, VolumeSecond>>(StringComparer.Ordinal);
        foreach (var s in fm.VolumeSeries)
        {
            if (!series.TryGetValue(s.Volume, out var seconds)) series[s.Volume] = seconds = new Dictionary<long, VolumeSecond>();
            seconds[Second(s.ElapsedSeconds)] = s;
        }
        var logOnly = VolumeRoles.LogOnly(r);
        var names = new SortedSet<string>(series.Keys, StringComparer.Ordinal);
        foreach (var s in stalls) names.Add(s.Volume);
        foreach (var e in errors) names.Add(VolumeNames.Of(r, e));
        foreach (string name in names)
        {
            var seconds = series.TryGetValue(name, out var found) ? found : new Dictionary<long, VolumeSecond>();
            j.Volumes.Add(Volume(name, seconds, stalls.Where(s => s.Volume == name).ToList(), errors.Where(e => VolumeNames.Of(r, e) == name).ToList(),
                window, logOnly.Contains(name), t));
        }
        foreach (var v in j.Volumes)
            if (fm.Multipath.Find(m => m.Volume == v.Volume) is { } paths) (v.MultipathBefore, v.MultipathAfter) = (paths.Before, paths.After);
        if (j.Volumes.Where(v => v.LongestStallSeconds > 0).MaxBy(v => v.LongestStallSeconds) is { } longest)
        {
            j.LongestStallSeconds = longest.LongestStallSeconds;
            j.LongestStallVolume = longest.Volume;
        }
        // The window is back when its slowest volume is; a volume with no I/O before the fault has nothing to be back to.
        var judged = j.Volumes.Where(Judged).ToList();
        j.RecoverySeconds = judged.Count == 0 || judged.Any(v => v.RecoverySeconds is null) ? null : judged.Max(v => v.RecoverySeconds);
        j.IoErrors = j.Volumes.Sum(v => v.IoErrors);
        // The storage stack's own account of the window: errors on the test's devices (retries, path failovers the application may never see).
        j.SystemLogEvents = r.SystemLog?.Events.Count(e => e.Judged && In(window, e.TimeUtc)) ?? 0;
        return j;
    }

    /// <summary>Whether a volume's recovery is judged: it did I/O before the fault.</summary>
    public static bool Judged(FaultVolume v) => v.BaselineIops > 0;

    /// <summary>An instant inside [start, end) of the window.</summary>
    public static bool In(FaultWindow window, DateTime utc) => utc >= window.StartUtc && utc < window.EndUtc;

    private static long Second(double elapsedSeconds) => (long)Math.Floor(elapsedSeconds + 1e-6);

    private static FaultVolume Volume(string name, Dictionary<long, VolumeSecond> seconds, List<StallRecord> stalls, List<IoErrorRecord> errors,
        FaultWindow window, bool logVolume, Thresholds t)
    {
        long first = Second(window.AtSeconds);
        long end = (long)Math.Ceiling(window.AtSeconds + window.LengthSeconds - 1e-6);
        long baselineFrom = Math.Max(0, first - (long)FaultRules.BaselineSeconds);
        var v = new FaultVolume { Volume = name };

        long baselineOps = 0;
        double baselineLatency = 0;
        for (long s = baselineFrom; s < first; s++)
            if (seconds.TryGetValue(s, out var x)) { baselineOps += x.Operations; baselineLatency += x.Operations * x.AverageLatencyMs; }
        long baselineSeconds = first - baselineFrom;
        v.BaselineIops = baselineSeconds > 0 ? Round((double)baselineOps / baselineSeconds) : 0;
        v.BaselineLatencyMs = baselineOps > 0 ? Round(baselineLatency / baselineOps) : 0;

        if (stalls.MaxBy(s => s.LengthSeconds) is { } longest)
        {
            v.LongestStallSeconds = longest.LengthSeconds;
            v.LongestStallStartUtc = longest.StartUtc;
            v.InFlightThroughStall = longest.InFlight;
        }
        double longestIo = stalls.Count == 0 ? 0 : stalls.Max(s => s.LongestIoMs);
        long seriesErrors = 0;
        for (long s = first; s < end; s++)
            if (seconds.TryGetValue(s, out var x)) { longestIo = Math.Max(longestIo, x.MaxLatencyMs); seriesErrors += x.Errors; }
        v.LongestIoMs = Round(longestIo);
        // The error records are capped per run; the series counts every error of each second.
        v.IoErrors = Math.Max(errors.Count, seriesErrors);
        v.ErrorNames = errors.Select(e => e.ErrorName).Where(n => n.Length > 0).Distinct(StringComparer.Ordinal).OrderBy(n => n, StringComparer.Ordinal).ToList();

        long? back = v.BaselineIops > 0 ? Recovered(seconds, stalls, first, end, v, logVolume, t) : null;
        if (back is long at) v.RecoverySeconds = Round(Math.Max(0, at - window.AtSeconds));
        double lost = 0;
        for (long s = first; s < (back ?? end); s++)
            lost += Math.Max(0, v.BaselineIops - (seconds.TryGetValue(s, out var x) ? x.Operations : 0));
        v.IopsLost = Round(lost);
        return v;
    }

    /// <summary>
    /// The first second of the first run of <see cref="FaultRules.RecoverySamples"/> seconds inside the window whose joint
    /// mean is back: I/O per second at least <see cref="FaultRules.RecoveredIopsShare"/> of the baseline, mean latency
    /// within <see cref="FaultRules.RecoveredLatencyFactor"/> times the baseline's (or the baseline plus the rule's noise
    /// floor, <see cref="RuleFloor"/>, when that is more) and within the volume's rule. The search starts after the
    /// volume's last stall in the window ends: a volume is not back while it is stalled, whenever the stall began.
    /// Null when the window ends first.
    /// </summary>
    private static long? Recovered(Dictionary<long, VolumeSecond> seconds, List<StallRecord> stalls, long first, long end, FaultVolume v, bool logVolume, Thresholds t)
    {
        int n = FaultRules.RecoverySamples;
        double latencyBound = Math.Min(VolumeRoles.AverageLimitMs(logVolume, t),
            Math.Max(FaultRules.RecoveredLatencyFactor * v.BaselineLatencyMs, v.BaselineLatencyMs + RuleFloor.LatencyMs(VolumeRoles.RuleStream(logVolume), t)));
        long from = first;
        foreach (var s in stalls) from = Math.Max(from, (long)Math.Ceiling(s.StartSeconds + s.LengthSeconds - 1e-6));
        for (long start = from; start + n <= end; start++)
        {
            long ops = 0;
            double latency = 0;
            for (long s = start; s < start + n; s++)
                if (seconds.TryGetValue(s, out var x)) { ops += x.Operations; latency += x.Operations * x.AverageLatencyMs; }
            if (ops == 0) continue;
            if ((double)ops / n >= FaultRules.RecoveredIopsShare * v.BaselineIops && latency / ops <= latencyBound) return start;
        }
        return null;
    }

    private static double Round(double x) => Math.Round(x, 3);
}
