using System.Diagnostics;
using ExchStorageTest.Engine.Inspection.Counters;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Takes the host-limited evidence (<see cref="MachineEvidence"/>) of one measured window: a reading of everything at its
/// start, another at its end (before the workers stop: a finished thread's CPU time can no longer be read). Cheap —
/// a few /proc files or OS calls twice a window — and off the I/O path: the sampling thread calls it.
/// </summary>
internal sealed class MachineEvidenceProbe
{
    private readonly LoadDriver _driver;
    private readonly IReadOnlyList<InstanceWorkload> _instances;
    private readonly IReadOnlyList<string> _devices;
    private long _startTicks;
    private double _startProcessCpu;
    private ThreadCpuTimes?[] _workers = Array.Empty<ThreadCpuTimes?>();
    private MachineCpuTimes? _machine;
    private Dictionary<string, DiskStat>? _disks;
    private Dictionary<string, DiskStat>? _lastSampleDisks;
    private double? _maxSampleRead, _maxSampleWrite;
    private long _wakes, _lagTicks, _late;

    /// <param name="driver">The load driver whose workers and process CPU are measured.</param>
    /// <param name="instances">The instances whose thinking sessions' lag is counted.</param>
    /// <param name="devices">The block devices under the test's folders (Linux diskstats names); empty where not known.</param>
    public MachineEvidenceProbe(LoadDriver driver, IReadOnlyList<InstanceWorkload> instances, IReadOnlyList<string> devices)
    {
        _driver = driver;
        _instances = instances;
        _devices = devices;
    }

    /// <summary>The block devices of the run's volumes as /proc/diskstats names them (Linux; empty elsewhere).</summary>
    public static List<string> DevicesOf(EnvironmentInfo environment) => OperatingSystem.IsLinux()
        ? environment.Volumes.Where(v => !string.IsNullOrEmpty(v.Device)).Select(v => Path.GetFileName(v.Device!)).Distinct(StringComparer.Ordinal).ToList()
        : new List<string>();

    public void Start()
    {
        _startTicks = Stopwatch.GetTimestamp();
        _startProcessCpu = _driver.AccountedCpuSeconds;
        var ids = _driver.WorkerThreadIds;
        _workers = new ThreadCpuTimes?[ids.Count];
        for (int i = 0; i < ids.Count; i++) _workers[i] = ThreadCpu.Read(ids[i]);
        _machine = MachineCpu.Read();
        _disks = _lastSampleDisks = ReadDisks();
        _maxSampleRead = _maxSampleWrite = null;
        (_wakes, _lagTicks, _late) = Think();
    }

    /// <summary>At each measured sample: the devices' own latency over the interval, the highest kept for the maximum rules.</summary>
    public void Sample()
    {
        if (_lastSampleDisks is not { } d0 || ReadDisks() is not { } d1) return;
        var (read, write) = Latency(d0, d1);
        if (read is double r) _maxSampleRead = Math.Max(_maxSampleRead ?? 0, r);
        if (write is double w) _maxSampleWrite = Math.Max(_maxSampleWrite ?? 0, w);
        _lastSampleDisks = d1;
    }

