namespace ExchStorageTest.Engine.Load;

/// <summary>
/// A source that can have work due by the clock rather than after a completion: a session's think
/// time ending, a lazy log flush, a periodic read. The worker reads <see cref="WakeTicks"/> before
/// it waits, so it neither sleeps through the moment nor spins until it.
/// </summary>
public interface ITimedSource : IIoSource
{
    /// <summary>
    /// Stopwatch ticks at which <see cref="IIoSource.TryNext"/> may next have something to start
    /// (0 or a past instant: now; <see cref="long.MaxValue"/>: only after a completion).
    /// </summary>
    long WakeTicks { get; }
}
