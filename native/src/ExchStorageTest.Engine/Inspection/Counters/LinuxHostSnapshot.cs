namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>One reading of /proc/stat, /proc/meminfo, /proc/vmstat and /proc/diskstats at a monotonic time.</summary>
public sealed record LinuxHostSnapshot(
    double TimeSeconds,
    CpuTimes? Cpu,
    IReadOnlyDictionary<string, long> Meminfo,
    long PagesStolen,
    IReadOnlyDictionary<string, DiskStat> Disks)
{
    /// <summary>Builds a snapshot from file texts (what the reader passes in production and tests pass from fixtures).</summary>
    public static LinuxHostSnapshot FromTexts(double timeSeconds, string stat, string meminfo, string vmstat, string diskstats) =>
        new(timeSeconds, ProcStat.ParseCpu(stat), ProcKeyValues.ParseMeminfo(meminfo),
            ProcKeyValues.PagesStolen(ProcKeyValues.ParseVmstat(vmstat)), ProcDiskstats.Parse(diskstats));

    /// <summary>Reads the live /proc files.</summary>
    public static LinuxHostSnapshot Read(double timeSeconds, string procRoot = "/proc")
    {
        static string Text(string p) => File.Exists(p) ? File.ReadAllText(p) : "";
        return FromTexts(timeSeconds,
            Text(Path.Combine(procRoot, "stat")),
            Text(Path.Combine(procRoot, "meminfo")),
            Text(Path.Combine(procRoot, "vmstat")),
            Text(Path.Combine(procRoot, "diskstats")));
    }
}

/// <summary>
/// The pure step from two snapshots to the SPEC section 5 host counters, named as on Windows, with the
/// /proc formula recorded as each counter's origin.
/// </summary>
public static class LinuxHostCounterMath
{
    public const string CpuOrigin = "/proc/stat cpu: 100 x (1 - Δ(idle+iowait) / Δtotal)";
    public const string AvailableOrigin = "/proc/meminfo MemAvailable / 1 MiB";
    public const string RepurposedOrigin = "/proc/vmstat Σ pgsteal_* per second (pages reclaimed from the page cache)";
    public const string NonpagedOrigin = "/proc/meminfo SUnreclaim (unreclaimable kernel slab)";
    public const string PagedOrigin = "/proc/meminfo SReclaimable (reclaimable kernel slab)";
    public const string PageTablesOrigin = "/proc/meminfo PageTables (no Free System Page Table Entries analogue on Linux)";

    public static void Accumulate(LinuxHostSnapshot before, LinuxHostSnapshot after, IEnumerable<string> devices, HostCounterAccumulator acc)
    {
        double dt = after.TimeSeconds - before.TimeSeconds;
        const string src = HostCounterNames.SourceProc;
        if (before.Cpu is { } c0 && after.Cpu is { } c1)
            acc.Add(HostCounterNames.ProcessorTime, src, CpuOrigin, CpuTimes.ProcessorTimePercent(c0, c1));
        if (after.Meminfo.TryGetValue("MemAvailable", out long avail))
            acc.Add(HostCounterNames.AvailableMBytes, src, AvailableOrigin, avail / 1048576.0);
        if (dt > 0 && after.PagesStolen >= before.PagesStolen)
            acc.Add(HostCounterNames.TransitionPagesRePurposed, src, RepurposedOrigin, (after.PagesStolen - before.PagesStolen) / dt);
        if (after.Meminfo.TryGetValue("SUnreclaim", out long nonpaged))
            acc.Add(HostCounterNames.PoolNonpagedBytes, src, NonpagedOrigin, nonpaged);
        if (after.Meminfo.TryGetValue("SReclaimable", out long paged))
            acc.Add(HostCounterNames.PoolPagedBytes, src, PagedOrigin, paged);
        if (after.Meminfo.TryGetValue("PageTables", out long pt))
            acc.Add(HostCounterNames.PageTablesBytes, src, PageTablesOrigin, pt);

        if (dt <= 0) return;
        foreach (var dev in devices)
        {
            if (!before.Disks.TryGetValue(dev, out var d0) || !after.Disks.TryGetValue(dev, out var d1)) continue;
            var r = ProcDiskstats.Rates(d0, d1, dt);
            string o = $"/proc/diskstats {dev}";
            acc.Add(HostCounterNames.Disk(dev, HostCounterNames.AvgDiskSecRead), src, o + ": Δms reading / Δreads / 1000", r.AvgSecPerRead);
            acc.Add(HostCounterNames.Disk(dev, HostCounterNames.AvgDiskSecWrite), src, o + ": Δms writing / Δwrites / 1000", r.AvgSecPerWrite);
            acc.Add(HostCounterNames.Disk(dev, HostCounterNames.DiskReadsPerSec), src, o + ": Δreads completed / Δt", r.ReadsPerSecond);
            acc.Add(HostCounterNames.Disk(dev, HostCounterNames.DiskWritesPerSec), src, o + ": Δwrites completed / Δt", r.WritesPerSecond);
            acc.Add(HostCounterNames.Disk(dev, HostCounterNames.AvgDiskQueueLength), src, o + ": Δweighted ms / Δt ms", r.AvgQueueLength);
        }
    }
}
