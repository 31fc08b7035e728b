namespace ExchStorageTest.Engine.Results;

/// <summary>Counters, latency statistics and the merged histogram of one stream over the measured window.</summary>
public sealed class StreamResult
{
    public string Stream { get; set; } = "";
    public string Operation { get; set; } = "Read";
    public long Operations { get; set; }
    public long Bytes { get; set; }
    public long ErrorCount { get; set; }
    public double DurationSeconds { get; set; }
    public double OperationsPerSecond { get; set; }
    public double AverageBytes { get; set; }
    public LatencySummary LatencyMs { get; set; } = new();
    /// <summary>Open loop only: latency measured from the intended start (no coordinated omission).</summary>
    public LatencySummary? ScheduledLatencyMs { get; set; }
    public long LateIssues { get; set; }
    public double MaxScheduleLagMs { get; set; }
    public double MeanQueueDepth { get; set; }
    /// <summary>Highest per-sample average latency: the Jetstress "maximum" the thresholds judge.</summary>
    public double MaxSampleAverageLatencyMs { get; set; }
    public HistogramData Histogram { get; set; } = new();
    public HistogramData? ScheduledHistogram { get; set; }
}
