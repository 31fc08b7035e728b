using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>
/// Runs a sampler on its own thread at an interval (default 15 s, as Jetstress) until stopped.
/// </summary>
/// <remarks>
/// Stopping sets an event the sampling thread waits on; nothing is cancelled and no exception is
/// thrown. Not a PeriodicTimer with a CancellationToken: cancelling one throws an
/// OperationCanceledException on the stopping (main) thread, which under Wine's exception dispatch
/// kills the main thread while the I/O workers run on, and the process never exits.
/// </remarks>
public sealed class HostCounterLoop : IDisposable
{
    private readonly IHostCounterSampler _sampler;
    private readonly TimeSpan _interval;
    private readonly ManualResetEventSlim _stop = new();
    private readonly Thread _thread;
    private List<HostCounter>? _results;

    public HostCounterLoop(IHostCounterSampler sampler, TimeSpan interval)
    {
        if (interval <= TimeSpan.Zero) throw new ArgumentOutOfRangeException(nameof(interval));
        _sampler = sampler;
        _interval = interval;
        _sampler.Start();
        _thread = new Thread(Run) { IsBackground = true, Name = "host-counters" };
        _thread.Start();
    }

    private void Run()
    {
        while (!_stop.Wait(_interval)) _sampler.Sample();
    }

    /// <summary>Stops sampling and returns the accumulated counters (the same list on every call).</summary>
    public List<HostCounter> Stop()
    {
        if (_results is not null) return _results;
        _stop.Set();
        _thread.Join();
        _results = _sampler.Results();
        return _results;
    }

    /// <summary>The sampler's counters that produced no value (see <see cref="IHostCounterSampler.Unavailable"/>).</summary>
    public IReadOnlyList<string> Unavailable => _sampler.Unavailable;

    public void Dispose()
    {
        Stop();
        _sampler.Dispose();
        _stop.Dispose();
    }
}
