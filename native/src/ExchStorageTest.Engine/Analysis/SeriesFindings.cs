using System.Globalization;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// The run's series judged for sustained steps (<see cref="ChangePoints"/>) and settling (<see cref="SteadyState"/>):
/// the whole run's transactional IOPS (database reads + writes per second, every instance) and its
/// database read and log write latencies (rate-weighted over the instances) — the "All instances" lines
/// of the HTML report's charts. Pure: a function of <see cref="TestResults.TimeSeries"/>.
/// </summary>
public static class SeriesFindings
{
    public const string TransactionalIops = "TransactionalIops";
    public const string DatabaseReadLatency = "DatabaseReadLatency";
    public const string LogWriteLatency = "LogWriteLatency";

    /// <summary>What an adverse step usually is; the test log, reports and chart captions say it after the numbers.</summary>
    public const string AdverseCauses = "burst credits, cache exhaustion or throttling";

    /// <summary>The analysis of <paramref name="r"/>'s measured window; null when no series had enough samples to judge.</summary>
    public static SeriesAnalysis? Of(TestResults r)
    {
        if (r.TimeSeries.Count == 0) return null;
        var total = ResultsMerge.AlignTimeSeries(new[] { r });
        double interval = r.Settings.SampleIntervalSeconds > 0 ? r.Settings.SampleIntervalSeconds : 15;
        long slotTicks = Math.Max(1, (long)Math.Round(interval * TimeSpan.TicksPerSecond));
        long Slot(DateTime t) => (long)Math.Round(t.Ticks / (double)slotTicks, MidpointRounding.AwayFromZero);

        var iops = new SortedDictionary<long, (DateTime Time, double Value)>();
        var reads = new List<(DateTime, double)>();
        var logWrites = new List<(DateTime, double)>();
        foreach (var p in total)
        {
            if (p.Stream is StreamNames.DatabaseRead or StreamNames.DatabaseWrite)
            {
                long slot = Slot(p.TimeUtc);
                iops[slot] = iops.TryGetValue(slot, out var sum) ? (sum.Time, sum.Value + p.OperationsPerSecond) : (p.TimeUtc, p.OperationsPerSecond);
            }
            // A sample with no I/O of the stream has no latency (not a latency of 0).
            if (p.OperationsPerSecond <= 0) continue;
            if (p.Stream == StreamNames.DatabaseRead) reads.Add((p.TimeUtc, p.AverageLatencyMs));
            else if (p.Stream == StreamNames.LogWrite) logWrites.Add((p.TimeUtc, p.AverageLatencyMs));
        }
        var first = total.Count > 0 ? total.Min(p => p.TimeUtc) : DateTime.MinValue;
        var origin = r.Timeline.CollectionStartUtc ?? first.AddSeconds(-interval);
        var end = r.Timeline.CollectionEndUtc ?? total.Max(p => p.TimeUtc);

        // Each series against the rule it concerns: a change too small to move a verdict is not a finding.
        var limits = r.Settings.Thresholds;
        var analysis = new SeriesAnalysis();
        Judge(analysis, TransactionalIops, "IOPS", higherIsBetter: true, iops.Values.Select(v => (v.Time, v.Value)).ToList(), origin, end, interval,
            RuleFloor.Iops(r.Sizing.TargetTransactionalIops));
        Judge(analysis, DatabaseReadLatency, "ms", higherIsBetter: false, reads, origin, end, interval, RuleFloor.LatencyMs(StreamNames.DatabaseRead, limits));
        Judge(analysis, LogWriteLatency, "ms", higherIsBetter: false, logWrites, origin, end, interval, RuleFloor.LatencyMs(StreamNames.LogWrite, limits));
        if (analysis.Series.Count == 0) return null;
        analysis.Steps.Sort((a, b) => a.TimeUtc.CompareTo(b.TimeUtc));
        return analysis;
    }

