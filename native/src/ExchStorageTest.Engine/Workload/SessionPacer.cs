namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// The think time of one instance's sessions (Jetstress 2010's "sluggish sessions"): a schedule on
/// the clock that every transactional database I/O (page read or page write) moves on by one
/// interval. A session may start its next transaction only once the schedule has reached the
/// present, so the instance's transactional IOPS settle at the paced rate whatever the cache hit
/// ratio or write coalescing, and a session that is held up (slow storage, a busy CPU) catches up
/// afterwards instead of losing the time: pacing by the clock, not by counting sleeps. The
/// schedule never trails the present by more than <see cref="CatchUpSeconds"/>, so storage that
/// cannot keep up is not flooded later with everything it missed.
/// The rate is set by the run thread (<see cref="PaceAt"/>); everything else runs on the worker.
/// </summary>
public sealed class SessionPacer
{
    /// <summary>
    /// A thinking session woken this much after the schedule allowed it counts as late (host-limited evidence). The
    /// worker aims its waits to the millisecond (a completion wait's timeout is whole milliseconds, a think-time sleep
    /// too), so a healthy host wakes a session within 1-2 ms; 10 ms is half the average database read latency limit —
    /// a transaction that starts that late has lost as much time as a slow read would cost it.
    /// </summary>
    public const double LateWakeMilliseconds = 10;

    /// <summary>How far the schedule may trail the present: the most catch-up after a hold-up.</summary>
    public const double CatchUpSeconds = 1.0;

    private static readonly long Frequency = System.Diagnostics.Stopwatch.Frequency;
    private readonly long _catchUpTicks = (long)(CatchUpSeconds * Frequency);
    private long _requested; // ticks per I/O asked for by the run thread; 0 = no think time
    private long _interval;  // the worker's copy
    private long _next;      // when the next transaction may start

    /// <summary>Paces the instance at <paramref name="iops"/> transactional I/Os per second; 0 or less ends the think time.</summary>
    public void PaceAt(double iops) =>
        Volatile.Write(ref _requested, iops > 0 ? Math.Max(1, (long)(Frequency / iops)) : 0);

    /// <summary>True while sessions think between transactions (after <see cref="Refresh"/>).</summary>
    public bool Paced => _interval > 0;

    /// <summary>When the next transaction may start (Stopwatch ticks); meaningful while <see cref="Paced"/>.</summary>
    public long NextStart => _next;

    /// <summary>Adopts a rate set by the run thread; a new rate starts its schedule now, with no backlog.</summary>
    public void Refresh(long now)
    {
        long requested = Volatile.Read(ref _requested);
        if (requested == _interval) return;
        _interval = requested;
        _next = now;
    }

    public bool MayStart(long now) => _interval == 0 || now >= _next;

    /// <summary>One transactional database I/O was started: the schedule moves on by one interval (no clock read unless paced).</summary>
    public void Charge()
    {
        if (_interval != 0) Charge(System.Diagnostics.Stopwatch.GetTimestamp());
    }

    /// <summary><see cref="Charge()"/> at <paramref name="now"/> (Stopwatch ticks).</summary>
    public void Charge(long now)
    {
        if (_interval == 0) return;
        if (_next < now - _catchUpTicks) _next = now - _catchUpTicks;
        _next += _interval;
    }
}
