using System.Diagnostics;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>
/// Takes a /proc snapshot per Sample() and accumulates the delta since the previous one. The snapshot
/// source is injectable so tests drive it with fixture texts and chosen times.
/// </summary>
public sealed class LinuxHostCounterSampler : IHostCounterSampler
{
    private readonly Func<LinuxHostSnapshot> _snapshot;
    private readonly List<string> _devices;
    private readonly HostCounterAccumulator _acc = new();
    private readonly object _gate = new();
    private LinuxHostSnapshot? _previous;

    public LinuxHostCounterSampler(IEnumerable<string> devices)
        : this(devices, () => LinuxHostSnapshot.Read(Stopwatch.GetTimestamp() / (double)Stopwatch.Frequency))
    {
    }

    public LinuxHostCounterSampler(IEnumerable<string> devices, Func<LinuxHostSnapshot> snapshot)
    {
        _devices = devices.Distinct(StringComparer.Ordinal).ToList();
        _snapshot = snapshot;
    }

    public void Start()
    {
        lock (_gate) _previous = _snapshot();
    }

    public void Sample()
    {
        var current = _snapshot();
        lock (_gate)
        {
            if (_previous != null) LinuxHostCounterMath.Accumulate(_previous, current, _devices, _acc);
            _previous = current;
        }
    }

    public List<HostCounter> Results()
    {
        lock (_gate) return _acc.ToCounters();
    }

    public void Dispose()
    {
    }
}
