using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>Host counters for a run: Start primes (rate counters need a baseline), Sample each interval, Results at the end.</summary>
public interface IHostCounterSampler : IDisposable
{
    void Start();
    void Sample();
    List<HostCounter> Results();

    /// <summary>
    /// Counters asked for that produced no value (refused by the OS or never valid), each with why;
    /// the run reports them as a warning instead of silently leaving them out.
    /// </summary>
    IReadOnlyList<string> Unavailable => Array.Empty<string>();
}

/// <summary>Picks the sampler for this OS; disks are kernel names on Linux (sdb, dm-0) and volume names on Windows (E:).</summary>
public static class HostCounterSamplers
{
    public static IHostCounterSampler Create(IEnumerable<string> disks)
    {
        if (OperatingSystem.IsWindows()) return new PdhHostCounterSampler(disks);
        return new LinuxHostCounterSampler(disks);
    }
}
