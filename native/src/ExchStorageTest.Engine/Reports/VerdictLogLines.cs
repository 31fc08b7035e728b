using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The Jetstress-style test-log lines that state the verdict inputs ("Instance.1 has 16.7 for I/O
/// Database Reads Average Latency."), for the engine to append to <see cref="TestResults.TestLog"/>
/// when it creates the report. Pure: the caller decides the time stamp.
/// </summary>
public static class VerdictLogLines
{
    public static IReadOnlyList<TestLogLine> For(TestResults results, DateTime timeUtc)
    {
        var lines = new List<TestLogLine>();
        void Add(string message) => lines.Add(new TestLogLine { TimeUtc = timeUtc, Message = message });

        var counters = InstanceCounters.From(results);
        foreach (var row in counters.Total)
        {
            Add($"{row.Instance} has {JetFormat.Number(row.DatabaseReadsAverageLatencyMs, 1)} for I/O Database Reads Average Latency.");
            Add($"{row.Instance} has {JetFormat.Number(row.LogWritesAverageLatencyMs, 1)} for I/O Log Writes Average Latency.");
            Add($"{row.Instance} has {JetFormat.Number(row.LogReadsAverageLatencyMs, 1)} for I/O Log Reads Average Latency.");
        }
        double maxStalls = results.Instances.Count == 0 ? 0 : results.Instances.Max(i => i.MaximumPageFaultStallsPerSecond);
        Add($"Test has {JetFormat.Number(maxStalls, maxStalls == Math.Floor(maxStalls) ? 0 : 3)} Maximum Database Page Fault Stalls/sec.");
        int samples = results.TimeSeries.Select(p => p.TimeUtc).Distinct().Count();
        Add($"The performance log has {Wording.Count(samples, "sample")} (interval: {JetFormat.Number(results.Settings.SampleIntervalSeconds * 1000, 0)} ms).");
        return lines;
    }
}
