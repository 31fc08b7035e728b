using System.Globalization;

namespace ExchStorageTest.Benchmarks.ExchangeScaling;

/// <summary>
/// The whole machine's busy CPUs over a run's measured window (Linux /proc/stat, every CPU, every process and
/// kernel thread): the engine's own CPU (`engine.measuredCoresUsed`) leaves out the kernel's workers that
/// carry its I/O — the loop devices' threads copying the data, the completion work — so only this says
/// whether a plateau left the machine idle or the machine was full (the CPU-per-I/O work's 16-core table counted the
/// process alone). Samples twice a second on a thread of its own.
/// </summary>
public sealed class HostCpuSampler : IDisposable
{
    private readonly List<(DateTime Utc, long Busy, long Total)> _samples = new();
    private readonly Thread _thread;
    private volatile bool _stop;

    public HostCpuSampler()
    {
        _thread = new Thread(() =>
        {
            while (!_stop)
            {
                if (Read() is { } s) lock (_samples) _samples.Add((DateTime.UtcNow, s.Busy, s.Total));
                Thread.Sleep(500);
            }
        }) { IsBackground = true, Name = "host-cpu" };
        _thread.Start();
    }

    /// <summary>CPUs busy on average between the samples nearest <paramref name="fromUtc"/> and <paramref name="toUtc"/>; NaN without /proc/stat or samples.</summary>
    public double BusyCores(DateTime fromUtc, DateTime toUtc)
    {
        lock (_samples)
        {
            var inside = _samples.Where(s => s.Utc >= fromUtc && s.Utc <= toUtc).ToList();
            if (inside.Count < 2) return double.NaN;
            var (first, last) = (inside[0], inside[^1]);
            long total = last.Total - first.Total;
            return total <= 0 ? double.NaN : (double)(last.Busy - first.Busy) / total * System.Environment.ProcessorCount;
        }
    }

    /// <summary>The `cpu` line of /proc/stat: busy = everything but idle and iowait (jiffies).</summary>
    private static (long Busy, long Total)? Read()
    {
        if (!File.Exists("/proc/stat")) return null;
        string? line = File.ReadLines("/proc/stat").FirstOrDefault(l => l.StartsWith("cpu ", StringComparison.Ordinal));
        if (line is null) return null;
        var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries).Skip(1).Take(8).Select(x => long.Parse(x, CultureInfo.InvariantCulture)).ToArray();
        long total = f.Sum();
        return (total - f[3] - f[4], total);
    }

    public void Dispose()
    {
        _stop = true;
        _thread.Join();
    }
}
