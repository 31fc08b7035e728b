using System.Globalization;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>One /proc/diskstats line (fields 4-14 of the kernel ABI; later discard/flush fields ignored).</summary>
public readonly record struct DiskStat(
    string Name,
    long ReadsCompleted,
    long SectorsRead,
    long ReadMs,
    long WritesCompleted,
    long SectorsWritten,
    long WriteMs,
    long InFlight,
    long IoMs,
    long WeightedIoMs);

/// <summary>PerfMon logical-disk counters derived from two diskstats snapshots.</summary>
public readonly record struct DiskRates(
    double ReadsPerSecond,
    double WritesPerSecond,
    double AvgSecPerRead,
    double AvgSecPerWrite,
    double AvgQueueLength,
    double ReadBytesPerSecond,
    double WriteBytesPerSecond);

public static class ProcDiskstats
{
    public const string ProcPath = "/proc/diskstats";

    public static Dictionary<string, DiskStat> Parse(string text)
    {
        var d = new Dictionary<string, DiskStat>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n'))
        {
            var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (f.Length < 14) continue;
            var n = new long[11];
            bool ok = true;
            for (int i = 0; i < 11 && ok; i++)
                ok = long.TryParse(f[3 + i], NumberStyles.None, CultureInfo.InvariantCulture, out n[i]);
            if (!ok) continue;
            d[f[2]] = new DiskStat(f[2], n[0], n[2], n[3], n[4], n[6], n[7], n[8], n[9], n[10]);
        }
        return d;
    }

    /// <summary>
    /// Avg. Disk sec/Read = Δms reading / Δreads / 1000; queue length = Δweighted ms / Δms elapsed (kernel
    /// procfs-diskstats ABI). Sectors are always 512 bytes here. Counter wrap or device reset gives zeros.
    /// </summary>
    public static DiskRates Rates(DiskStat before, DiskStat after, double elapsedSeconds)
    {
        if (elapsedSeconds <= 0) return default;
        long reads = after.ReadsCompleted - before.ReadsCompleted;
        long writes = after.WritesCompleted - before.WritesCompleted;
        long readMs = after.ReadMs - before.ReadMs;
        long writeMs = after.WriteMs - before.WriteMs;
        long weighted = after.WeightedIoMs - before.WeightedIoMs;
        if (reads < 0 || writes < 0 || readMs < 0 || writeMs < 0 || weighted < 0) return default;
        return new DiskRates(
            reads / elapsedSeconds,
            writes / elapsedSeconds,
            reads == 0 ? 0 : readMs / (double)reads / 1000.0,
            writes == 0 ? 0 : writeMs / (double)writes / 1000.0,
            weighted / (elapsedSeconds * 1000.0),
            (after.SectorsRead - before.SectorsRead) * 512.0 / elapsedSeconds,
            (after.SectorsWritten - before.SectorsWritten) * 512.0 / elapsedSeconds);
    }
}
