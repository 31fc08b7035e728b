namespace ExchStorageTest.Engine.Results;

/// <summary>
/// How well the host kept up with the load over one measured window (docs/results-schema.md, "Host evidence"): the
/// I/O workers' CPU and their wait for one, the engine's process, the whole machine, how late thinking sessions were
/// woken, and the storage's own latency where the OS counts it per device. <see cref="Verdict.MachineLimit"/> reads it to
/// tell a Fail the host caused from one the storage caused. A figure the OS does not give is null, never 0.
/// </summary>
public sealed class MachineEvidence
{
    public double WindowSeconds { get; set; }
    /// <summary>One per I/O worker thread.</summary>
    public List<WorkerCpu> Workers { get; set; } = new();
    /// <summary>The busiest worker's share of the window on a CPU or waiting for one (never blocked on the storage or the clock).</summary>
    public double? WorkerBusyShare { get; set; }
    /// <summary>The largest share of the window a worker spent runnable but not running (Linux schedstat; null elsewhere).</summary>
    public double? WorkerWaitingForCpuShare { get; set; }
    /// <summary>The longest mean wait for a CPU each time a worker became runnable, ms (Linux; null elsewhere).</summary>
    public double? SchedulingDelayMs { get; set; }
    /// <summary>The engine's whole process: CPU seconds over the window's length.</summary>
    public double ProcessCoresUsed { get; set; }
    /// <summary>Every CPU of the machine busy on average over the window (every process, the kernel's I/O threads).</summary>
    public double? MachineBusyCpus { get; set; }
    public int MachineCpus { get; set; }
    /// <summary>Thinking sessions woken to start a transaction in the window (paced runs; 0 otherwise).</summary>
    public long ThinkWakes { get; set; }
    /// <summary>How late those wake-ups came against the schedule, mean ms; null without any, or where a worker waits for its I/O inside submit (sync backend: its late turns are the storage's).</summary>
    public double? ThinkLagMs { get; set; }
    /// <summary>The share of those wake-ups later than <see cref="Workload.SessionPacer.LateWakeMilliseconds"/>; null as <see cref="ThinkLagMs"/>.</summary>
    public double? LateThinkShare { get; set; }
    /// <summary>The devices under the test's folders whose own latency is below (Linux /proc/diskstats names); empty where not known.</summary>
    public List<string> Devices { get; set; } = new();
    /// <summary>The slowest of those devices' own read latency over the window, ms (every read of the device, the time the kernel's block layer counted); null where not known.</summary>
    public double? DeviceReadLatencyMs { get; set; }
    /// <summary>The same for writes.</summary>
    public double? DeviceWriteLatencyMs { get; set; }
    /// <summary>The highest sample interval's device read latency over the window, ms (what the maximum rules' sample averages are set beside); null where not known.</summary>
    public double? DeviceMaxSampleReadLatencyMs { get; set; }
    /// <summary>The same for writes.</summary>
    public double? DeviceMaxSampleWriteLatencyMs { get; set; }
}

/// <summary>One I/O worker thread over the window.</summary>
public sealed class WorkerCpu
{
    public int Worker { get; set; }
    /// <summary>The CPU it was pinned to, -1 when unpinned.</summary>
    public int Cpu { get; set; }
    /// <summary>Share of the window it ran on a CPU.</summary>
    public double OnCpuShare { get; set; }
    /// <summary>Share of the window it was runnable but waited for a CPU (Linux; null elsewhere).</summary>
    public double? WaitingForCpuShare { get; set; }
    /// <summary>Mean wait for a CPU each time it was put on one, ms (Linux; null elsewhere).</summary>
    public double? SchedulingDelayMs { get; set; }
}
