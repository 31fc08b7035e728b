namespace ExchStorageTest.Engine.Load;

/// <summary>
/// The intended start times of an open-loop stream (fio's rate_process linear/poisson). Intended
/// times advance regardless of when I/Os actually start, so lateness is measured, never hidden.
/// </summary>
internal sealed class Pacer
{
    private readonly double _intervalTicks;
    private readonly bool _poisson;
    private readonly Random _random;
    private double _next;

    public Pacer(double rateIops, bool poisson, long startTicks, int seed)
    {
        _intervalTicks = Clock.Frequency / rateIops;
        _poisson = poisson;
        _random = new Random(seed);
        _next = startTicks;
    }

    /// <summary>Re-bases the schedule on the measured start (workers start after construction).</summary>
    public void Reset(long startTicks) => _next = startTicks;

    /// <summary>Gives back an intended start the source could not use, so no arrival is lost.</summary>
    public void Unget(long due) => _next = due;

    /// <summary>The intended start of the next I/O, in Stopwatch ticks.</summary>
    public long NextDue => (long)_next;

    /// <summary>Consumes the next intended start and schedules the one after it.</summary>
    public long Take()
    {
        long due = (long)_next;
        double gap = _poisson ? -Math.Log(1.0 - _random.NextDouble()) * _intervalTicks : _intervalTicks;
        _next += gap;
        return due;
    }
}
