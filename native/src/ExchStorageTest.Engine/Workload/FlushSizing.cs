namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// Sizes the scavenger's pool of available buffers to the load, so the cache model's flushing keeps up with
/// what the storage can take. ESE's thresholds are ~1% and ~2% of the cache: in Jetstress's
/// gigabyte caches at hundreds of IOPS per database that is hundreds of pages, many write latencies of
/// demand. This model's cache is small (at most 1/32 of the database, so the hit ratio stays Jetstress's),
/// and a closed-loop run on fast storage asks for tens of thousands of buffers a second: 1% of a 1,024-page
/// cache is gone within one write latency, and every page fault that finds the pool empty is a Database
/// Page Fault Stall — on a RAM-backed volume, which cannot be slow. So the pool is also sized from what is
/// measured: how many buffers the sessions took while a dirty page's write was in flight (the most in each
/// few writes, smoothed: the typical write hides the tail that empties the pool), twice over (the scavenger
/// starts when the pool falls below it and stops at twice it, as ESE's stop threshold is twice its start).
/// Counted in buffers, not timed, so it needs no clock and a simulation gives the same answer every time.
/// At a profile's paced rate it is a page or two and the configured thresholds rule unchanged; the cache
/// caps it at an eighth of its buffers. Timed apart from that: the writes' recent average, which says whether the
/// storage writes quickly enough for the urgent write-back (<see cref="WorkloadShape.UrgentFlushesInFlight"/>).
/// Runs on the instance's worker thread, fed by <see cref="TransactionalSource"/>; no allocation.
/// </summary>
public sealed class FlushSizing
{
    /// <summary>Writes per measurement: the most any of them saw is one sample of the demand.</summary>
    private const int WritesPerWindow = 16;
    private const double Safety = 2.0;
    private const double Smoothing = 0.25;
    /// <summary>How often the backlog evidence is integrated.</summary>
    private static readonly long EvidenceTicks = System.Diagnostics.Stopwatch.Frequency / 200; // 5 ms

    private readonly CacheModel _cache;
    private readonly long[] _allocationsAtIssue; // per cache buffer being written
    private int _writesInWindow;
    private long _windowMost;
    private double _demand;
    private long _evidenceSince;
    private readonly long[] _issuedTicks; // per cache buffer being written
    private double _averageWriteTicks;
    private long _writesTimed;

    public FlushSizing(CacheModel cache)
    {
        _cache = cache;
        _allocationsAtIssue = new long[cache.Capacity];
        _issuedTicks = new long[cache.Capacity];
    }

    /// <summary>
    /// Writes the average takes in fully before it says anything, and the most it weighs: about the last few
    /// hundred writes (a tenth of a second on fast storage, seconds on slow), so that one slow write, or the few
    /// that finish late when a device pauses, do not move it far, and a device that stays slow does. The first
    /// writes are averaged plainly: on storage that queues, the first of a burst finish quickly and the last
    /// slowly.
    /// </summary>
    private const int AverageFirstWrites = 32, AverageWeight = 256;

    /// <summary>
    /// True when the writes have averaged <paramref name="ticks"/> or less (Stopwatch ticks), over at least the
    /// first <see cref="AverageFirstWrites"/> of them.
    /// </summary>
    public bool WritesAverageAtMost(long ticks) => _writesTimed >= AverageFirstWrites && _averageWriteTicks <= ticks;

    /// <summary>The write of the dirty page in buffer <paramref name="slot"/> was issued at <paramref name="nowTicks"/>.</summary>
    public void FlushIssued(int slot, long nowTicks)
    {
        _allocationsAtIssue[slot] = _cache.Allocations;
        _issuedTicks[slot] = nowTicks;
    }

    /// <summary>The write of the page in buffer <paramref name="slot"/> finished at <paramref name="nowTicks"/>: the buffers taken meanwhile are one measure of the demand.</summary>
    public void FlushCompleted(int slot, long nowTicks)
    {
        long took = nowTicks - _issuedTicks[slot];
        _writesTimed++;
        _averageWriteTicks += (took - _averageWriteTicks) / Math.Min(_writesTimed, AverageWeight);
        long taken = _cache.Allocations - _allocationsAtIssue[slot];
        if (taken > _windowMost) _windowMost = taken;
        if (++_writesInWindow < WritesPerWindow) return;
        _demand = _demand == 0 ? _windowMost : _demand + Smoothing * (_windowMost - _demand);
        _writesInWindow = 0;
        _windowMost = 0;
        _cache.PoolTarget = (int)Math.Min(int.MaxValue, Math.Ceiling(Safety * _demand));
    }

    /// <summary>Adds the time integrals of the scavenger's backlog and of its writes in flight (<paramref name="flushesInFlight"/>) to the instance's evidence, every few milliseconds.</summary>
    public void Update(long now, int flushesInFlight, InstanceWorkload evidence)
    {
        if (_evidenceSince == 0) { _evidenceSince = now; return; }
        long dt = now - _evidenceSince;
        if (dt < EvidenceTicks) return;
        evidence.FlushBacklogPageTicks += (long)_cache.FlushBacklog * dt;
        evidence.FlushWriteTicks += (long)flushesInFlight * dt;
        evidence.FlushPoolTargetPages = _cache.PoolTarget;
        _evidenceSince = now;
    }
}
