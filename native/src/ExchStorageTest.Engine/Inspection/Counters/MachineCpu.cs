using ExchStorageTest.Engine.Io.Windows;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>
/// Every CPU of the machine, busy and in all, as cumulative times: Linux /proc/stat's "cpu" line (busy: all but idle
/// and iowait, as % Processor Time counts it), Windows GetSystemTimes (kernel time includes idle). Two readings give
/// how many CPUs the whole machine — every process, the kernel's I/O threads — kept busy between them, beside what the
/// engine's own process used (a full machine is part of the host-limited evidence).
/// </summary>
/// <remarks>Busy and Total are in the OS's own unit (USER_HZ ticks, 100 ns): only their ratio is read.</remarks>
public readonly record struct MachineCpuTimes(double Busy, double Total)
{
    /// <summary>CPUs busy on average between <paramref name="earlier"/> and this reading, of <paramref name="cpus"/>; null when the clock did not move.</summary>
    public double? BusyCpusSince(in MachineCpuTimes earlier, int cpus)
    {
        double total = Total - earlier.Total;
        return total > 0 ? Math.Clamp((Busy - earlier.Busy) / total, 0, 1) * cpus : null;
    }
}

public static unsafe class MachineCpu
{
    /// <summary>The machine's CPU times now; null where the OS does not say.</summary>
    public static MachineCpuTimes? Read()
    {
        if (OperatingSystem.IsLinux())
        {
            try
            {
                if (ProcStat.ParseCpu(File.ReadAllText(ProcStat.ProcPath)) is not { } c) return null;
                return new MachineCpuTimes(c.Total - c.IdleAll, c.Total);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException) { return null; }
        }
        if (OperatingSystem.IsWindows())
        {
            long idle, kernel, user;
            if (!Kernel32.GetSystemTimes(&idle, &kernel, &user)) return null;
            return new MachineCpuTimes(kernel + user - idle, kernel + user);
        }
        return null;
    }
}
