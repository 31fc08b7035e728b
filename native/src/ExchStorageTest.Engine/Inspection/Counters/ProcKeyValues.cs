using System.Globalization;

namespace ExchStorageTest.Engine.Inspection.Counters;

/// <summary>/proc/meminfo ("Key:   123 kB", converted to bytes) and /proc/vmstat ("key 123") parsers.</summary>
public static class ProcKeyValues
{
    public const string MeminfoPath = "/proc/meminfo";
    public const string VmstatPath = "/proc/vmstat";

    public static Dictionary<string, long> ParseMeminfo(string text)
    {
        var d = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n'))
        {
            int colon = line.IndexOf(':');
            if (colon <= 0) continue;
            var rest = line[(colon + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (rest.Length == 0 || !long.TryParse(rest[0], NumberStyles.None, CultureInfo.InvariantCulture, out long v)) continue;
            d[line[..colon]] = rest.Length > 1 && rest[1] == "kB" ? v * 1024 : v;
        }
        return d;
    }

    public static Dictionary<string, long> ParseVmstat(string text)
    {
        var d = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var line in text.Split('\n'))
        {
            var f = line.Split(' ', StringSplitOptions.RemoveEmptyEntries);
            if (f.Length == 2 && long.TryParse(f[1], NumberStyles.None, CultureInfo.InvariantCulture, out long v)) d[f[0]] = v;
        }
        return d;
    }

    /// <summary>Pages taken from the page cache by reclaim (kswapd, direct, khugepaged): the nearest thing to Windows' repurposed transition pages.</summary>
    public static long PagesStolen(IReadOnlyDictionary<string, long> vmstat)
    {
        long sum = 0;
        foreach (var (k, v) in vmstat)
            if (k.StartsWith("pgsteal_", StringComparison.Ordinal)) sum += v;
        return sum;
    }
}
