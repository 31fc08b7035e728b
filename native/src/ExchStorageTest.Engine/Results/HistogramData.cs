namespace ExchStorageTest.Engine.Results;

/// <summary>A latency histogram as stored: non-zero buckets of the engine's log-linear layout.</summary>
public sealed class HistogramData
{
    public string Layout { get; set; } = "log-linear-ns-sub7";
    public long Count { get; set; }
    public long SumNs { get; set; }
    public long MinNs { get; set; }
    public long MaxNs { get; set; }
    /// <summary>[bucketIndex, count] pairs.</summary>
    public List<long[]> Buckets { get; set; } = new();
}
