using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Exchange storage best practice (SPEC section 8) applied to probed facts. Pure, so every rule is
/// tested on Linux with hand-made facts.
/// </summary>
/// <remarks>
/// On Linux the file system under test is a vehicle for measuring the storage (the LUN will later carry
/// NTFS/ReFS on Windows), so a non-NTFS file system is Info, not Warning: the 64 KB cluster rule is
/// Exchange-on-Windows advice. An NTFS volume seen from Linux (ntfs-3g, ntfs3) is judged like on Windows,
/// from its boot sector. On Windows anything but NTFS/ReFS is a Warning.
/// </remarks>
public static class VolumeRules
{
    public const long RecommendedClusterBytes = 65536;
    public const long AlignmentBytes = 1 << 20;
    /// <summary>Test files smaller than this many times the array cache are largely served from cache.</summary>
    public const int CacheMultiple = 3;

    public static List<Finding> Evaluate(VolumeFacts f, VolumeCheckOptions o)
    {
        var list = new List<Finding>();
        string where = f.Volume.MountPoint ?? f.Volume.Path;
        FileSystemRules(f, where, list);
        AlignmentRules(f, where, list);
        SpaceRules(f, o, where, list);
        DirectIoRules(f, where, list);
        MultipathRules(f, list);
        SupportRules.Evaluate(f, where, list);
        foreach (var note in f.Notes) list.Add(Make(Severities.Info, FindingCodes.ProbeNote, note, null));
        return list;
    }

    /// <summary>File systems with no backing device: direct I/O may "work" (tmpfs accepts O_DIRECT since 6.6) but measures RAM.</summary>
    public static bool IsMemoryFileSystem(string? fs) => fs is "tmpfs" or "ramfs" or "devtmpfs" or "proc" or "sysfs" or "hugetlbfs";

    public static bool IsExchangeFileSystem(string? fs) =>
        string.Equals(fs, "NTFS", StringComparison.OrdinalIgnoreCase) || string.Equals(fs, "ReFS", StringComparison.OrdinalIgnoreCase);

    private static void FileSystemRules(VolumeFacts f, string where, List<Finding> list)
    {
        if (f.Volume.FileSystem == null)
        {
            list.Add(Make(Severities.Info, FindingCodes.FileSystemUnknown, $"The file system of {where} could not be determined.", null));
            return;
        }
        if (IsExchangeFileSystem(f.Volume.FileSystem))
        {
            if (f.Volume.ClusterSizeBytes is not { } cluster)
            {
                list.Add(Make(Severities.Info, FindingCodes.ClusterSizeUnknown,
                    $"The {f.Volume.FileSystem} cluster size of {where} could not be read.", "Check it with 'fsutil fsinfo ntfsinfo' on Windows."));
            }
            else if (cluster != RecommendedClusterBytes)
            {
                list.Add(Make(Severities.Warning, FindingCodes.ClusterSize,
                    $"{f.Volume.FileSystem} volume {where} has {cluster.ToString(CultureInfo.InvariantCulture)}-byte ({Kb(cluster)}) clusters; Exchange best practice is a 64 KB (65536-byte) allocation unit.",
                    f.Platform == VolumePlatform.Windows
                        ? "Reformat the volume with a 64 KB allocation unit (Format-Volume -AllocationUnitSize 65536) before deploying Exchange."
                        : "Re-create the file system with 64 KB clusters (mkntfs -c 65536; on Windows Format-Volume -AllocationUnitSize 65536)."));
            }
            return;
        }
        if (f.Platform == VolumePlatform.Windows)
        {
            list.Add(Make(Severities.Warning, FindingCodes.FileSystemNotSupported,
                $"{where} is {f.Volume.FileSystem}; Exchange database and log volumes must be NTFS or ReFS.",
                "Format the volume NTFS or ReFS with a 64 KB allocation unit."));
            return;
        }
        if (IsMemoryFileSystem(f.Volume.FileSystem))
        {
            list.Add(Make(Severities.Warning, FindingCodes.MemoryFileSystem,
                $"{where} is {f.Volume.FileSystem}, which lives in memory; a test here measures RAM, not storage.",
                "Point the database and log paths at volumes on the storage under test."));
            return;
        }
        string block = f.FileSystemBlockBytes is { } b ? $" (block size {b.ToString(CultureInfo.InvariantCulture)} bytes)" : "";
        list.Add(Make(Severities.Info, FindingCodes.FileSystemNotExchange,
            $"{where} is {f.Volume.FileSystem}{block}, not an Exchange-supported file system; the 64 KB cluster rule is Exchange-on-Windows advice and is not applied here.",
            "The results describe the storage under this file system. To test as Exchange will use it, format the LUN NTFS or ReFS with 64 KB clusters on Windows."));
    }