    /// <summary>The findings' lines for the test log, steps first (adverse ones are warnings).</summary>
    public static IEnumerable<(bool Warning, string Message)> LogLines(SeriesAnalysis? a)
    {
        if (a is null) yield break;
        foreach (var s in a.Steps) yield return (s.Adverse, s.Message);
        foreach (var s in a.Series) if (s.Message is not null) yield return (false, s.Message);
    }

    /// <summary>How a series is named in words ("Transactional IOPS", "Database read latency").</summary>
    public static string Title(string series) => series switch
    {
        TransactionalIops => "Transactional IOPS",
        DatabaseReadLatency => "Database read latency",
        LogWriteLatency => "Log write latency",
        _ => series,
    };

    private static void Judge(SeriesAnalysis analysis, string name, string unit, bool higherIsBetter, List<(DateTime Time, double Value)> points,
        DateTime origin, DateTime end, double interval, double floor)
    {
        if (points.Count < ChangePoints.MinimumSamples) return;
        var values = points.Select(p => p.Value).ToArray();
        double At(int index) => Math.Max(0, ((index == 0 ? points[0].Time.AddSeconds(-interval) : points[index - 1].Time) - origin).TotalSeconds);
        double window = Math.Max(interval, (end - origin).TotalSeconds);

        foreach (var step in ChangePoints.Find(values, interval, floor))
        {
            double change = step.RelativeChange * 100;
            bool fell = step.After < step.Before;
            bool adverse = higherIsBetter ? fell : !fell;
            bool stayed = step.End == values.Length;
            double at = At(step.Index);
            double lasted = (stayed ? window : At(step.End)) - at;
            string size = $"{(fell ? "fell" : "rose")} {Math.Abs(change).ToString("N0", CultureInfo.InvariantCulture)}%";
            string message = $"{Title(name)} {size} ({Number(step.Before)} to {Number(step.After)} {unit}) at {JetFormat.Elapsed(at)} into the measured window and "
                + (stayed ? "stayed" : $"held for {JetFormat.Elapsed(lasted)}") + (adverse ? ": " + AdverseCauses + "." : ".");
            analysis.Steps.Add(new SeriesStep
            {
                Series = name, Unit = unit, TimeUtc = origin.AddSeconds(at), AtSeconds = Math.Round(at, 3),
                Before = Math.Round(step.Before, 3), After = Math.Round(step.After, 3), ChangePercent = Math.Round(change, 1),
                Adverse = adverse, Stayed = stayed, LastedSeconds = Math.Round(lasted, 3), Message = message,
            });
        }

        var settling = SteadyState.Of(values, interval, floor);
        // Steady from the first sample is steady from the window's start (not from the first sample's small offset).
        double? settledAt = settling.SettledIndex switch { 0 => 0, int i => Math.Round(At(i), 3), null => null };
        double share = settledAt is double s ? Math.Min(1, s / window) : 1;
        string? note = settling.SettledIndex switch
        {
            0 => null,
            null => $"{Title(name)} never settled: its last samples still moved more than {Number(settling.Tolerance)} {unit} from its final level ({Number(settling.Level)} {unit}).",
            _ => $"{Title(name)} settled at {JetFormat.Elapsed(settledAt!.Value)} into the measured window, at {Number(settling.Level)} {unit}: the first {Number(share * 100)}% of the window was transient.",
        };
        analysis.Series.Add(new SeriesSettling
        {
            Series = name, Unit = unit, Samples = values.Length, Mean = Math.Round(values.Average(), 3), Noise = Math.Round(ChangePoints.Noise(values), 3), Floor = Math.Round(floor, 3),
            SettledLevel = Math.Round(settling.Level, 3), SettledAtSeconds = settledAt, TransientShare = Math.Round(share, 3), Message = note,
        });
    }

    private static string Number(double v) => v.ToString(Math.Abs(v) >= 100 ? "N0" : Math.Abs(v) >= 10 ? "0.#" : "0.##", CultureInfo.InvariantCulture);
}
