using ExchStorageTest.Engine.Metrics;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// Everything measured for one stream id on one worker. The worker writes it while holding its
/// metrics lock (taken once per completion batch, not per I/O); the sampler reads and resets the
/// interval part under the same lock. Window figures count only while accounting is on.
/// </summary>
internal sealed class StreamMetrics
{
    // Measured window (merged across workers at the end).
    public readonly LatencyHistogram Window = new();
    public readonly LatencyHistogram Scheduled = new();
    public long Bytes;
    public long Errors;
    public long LateIssues;
    public long MaxLagTicks;
    /// <summary>Sum of in-flight count x elapsed ticks over the window: mean queue depth = area / window.</summary>
    public double QueueDepthArea;

    // Current sample interval (reset by the sampler).
    public readonly LatencyHistogram Interval = new();
    public long IntervalBytes;

    public bool HasScheduled => Scheduled.Count > 0;

    public void Record(long latencyNs, long scheduledNs, int bytes, bool accounting)
    {
        Interval.Record(latencyNs);
        IntervalBytes += bytes;
        if (!accounting) return;
        Window.Record(latencyNs);
        if (scheduledNs >= 0) Scheduled.Record(scheduledNs);
        Bytes += bytes;
    }
}
