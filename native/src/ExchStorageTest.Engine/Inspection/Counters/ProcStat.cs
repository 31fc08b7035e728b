using System.Globalization;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>The aggregate "cpu" line of /proc/stat, in USER_HZ ticks (guest time is already inside user).</summary>
public readonly record struct CpuTimes(long User, long Nice, long System, long Idle, long IoWait, long Irq, long SoftIrq, long Steal)
{
    public long Total => User + Nice + System + Idle + IoWait + Irq + SoftIrq + Steal;
    public long IdleAll => Idle + IoWait;

    /// <summary>Busy share of the interval, as \Processor(_Total)\% Processor Time: 100 x (1 - Δidle/Δtotal), iowait counted idle.</summary>
    public static double ProcessorTimePercent(CpuTimes before, CpuTimes after)
    {
        long total = after.Total - before.Total;
        if (total <= 0) return 0;
        double idle = after.IdleAll - before.IdleAll;
        return Math.Clamp(100.0 * (1 - idle / total), 0, 100);
    }
}

public static class ProcStat
{
    public const string ProcPath = "/proc/stat";

    public static CpuTimes? ParseCpu(string text)
    {
        foreach (var line in text.Split('\n'))
        {
            if (!line.StartsWith("cpu ", StringComparison.Ordinal)) continue;
            var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            long F(int i) => i < f.Length && long.TryParse(f[i], NumberStyles.None, CultureInfo.InvariantCulture, out long v) ? v : 0;
            return new CpuTimes(F(1), F(2), F(3), F(4), F(5), F(6), F(7), F(8));
        }
        return null;
    }
}
