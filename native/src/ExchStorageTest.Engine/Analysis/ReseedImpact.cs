using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// What a reseed did to the active copies (docs/failure-mode.md): per volume of the run, from its one-second series, the
/// I/O and operation-weighted mean latency of the pre-fault baseline (<see cref="FaultRules.BaselineSeconds"/> before the
/// window) against the seconds the seed ran. The seed's own I/O is not in the series (it is the engine's, not the
/// application's), so this is the latency the users' copies saw. Pure.
/// </summary>
public static class ReseedImpact
{
    public static List<ReseedVolumeImpact> Of(IReadOnlyList<VolumeSecond> series, FaultWindow window, ReseedRun seed)
    {
        // Whole seconds, as the series holds them: the baseline as the fault's judgement reads it, the seed's from the
        // second it began in to the one it ended in. A second with no entry completed nothing: it counts, at 0 IOPS.
        double baselineTo = Math.Floor(window.AtSeconds), baselineFrom = Math.Max(0, baselineTo - FaultRules.BaselineSeconds);
        double from = Math.Floor(seed.StartSeconds), to = Math.Max(from + 1, Math.Ceiling(seed.StartSeconds + seed.Seconds));
        var impacts = new List<ReseedVolumeImpact>();
        foreach (var volume in series.GroupBy(s => s.Volume).OrderBy(g => g.Key == seed.SourceVolume ? 0 : 1).ThenBy(g => g.Key, StringComparer.Ordinal))
        {
            var (baseIops, baseMs) = Mean(volume.Where(s => s.ElapsedSeconds >= baselineFrom && s.ElapsedSeconds < baselineTo), baselineTo - baselineFrom);
            var (iops, ms) = Mean(volume.Where(s => s.ElapsedSeconds >= from && s.ElapsedSeconds < to), to - from);
            impacts.Add(new ReseedVolumeImpact
            {
                Volume = volume.Key,
                Role = volume.Key == seed.SourceVolume ? "Source" : "Other",
                BaselineIops = Math.Round(baseIops, 1),
                BaselineLatencyMs = Math.Round(baseMs, 3),
                ReseedIops = Math.Round(iops, 1),
                ReseedLatencyMs = Math.Round(ms, 3),
                LatencyChangePercent = baseMs > 0 && iops > 0 ? Math.Round((ms / baseMs - 1) * 100, 1) : null,
            });
        }
        return impacts;
    }

    /// <summary>"reseeded 1,907.3 of 1,907.3 MB in 16.0 s at 119.2 MB/s (target 119.2 MB/s), complete": what the seed did, in words.</summary>
    public static string Line(ReseedRun seed)
    {
        string how = seed.EndedBy switch
        {
            "Completed" => "complete",
            "WindowEnded" => "not complete when the fault window ended",
            "RunEnded" => "not complete when the run ended",
            "Error" => "stopped by an error",
            _ => "not started",
        };
        return F($"reseeded {seed.BytesSeeded / 1048576.0:N1} of {seed.BytesToCopy / 1048576.0:N1} MB in {seed.Seconds:0.0} s at {seed.AchievedMBPerSecond:0.0} MB/s (target {seed.TargetMBPerSecond:0.0} MB/s), {how}");
    }

    /// <summary>"/mnt/db (source): 9 ms before, 12 ms during the reseed (+33.3%), 150 to 141 IOPS": one volume's impact.</summary>
    public static string Line(ReseedVolumeImpact v) =>
        F($"{v.Volume} ({(v.Role == "Source" ? "the seed's source" : "another volume")}): {v.BaselineLatencyMs:0.###} ms in the baseline, {v.ReseedLatencyMs:0.###} ms during the reseed")
        + (v.LatencyChangePercent is double change ? F($" ({change:+0.#;-0.#;0}%)") : "")
        + F($", {v.BaselineIops:0.#} to {v.ReseedIops:0.#} IOPS");

    private static string F(FormattableString s) => s.ToString(System.Globalization.CultureInfo.InvariantCulture);

    /// <summary>I/O per second over <paramref name="span"/> seconds and the operation-weighted mean latency of the seconds; zero for none.</summary>
    private static (double Iops, double LatencyMs) Mean(IEnumerable<VolumeSecond> seconds, double span)
    {
        long ops = 0;
        double latency = 0;
        foreach (var s in seconds)
        {
            ops += s.Operations;
            latency += s.AverageLatencyMs * s.Operations;
        }
        return (span > 0 ? ops / span : 0, ops > 0 ? latency / ops : 0);
    }
}
