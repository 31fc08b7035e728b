using System.Text.Json;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>A span of the measured window left out of the steady state: its seconds widened to whole samples, its instants exact.</summary>
/// <param name="FromSeconds">Seconds into the measured window, at a sample edge (<see cref="Analysis.SampleBoundaries"/>).</param>
/// <param name="ToSeconds">The span's end, at a sample edge (excluded).</param>
/// <param name="FromUtc">The exact instants: I/O errors, stalls and system-log events in [FromUtc, ToUtc) are left out.</param>
/// <param name="ToUtc">The span's last instant (excluded).</param>
public sealed record ExcludedSpan(double FromSeconds, double ToSeconds, DateTime FromUtc, DateTime ToUtc)
{
    public bool HoldsSecond(double seconds) => seconds >= FromSeconds && seconds < ToSeconds;
    public bool HoldsInstant(DateTime utc) => utc >= FromUtc && utc < ToUtc;
}

/// <summary>
/// The steady state of a run: a copy of its results whose figures the Exchange rules read are those of the measured window
/// without the spans left out (a fault window, the seconds outside a judged sub-window), computed from the stored interval
/// samples — a stream's operations, its operations-weighted mean latency, its highest sample average and its rate over
/// the seconds kept; the achieved transactional IOPS; each database's page fault stalls — and the I/O errors, stalls
/// and system-log events outside them. <see cref="VerdictJudge"/> judges it unchanged, so a live judgement and a
/// re-judgement of the same window give the same figures: this one function makes them.
/// <para>A sample covers (the previous sample's elapsed seconds, its own]; it is left out when its middle lies in a span
/// (spans lie on sample edges, so a sample is wholly in or out). A stream with no interval samples keeps its figures.</para>
/// </summary>
public static class SteadyStateView
{
    public static TestResults Of(TestResults r, IReadOnlyList<ExcludedSpan> excluded)
    {
        var v = Copy(r);
        bool Out(double middle) => excluded.Any(x => x.HoldsSecond(middle));
        bool OutAt(DateTime utc) => excluded.Any(x => x.HoldsInstant(utc));

        foreach (var series in r.TimeSeries.GroupBy(p => (p.Instance, p.Stream)))
        {
            if (v.Instances.Find(i => i.Index == series.Key.Instance)?.Stream(series.Key.Stream) is not { } stream) continue;
            double previous = 0, seconds = 0, operations = 0, latency = 0, bytes = 0, highest = 0;
            foreach (var p in series.OrderBy(p => p.ElapsedSeconds))
            {
                double length = p.ElapsedSeconds - previous, middle = previous + length / 2;
                previous = p.ElapsedSeconds;
                if (length <= 0 || Out(middle)) continue;
                double n = p.OperationsPerSecond * length;
                seconds += length;
                operations += n;
                latency += n * p.AverageLatencyMs;
                bytes += n * p.AverageBytes;
                if (n > 0 && p.AverageLatencyMs > highest) highest = p.AverageLatencyMs;
            }
            stream.Operations = (long)Math.Round(operations);
            stream.Bytes = (long)Math.Round(bytes);
            stream.DurationSeconds = Math.Round(seconds, 3);
            stream.OperationsPerSecond = seconds > 0 ? operations / seconds : 0;
            stream.AverageBytes = operations > 0 ? bytes / operations : 0;
            stream.LatencyMs.Mean = operations > 0 ? latency / operations : 0;
            stream.MaxSampleAverageLatencyMs = highest;
        }
        foreach (var series in r.InstanceSeries.GroupBy(p => p.Instance))
        {
            if (v.Instances.Find(i => i.Index == series.Key) is not { } inst) continue;
            double previous = 0, seconds = 0, stalls = 0, highest = 0;
            int above = 0;
            foreach (var p in series.OrderBy(p => p.ElapsedSeconds))
            {
                double length = p.ElapsedSeconds - previous, middle = previous + length / 2;
                previous = p.ElapsedSeconds;
                if (length <= 0 || Out(middle)) continue;
                seconds += length;
                stalls += p.PageFaultStallsPerSecond * length;
                highest = Math.Max(highest, p.PageFaultStallsPerSecond);
                if (p.PageFaultStallsPerSecond > 0) above++;
            }
            inst.PageFaultStallsPerSecond = seconds > 0 ? stalls / seconds : 0;
            inst.MaximumPageFaultStallsPerSecond = highest;
            inst.PageFaultStallSamplesAboveZero = above;
        }
        v.Sizing.AchievedTransactionalIops = Math.Round(TransactionalIops.Achieved(v), 3);

        // Errors: the records in a span leave it, and their counts leave their streams (records beyond the stored cap stay counted).
        var left = r.Errors.Where(e => OutAt(e.TimeUtc)).ToList();
        v.Errors = r.Errors.Where(e => !OutAt(e.TimeUtc)).ToList();
        foreach (var inst in v.Instances)
            foreach (var s in inst.Streams)
                s.ErrorCount = Math.Max(0, s.ErrorCount - left.Count(e => e.Instance == inst.Name && e.Stream == s.Stream));
        if (v.SystemLog is { } log) log.Events = log.Events.Where(e => !OutAt(e.TimeUtc)).ToList();
        if (v.FailureMode is { } fm) fm.Stalls = fm.Stalls.Where(s => !OutAt(s.StartUtc)).ToList();
        return v;
    }

    /// <summary>A deep copy (through the results file's own form), so the view never changes the run's document.</summary>
    public static TestResults Copy(TestResults r)
    {
        var copy = JsonSerializer.Deserialize<TestResults>(JsonSerializer.SerializeToUtf8Bytes(r, ResultsFile.Options), ResultsFile.Options)!;
        copy.SavedPath = r.SavedPath;
        return copy;
    }
}
