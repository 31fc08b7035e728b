namespace ExchStorageTest.Engine.Results;

/// <summary>One instance over one sample interval: the ESE counters that are not per-stream I/O.</summary>
public sealed class InstanceSample
{
    public DateTime TimeUtc { get; set; }
    public double ElapsedSeconds { get; set; }
    public int Instance { get; set; }
    public double PageFaultStallsPerSecond { get; set; }
    public long DatabaseCacheSizeBytes { get; set; }
    /// <summary>Mean wait of the stalled page faults that got a buffer in the interval, ms (0 when none): see <see cref="Workload.FlushEvidence"/>.</summary>
    public double PageFaultStallWaitMs { get; set; }
    /// <summary>The scavenger's backlog, buffers short of its stop threshold, averaged over the interval.</summary>
    public double FlushBacklogPages { get; set; }
    /// <summary>The scavenger's dirty-page writes in flight averaged over the interval (the limit: the results' settings.maxFlushesInFlight).</summary>
    public double FlushWritesInFlight { get; set; }
    /// <summary>The scavenger's pool target as sized to the load at the sample (<see cref="Workload.FlushSizing"/>).</summary>
    public int FlushPoolTargetPages { get; set; }
}
