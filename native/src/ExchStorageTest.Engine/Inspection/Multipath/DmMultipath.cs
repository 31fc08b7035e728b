using ExchStorageTest.Engine.Inspection.Linux;

namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>One path (an sdX under slaves/) of a dm-multipath map and its SCSI device state.</summary>
public sealed record DmMultipathPath(string Device, string? State, string? Vendor, string? Model);

/// <summary>A dm-multipath map as sysfs shows it: /sys/block/dm-N/dm/{uuid,name} and slaves/.</summary>
public sealed record DmMultipathMap(string KernelName, string Name, string Uuid, List<DmMultipathPath> Paths)
{
    /// <summary>Paths whose SCSI device state is not "running" (offline, blocked, transport-offline...).</summary>
    public int UnhealthyPathCount => Paths.Count(p => p.State != null && p.State != "running");
}

/// <summary>Reads dm-multipath maps from a sysfs tree (dracut's is_mpath test: dm/uuid starts with "mpath-").</summary>
public static class DmMultipath
{
    public const string UuidPrefix = "mpath-";

    public static bool IsMultipathUuid(string? uuid) =>
        uuid != null && uuid.StartsWith(UuidPrefix, StringComparison.Ordinal);

    /// <summary>The map for block device <paramref name="kernelName"/> (e.g. "dm-0"), or null when it is not a multipath map.</summary>
    public static DmMultipathMap? Read(string sysRoot, string kernelName)
    {
        string dir = Path.Combine(sysRoot, "block", kernelName);
        string? uuid = SysBlockDevice.ReadText(Path.Combine(dir, "dm", "uuid"));
        if (!IsMultipathUuid(uuid)) return null;
        string name = SysBlockDevice.ReadText(Path.Combine(dir, "dm", "name")) ?? kernelName;
        var paths = new List<DmMultipathPath>();
        string slaves = Path.Combine(dir, "slaves");
        if (Directory.Exists(slaves))
        {
            var names = Directory.EnumerateFileSystemEntries(slaves).Select(Path.GetFileName).OfType<string>().ToList();
            names.Sort(StringComparer.Ordinal);
            foreach (var sd in names)
            {
                string dev = Path.Combine(sysRoot, "block", sd, "device");
                paths.Add(new DmMultipathPath(sd,
                    SysBlockDevice.ReadText(Path.Combine(dev, "state")),
                    SysBlockDevice.ReadText(Path.Combine(dev, "vendor")),
                    SysBlockDevice.ReadText(Path.Combine(dev, "model"))));
            }
        }
        return new DmMultipathMap(kernelName, name, uuid!, paths);
    }

    /// <summary>Every multipath map under {sysRoot}/block.</summary>
    public static List<DmMultipathMap> ReadAll(string sysRoot)
    {
        var maps = new List<DmMultipathMap>();
        string block = Path.Combine(sysRoot, "block");
        if (!Directory.Exists(block)) return maps;
        var names = Directory.EnumerateDirectories(block).Select(Path.GetFileName).OfType<string>()
            .Where(n => n.StartsWith("dm-", StringComparison.Ordinal)).ToList();
        names.Sort(StringComparer.Ordinal);
        foreach (var n in names)
            if (Read(sysRoot, n) is { } map) maps.Add(map);
        return maps;
    }

    /// <summary>Fills the results model; <paramref name="table"/> (from dmsetup) adds the path selector policy.</summary>
    public static Results.MultipathReport ToReport(DmMultipathMap map, DmMultipathTable? table)
    {
        var report = new Results.MultipathReport
        {
            Name = map.Name,
            Provider = "Linux dm-multipath",
            PathCount = map.Paths.Count,
            Policy = table?.PolicyDescription,
        };
        foreach (var p in map.Paths) report.PathStates.Add($"{p.Device}: {p.State ?? "unknown"}");
        return report;
    }
}