    public MachineEvidence Finish()
    {
        double window = (Stopwatch.GetTimestamp() - _startTicks) / (double)Stopwatch.Frequency;
        var e = new MachineEvidence
        {
            WindowSeconds = Math.Round(window, 3),
            ProcessCoresUsed = window > 0 ? Math.Round((_driver.AccountedCpuSeconds - _startProcessCpu) / window, 3) : 0,
            MachineCpus = Environment.ProcessorCount,
            Devices = _devices.ToList(),
        };
        var ids = _driver.WorkerThreadIds;
        var cpus = _driver.WorkerCpus;
        for (int i = 0; i < ids.Count && i < _workers.Length; i++)
        {
            if (_workers[i] is not { } start || ThreadCpu.Read(ids[i]) is not { } end || window <= 0) continue;
            var d = end.Since(start);
            e.Workers.Add(new WorkerCpu
            {
                Worker = i, Cpu = i < cpus.Count ? cpus[i] : -1,
                OnCpuShare = Share(d.OnCpuSeconds, window),
                WaitingForCpuShare = d.WaitingSeconds is double w ? Share(w, window) : null,
                SchedulingDelayMs = d.WaitingSeconds is double ws && d.TimesScheduled is long n && n > 0 ? Math.Round(ws * 1000 / n, 3) : null,
            });
        }
        if (e.Workers.Count > 0)
        {
            e.WorkerBusyShare = Math.Round(e.Workers.Max(x => Math.Min(1, x.OnCpuShare + (x.WaitingForCpuShare ?? 0))), 3);
            if (e.Workers.TrueForAll(x => x.WaitingForCpuShare is not null)) e.WorkerWaitingForCpuShare = e.Workers.Max(x => x.WaitingForCpuShare);
            if (e.Workers.TrueForAll(x => x.SchedulingDelayMs is not null)) e.SchedulingDelayMs = e.Workers.Max(x => x.SchedulingDelayMs);
        }
        if (_machine is { } m0 && MachineCpu.Read() is { } m1 && m1.BusyCpusSince(m0, e.MachineCpus) is double busy) e.MachineBusyCpus = Math.Round(busy, 2);
        var (wakes, lag, late) = Think();
        e.ThinkWakes = wakes - _wakes;
        if (e.ThinkWakes > 0 && !_driver.AnyWorkerWaitsInSubmit)
        {
            e.ThinkLagMs = Math.Round((lag - _lagTicks) * 1000.0 / Stopwatch.Frequency / e.ThinkWakes, 3);
            e.LateThinkShare = Math.Round((late - _late) / (double)e.ThinkWakes, 3);
        }
        if (_disks is { } d0 && ReadDisks() is { } d1)
        {
            (e.DeviceReadLatencyMs, e.DeviceWriteLatencyMs) = Latency(d0, d1);
            // The window's own latency bounds its sample maxima from below (a window shorter than one sample has none).
            e.DeviceMaxSampleReadLatencyMs = Max(_maxSampleRead, e.DeviceReadLatencyMs);
            e.DeviceMaxSampleWriteLatencyMs = Max(_maxSampleWrite, e.DeviceWriteLatencyMs);
        }
        return e;
    }

    private static double? Max(double? a, double? b) => a is double x ? (b is double y ? Math.Max(x, y) : x) : b;

    /// <summary>The slowest device's mean read and write latency between two readings, ms; null for a direction with no I/O.</summary>
    private (double? Read, double? Write) Latency(Dictionary<string, DiskStat> d0, Dictionary<string, DiskStat> d1)
    {
        double? read = null, write = null;
        foreach (var device in _devices)
        {
            if (!d0.TryGetValue(device, out var a) || !d1.TryGetValue(device, out var b)) continue;
            long reads = b.ReadsCompleted - a.ReadsCompleted, writes = b.WritesCompleted - a.WritesCompleted;
            if (reads > 0 && b.ReadMs >= a.ReadMs) read = Math.Max(read ?? 0, Math.Round((b.ReadMs - a.ReadMs) / (double)reads, 3));
            if (writes > 0 && b.WriteMs >= a.WriteMs) write = Math.Max(write ?? 0, Math.Round((b.WriteMs - a.WriteMs) / (double)writes, 3));
        }
        return (read, write);
    }

    private static double Share(double seconds, double window) => Math.Round(Math.Clamp(seconds / window, 0, 1), 3);

    private (long Wakes, long LagTicks, long Late) Think()
    {
        long wakes = 0, lag = 0, late = 0;
        foreach (var w in _instances)
        {
            wakes += Volatile.Read(ref w.ThinkWakes);
            lag += Volatile.Read(ref w.ThinkLagTicks);
            late += Volatile.Read(ref w.LateThinkWakes);
        }
        return (wakes, lag, late);
    }

    private Dictionary<string, DiskStat>? ReadDisks()
    {
        if (_devices.Count == 0) return null;
        try { return ProcDiskstats.Parse(File.ReadAllText(ProcDiskstats.ProcPath)); }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException) { return null; }
    }
}
