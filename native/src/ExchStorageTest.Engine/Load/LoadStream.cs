namespace ExchStorageTest.Engine.Load;

/// <summary>How a stream's I/Os are started.</summary>
public enum Arrival
{
    /// <summary>Closed loop: keep <see cref="LoadStream.Depth"/> I/Os outstanding (Jetstress sessions).</summary>
    Closed,
    /// <summary>Open loop, evenly spaced at the target rate.</summary>
    Linear,
    /// <summary>Open loop, exponential inter-arrival times at the target rate.</summary>
    Poisson,
}

/// <summary>One stream of load owned by one worker: a source, its depth and its pacing.</summary>
public sealed class LoadStream
{
    public LoadStream(string name, IIoSource source, int depth, Arrival arrival = Arrival.Closed, double rateIops = 0)
    {
        if (depth < 1) throw new ArgumentOutOfRangeException(nameof(depth), depth, "A stream needs at least one I/O in flight.");
        if (arrival != Arrival.Closed && !(rateIops > 0)) throw new ArgumentOutOfRangeException(nameof(rateIops), rateIops, "An open-loop stream needs a positive rate.");
        Name = name;
        Source = source;
        Depth = depth;
        Arrival = arrival;
        RateIops = rateIops;
    }

    public string Name { get; }
    public IIoSource Source { get; }
    /// <summary>Most I/Os of this stream in flight at once (closed loop: always this many).</summary>
    public int Depth { get; }
    public Arrival Arrival { get; }
    public double RateIops { get; }
}
