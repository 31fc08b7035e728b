namespace ExchStorageTest.Engine.Results;

/// <summary>One instance over one sample interval: the ESE counters that are not per-stream I/O.</summary>
public sealed class InstanceSample
{
    public DateTime TimeUtc { get; set; }
    public double ElapsedSeconds { get; set; }
    public int Instance { get; set; }
    public double PageFaultStallsPerSecond { get; set; }
    public long DatabaseCacheSizeBytes { get; set; }
}
