using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Load;

/// <summary>The measured-window figures of one stream, merged across workers.</summary>
public sealed class StreamTotals
{
    public StreamTotals(StreamKey key) => Key = key;
    public StreamKey Key { get; }
    public LatencyHistogram Latency { get; } = new();
    public LatencyHistogram Scheduled { get; } = new();
    public long Bytes;
    public long Errors;
    public long LateIssues;
    public double MaxLagMs;
    public double QueueDepthArea;
    public double MeanQueueDepth;
    public double WindowSeconds;
    public long Operations => Latency.Count;
    public double OperationsPerSecond => WindowSeconds > 0 ? Operations / WindowSeconds : 0;

    /// <summary>The stored form of these figures (the one conversion every run type uses).</summary>
    /// <param name="streamName">The name reported for the stream (defaults to the key's).</param>
    /// <param name="maxSampleAverageMs">Highest per-sample average latency seen, for the Jetstress maximum.</param>
    public StreamResult ToResult(string? streamName, double maxSampleAverageMs)
    {
        var r = new StreamResult
        {
            Stream = streamName ?? Key.Stream,
            Operation = Key.Operation.ToString(),
            Operations = Operations,
            Bytes = Bytes,
            ErrorCount = Errors,
            DurationSeconds = Math.Round(WindowSeconds, 3),
            OperationsPerSecond = OperationsPerSecond,
            AverageBytes = Operations > 0 ? (double)Bytes / Operations : 0,
            LatencyMs = HistogramMath.Summary(Latency),
            LateIssues = LateIssues,
            MaxScheduleLagMs = MaxLagMs,
            MeanQueueDepth = MeanQueueDepth,
            MaxSampleAverageLatencyMs = Math.Max(maxSampleAverageMs, 0),
            Histogram = HistogramMath.ToData(Latency),
        };
        if (Scheduled.Count > 0)
        {
            r.ScheduledLatencyMs = HistogramMath.Summary(Scheduled);
            r.ScheduledHistogram = HistogramMath.ToData(Scheduled);
        }
        return r;
    }
}