    private static void AlignmentRules(VolumeFacts f, string where, List<Finding> list)
    {
        if (f.Volume.PartitionOffsetBytes is not { } offset)
        {
            list.Add(Make(Severities.Info, FindingCodes.PartitionOffsetUnknown,
                $"The partition offset of {where} could not be determined, so 1 MiB alignment was not checked.", null));
            return;
        }
        if (offset % AlignmentBytes != 0)
        {
            list.Add(Make(Severities.Warning, FindingCodes.PartitionMisaligned,
                $"The partition under {where} starts at byte {offset.ToString(CultureInfo.InvariantCulture)} (sector {(offset / 512).ToString(CultureInfo.InvariantCulture)} of 512 bytes), not on a 1 MiB boundary; I/Os can straddle stripe units.",
                "Re-create the partition at a 1 MiB offset (the default since Windows Server 2008; parted -a optimal on Linux)."));
        }
    }

    private static void SpaceRules(VolumeFacts f, VolumeCheckOptions o, string where, List<Finding> list)
    {
        if (o.PlannedBytes <= 0) return;
        if (f.Volume.FreeBytes is not { } free)
        {
            list.Add(Make(Severities.Info, FindingCodes.FreeSpaceUnknown, $"The free space of {where} could not be determined.", null));
        }
        else if (o.PlannedBytes > free)
        {
            list.Add(Make(Severities.Error, FindingCodes.InsufficientFreeSpace,
                $"The run needs {Gib(o.PlannedBytes)} on {where} but only {Gib(free)} is free.",
                "Free space, reduce the mailbox count or quota, or choose another volume. Existing test files that will be reused do not need new space."));
        }
        else if (f.Volume.TotalBytes is { } total && total > 0)
        {
            double used = (total - free + (double)o.PlannedBytes) / total * 100;
            list.Add(Make(Severities.Info, FindingCodes.VolumeUtilisation,
                $"With the test files {where} will be {used.ToString("0.#", CultureInfo.InvariantCulture)}% used (published ESRP runs tested at 25-75%).", null));
        }

        if (o.ArrayCacheBytes is { } cache && cache > 0 && o.PlannedBytes < (double)cache * CacheMultiple)
        {
            list.Add(Make(Severities.Warning, FindingCodes.TestFilesFitInCache,
                $"The test files ({Gib(o.PlannedBytes)}) are less than {CacheMultiple} times the array cache ({Gib(cache)}); the cache, not the disks, will serve much of the test.",
                "Test with databases at least several times the array cache, as production will be."));
        }
    }

    private static void DirectIoRules(VolumeFacts f, string where, List<Finding> list)
    {
        if (f.Volume.DirectIoSupported == false)
        {
            list.Add(Make(Severities.Warning, FindingCodes.DirectIoUnsupported,
                $"{where} does not support unbuffered I/O ({f.DirectIoDetail}); measured latencies would be the page cache's.",
                "Use a volume that supports direct I/O, or opt in to buffered I/O knowing every report will say so."));
        }
        else if (f.Volume.DirectIoSupported == null)
        {
            list.Add(Make(Severities.Info, FindingCodes.DirectIoNotProbed,
                $"Unbuffered I/O support on {where} was not probed{(f.DirectIoDetail == null ? "" : ": " + f.DirectIoDetail)}.", null));
        }
    }

    private static void MultipathRules(VolumeFacts f, List<Finding> list)
    {
        if (f.Volume.Multipath is not { } mp) return;
        if (mp.PathCount <= 1)
        {
            list.Add(Make(Severities.Warning, FindingCodes.MultipathSinglePath,
                $"Multipath device {mp.Name} has {Wording.Count(mp.PathCount, "path")}; a path failure will stop I/O.",
                "Check cabling, zoning and the multipath configuration so every LUN has at least two paths."));
        }
        if (f.MultipathUnhealthyPaths > 0)
        {
            list.Add(Make(Severities.Warning, FindingCodes.MultipathDegraded,
                $"Multipath device {mp.Name} has {f.MultipathUnhealthyPaths} of {mp.PathCount} paths not running ({string.Join(", ", mp.PathStates)}).",
                "Repair the failed paths before testing; results on a degraded map understate the design."));
        }
    }

    /// <summary>
    /// The results model of the volume: the description the probe filled in, with the findings, and on a file
    /// system without Exchange's cluster rule its block size as the cluster size (never a guess for NTFS/ReFS).
    /// </summary>
    public static VolumeReport ToReport(VolumeFacts f, List<Finding> findings)
    {
        VolumeReport report = f.Volume;
        if (!IsExchangeFileSystem(report.FileSystem)) report.ClusterSizeBytes ??= f.FileSystemBlockBytes;
        report.Findings = findings;
        return report;
    }

    private static Finding Make(string severity, string code, string message, string? advice) =>
        new() { Severity = severity, Code = code, Message = message, Advice = advice };

    private static string Kb(long bytes) => bytes % 1024 == 0
        ? (bytes / 1024).ToString(CultureInfo.InvariantCulture) + " KB"
        : bytes.ToString(CultureInfo.InvariantCulture) + " bytes";

    private static string Gib(long bytes) =>
        (bytes / (1024.0 * 1024 * 1024)).ToString("0.##", CultureInfo.InvariantCulture) + " GiB";
}
