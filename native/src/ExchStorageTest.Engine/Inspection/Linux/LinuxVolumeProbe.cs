using System.Runtime.Versioning;
using ExchStorageTest.Engine.Inspection.Multipath;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>
/// The thin Linux layer: mountinfo, statvfs, sysfs, the NTFS boot sector read from the device, and the
/// O_DIRECT probe. Every decision about what the facts mean is in <see cref="VolumeRules"/>.
/// </summary>
public static class LinuxVolumeProbe
{
    [SupportedOSPlatform("linux")]
    public static VolumeFacts Probe(string path, bool probeDirectIo, string sysRoot = "/sys")
    {
        var facts = new VolumeFacts { Path = path, Platform = VolumePlatform.Linux };
        string existing = NearestExisting(Path.GetFullPath(path));
        string real = LinuxVolumeNative.RealPath(existing) ?? existing;
        facts.ProbedPath = real;

        var mount = MountInfo.FindForPath(MountInfo.Parse(File.ReadAllText(MountInfo.ProcPath)), real);
        if (mount != null)
        {
            facts.MountPoint = mount.MountPoint;
            facts.FileSystem = mount.FileSystemType;
            facts.MountSource = mount.Source;
        }

        if (LinuxVolumeNative.GetStatVfs(real, out int errno) is { } vfs)
        {
            facts.TotalBytes = vfs.TotalBytes;
            facts.FreeBytes = vfs.AvailableBytes;
            facts.FileSystemBlockBytes = vfs.FragmentSize > 0 ? vfs.FragmentSize : vfs.BlockSize;
        }
        else
        {
            facts.Notes.Add($"statvfs({real}) failed with errno {errno}.");
        }

        SysBlockDevice? dev = mount == null ? null : SysBlockDevice.FromDeviceNumber(sysRoot, mount.Major, mount.Minor);
        if (dev != null)
        {
            facts.Device = dev.DevicePath;
            facts.LogicalSectorBytes = dev.LogicalBlockSize;
            facts.PhysicalSectorBytes = dev.PhysicalBlockSize;
            facts.PartitionOffsetBytes = dev.PartitionOffsetBytes;
            facts.Vendor = dev.Vendor;
            facts.Model = dev.Model;
            facts.FirmwareRevision = dev.FirmwareRevision;
            facts.BusType = dev.BusType;
            if (DmMultipath.Read(sysRoot, dev.DiskName) is { } map)
            {
                facts.Multipath = DmMultipath.ToReport(map, DmSetup.TryTable(map.Name));
                facts.MultipathUnhealthyPaths = map.UnhealthyPathCount;
                facts.Vendor ??= map.Paths.Select(p => p.Vendor).FirstOrDefault(v => v != null);
                facts.Model ??= map.Paths.Select(p => p.Model).FirstOrDefault(v => v != null);
            }
        }
        else if (mount != null && mount.Source.StartsWith("/dev/", StringComparison.Ordinal))
        {
            facts.Device = mount.Source;
        }

        if (facts.Device != null && IsNtfsCandidate(facts.FileSystem))
            ReadNtfsBootSector(facts);

        if (probeDirectIo && Directory.Exists(real))
        {
            var r = DirectIoProbe.Probe(real, Math.Max(4096, facts.PhysicalSectorBytes ?? 4096));
            facts.DirectIoSupported = r.Supported;
            facts.DirectIoDetail = r.Detail;
        }
        return facts;
    }

    /// <summary>ntfs-3g mounts show as fuseblk; the kernel drivers as ntfs3 or ntfs.</summary>
    public static bool IsNtfsCandidate(string? fsType) => fsType is "fuseblk" or "ntfs" or "ntfs3" or "ntfs-3g";

    [SupportedOSPlatform("linux")]
    private static void ReadNtfsBootSector(VolumeFacts facts)
    {
        try
        {
            var sector = new byte[NtfsBootSector.Length];
            using (var h = File.OpenHandle(facts.Device!, FileMode.Open, FileAccess.Read, FileShare.ReadWrite))
            {
                int got = RandomAccess.Read(h, sector, 0);
                if (got < sector.Length) { facts.Notes.Add($"Short read of the boot sector of {facts.Device}."); return; }
            }
            if (!NtfsBootSector.LooksLikeNtfs(sector)) return;
            var boot = NtfsBootSector.Parse(sector);
            facts.FileSystemDriver = facts.FileSystem;
            facts.FileSystem = "NTFS";
            facts.ClusterSizeBytes = boot.BytesPerCluster;
            facts.ClusterSizeSource = $"NTFS boot sector of {facts.Device}";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or Protocol.EngineException)
        {
            facts.Notes.Add($"Could not read the NTFS boot sector of {facts.Device}: {e.Message}");
        }
    }

    /// <summary>A database folder may not exist yet; its volume is that of the nearest existing ancestor.</summary>
    internal static string NearestExisting(string fullPath)
    {
        string? p = fullPath;
        while (p != null && !Directory.Exists(p) && !File.Exists(p)) p = Path.GetDirectoryName(p);
        return p ?? "/";
    }
}
