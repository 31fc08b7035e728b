namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// A snapshot of one instance's flushing evidence counters (<see cref="InstanceWorkload.StallWaitTicks"/>,
/// <see cref="InstanceWorkload.StallsEnded"/>, <see cref="InstanceWorkload.FlushBacklogPageTicks"/>,
/// <see cref="InstanceWorkload.FlushWriteTicks"/>), and the figures between two snapshots that the results
/// carry per sample and per window (docs/results-schema.md: `pageFaultStallWaitMs`, `flushBacklogPages`,
/// `flushWritesInFlight`). With the DatabaseWrite stream's latency they tell the two kinds of Database Page
/// Fault Stalls apart. The storage's: the scavenger had a backlog and kept its writes in flight up to the
/// limit (<see cref="WorkloadShape.MaxFlushesInFlight"/>), and the writes took long. The host's: a backlog
/// with writes in flight well below the limit and short write latencies — the scavenger could have written
/// more and did not, because the worker that runs it did not get to (a busy or starved CPU).
/// </summary>
public readonly record struct FlushEvidence(long StallWaitTicks, long StallsEnded, long BacklogPageTicks, long WriteTicks, long Ticks)
{
    /// <summary>The counters as the worker has written them so far (read from another thread: each a 64-bit read).</summary>
    public static FlushEvidence Of(InstanceWorkload w, long nowTicks) =>
        new(Volatile.Read(ref w.StallWaitTicks), Volatile.Read(ref w.StallsEnded), Volatile.Read(ref w.FlushBacklogPageTicks), Volatile.Read(ref w.FlushWriteTicks), nowTicks);

    /// <summary>Mean wait, in milliseconds, of the stalled page faults that got a buffer since <paramref name="earlier"/> (0 when none did).</summary>
    public double StallWaitMsSince(in FlushEvidence earlier)
    {
        long stalls = StallsEnded - earlier.StallsEnded;
        return stalls <= 0 ? 0 : Math.Round((StallWaitTicks - earlier.StallWaitTicks) * 1000.0 / System.Diagnostics.Stopwatch.Frequency / stalls, 4);
    }

    /// <summary>The scavenger's backlog (buffers short of its stop threshold) averaged over the time since <paramref name="earlier"/>.</summary>
    public double BacklogPagesSince(in FlushEvidence earlier)
    {
        long ticks = Ticks - earlier.Ticks;
        return ticks <= 0 ? 0 : Math.Round((double)(BacklogPageTicks - earlier.BacklogPageTicks) / ticks, 2);
    }

    /// <summary>The dirty-page writes in flight averaged over the time since <paramref name="earlier"/>.</summary>
    public double WritesInFlightSince(in FlushEvidence earlier)
    {
        long ticks = Ticks - earlier.Ticks;
        return ticks <= 0 ? 0 : Math.Round((double)(WriteTicks - earlier.WriteTicks) / ticks, 2);
    }
}
