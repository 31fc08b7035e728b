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
        var facts = new VolumeFacts { Platform = VolumePlatform.Linux, Volume = { Path = path } };
        string existing = NearestExisting(Path.GetFullPath(path));
        string real = LinuxVolumeNative.RealPath(existing) ?? existing;
        facts.ProbedPath = real;

        var mount = MountInfo.FindForPath(MountInfo.Parse(File.ReadAllText(MountInfo.ProcPath)), real);
        if (mount != null)
        {
            facts.Volume.MountPoint = mount.MountPoint;
            facts.Volume.FileSystem = mount.FileSystemType;
            facts.MountSource = mount.Source;
            facts.Compression = mount.Compression();
        }
        // chattr +c on the folder: the file system compresses every file created in it.
        if (LinuxVolumeNative.GetInodeFlags(real, out _) is int flags && InodeFlags.Compressed(flags))
            facts.Compression ??= $"the compression attribute (chattr +c) on {real}";

        if (LinuxVolumeNative.GetStatVfs(real, out int errno) is { } vfs)
        {
            facts.Volume.TotalBytes = vfs.TotalBytes;
            facts.Volume.FreeBytes = vfs.AvailableBytes;
            facts.FileSystemBlockBytes = vfs.FragmentSize > 0 ? vfs.FragmentSize : vfs.BlockSize;
        }
        else
        {
            facts.Notes.Add($"statvfs({real}) failed with errno {errno}.");
        }

        SysBlockDevice? dev = mount == null ? null : SysBlockDevice.FromDeviceNumber(sysRoot, mount.Major, mount.Minor);
        if (dev != null)
        {
            facts.Volume.Device = dev.DevicePath;
            facts.Volume.LogicalSectorBytes = dev.LogicalBlockSize;
            facts.Volume.PhysicalSectorBytes = dev.PhysicalBlockSize;
            facts.Volume.PartitionOffsetBytes = dev.PartitionOffsetBytes;
            facts.Volume.Vendor = dev.Vendor;
            facts.Volume.Model = dev.Model;
            facts.Volume.FirmwareRevision = dev.FirmwareRevision;
            facts.Volume.BusType = dev.BusType;
            facts.WriteCache = dev.WriteCacheFacts();
            facts.VolumeEncryption = dev.Encryption();
            if (DmMultipath.Read(sysRoot, dev.DiskName) is { } map)
            {
                facts.Volume.Multipath = DmMultipath.ToReport(map, DmSetup.TryTable(map.Name));
                facts.MultipathUnhealthyPaths = map.UnhealthyPathCount;
                facts.Volume.Vendor ??= map.Paths.Select(p => p.Vendor).FirstOrDefault(v => v != null);
                facts.Volume.Model ??= map.Paths.Select(p => p.Model).FirstOrDefault(v => v != null);
            }
        }
        else if (mount != null && mount.Source.StartsWith("/dev/", StringComparison.Ordinal))
        {
            facts.Volume.Device = mount.Source;
        }

        if (facts.Volume.Device != null && IsNtfsCandidate(facts.Volume.FileSystem))
            ReadNtfsBootSector(facts);

        if (probeDirectIo && Directory.Exists(real))
        {
            var r = DirectIoProbe.Probe(real, Math.Max(4096, facts.Volume.PhysicalSectorBytes ?? 4096));
            facts.Volume.DirectIoSupported = r.Supported;
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
            using (var h = File.OpenHandle(facts.Volume.Device!, FileMode.Open, FileAccess.Read, FileShare.ReadWrite))
            {
                int got = RandomAccess.Read(h, sector, 0);
                if (got < sector.Length) { facts.Notes.Add($"Short read of the boot sector of {facts.Volume.Device}."); return; }
            }
            if (!NtfsBootSector.LooksLikeNtfs(sector)) return;
            var boot = NtfsBootSector.Parse(sector);
            facts.Volume.FileSystemDriver = facts.Volume.FileSystem;
            facts.Volume.FileSystem = "NTFS";
            facts.Volume.ClusterSizeBytes = boot.BytesPerCluster;
            facts.ClusterSizeSource = $"NTFS boot sector of {facts.Volume.Device}";
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or Protocol.EngineException)
        {
            facts.Notes.Add($"Could not read the NTFS boot sector of {facts.Volume.Device}: {e.Message}");
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
