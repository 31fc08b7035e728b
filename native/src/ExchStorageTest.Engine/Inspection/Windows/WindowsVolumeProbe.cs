using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// The thin Windows layer: volume root and name, file system, free space, and the IOCTLs whose outputs
/// the pure parsers decode. Compiled on every OS; it has only ever run on Windows in principle —
/// the Linux build machines cannot execute it (see research/windows.md section 6).
/// </summary>
[SupportedOSPlatform("windows")]
public static unsafe class WindowsVolumeProbe
{
    public static VolumeFacts Probe(string path)
    {
        var facts = new VolumeFacts { Platform = VolumePlatform.Windows, Volume = { Path = path } };
        string full = Path.GetFullPath(path);
        facts.ProbedPath = full;

        string? root = VolumeRoot(full);
        if (root == null) { facts.Notes.Add($"GetVolumePathName failed for {full} (error {Marshal.GetLastPInvokeError()})."); return facts; }
        facts.Volume.MountPoint = root;
        string existing = NearestExisting(full);

        char* fsName = stackalloc char[64];
        if (WindowsVolumeNative.GetVolumeInformation(root, null, 0, out _, out _, out _, fsName, 64))
            facts.Volume.FileSystem = new string(fsName);
        else
            facts.Notes.Add($"GetVolumeInformation({root}) failed (error {Marshal.GetLastPInvokeError()}).");

        if (WindowsVolumeNative.GetDiskFreeSpaceEx(existing, out ulong avail, out ulong total, out _))
        {
            facts.Volume.FreeBytes = (long)avail;
            facts.Volume.TotalBytes = (long)total;
        }
        if (WindowsVolumeNative.GetDiskFreeSpace(root, out uint spc, out uint bps, out _, out _))
        {
            facts.Volume.ClusterSizeBytes = (long)spc * bps;
            facts.ClusterSizeSource = "GetDiskFreeSpace";
            facts.Volume.LogicalSectorBytes = (int)bps;
        }

        string device = VolumeDevicePath(root);
        facts.Volume.Device = device;
        using (var h = WindowsVolumeNative.CreateFile(device, 0, WindowsVolumeNative.FileShareRead | WindowsVolumeNative.FileShareWrite,
                   0, WindowsVolumeNative.OpenExisting, 0, 0))
        {
            if (h.IsInvalid)
            {
                facts.Notes.Add($"Could not open {device} for IOCTLs (error {Marshal.GetLastPInvokeError()}).");
            }
            else
            {
                QueryVolume(h, facts);
            }
        }

        FolderFeatures(existing, facts);
        ProbeDirectIo(existing, facts);
        return facts;
    }

    /// <summary>
    /// The folder's attributes (new files inherit compression, EFS and integrity streams from it) and those of the
    /// database files already in it. Deduplication and BitLocker have no file attribute: they are said to be unread.
    /// </summary>
    private static void FolderFeatures(string folder, VolumeFacts facts)
    {
        try
        {
            var files = Directory.Exists(folder) ? Directory.EnumerateFiles(folder, "*.edb").Take(64).ToList() : new List<string>();
            foreach (var (path, attributes) in new[] { folder }.Concat(files).Select(p => (p, File.GetAttributes(p))))
            {
                var judged = FileFeatures.Of(path, attributes);
                facts.Compression ??= judged.Compression;
                facts.FileEncryption ??= judged.FileEncryption;
                facts.IntegrityStreams ??= judged.IntegrityStreams;
            }
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            facts.Notes.Add($"The attributes of {folder} could not be read ({e.Message}): compression, EFS and integrity streams were not checked.");
        }
        facts.Notes.Add("Deduplication and BitLocker are not read by the engine: check them with Get-DedupVolume / Get-ReFSDedupStatus and Get-BitLockerVolume (Exchange does not support deduplication; BitLocker is supported).");
    }

    private static void QueryVolume(SafeFileHandle h, VolumeFacts facts)
    {
        if (Ioctl(h, NtfsVolumeData.FsctlGetNtfsVolumeData, default, NtfsVolumeData.Size) is { } ntfs)
        {
            var d = NtfsVolumeData.Parse(ntfs);
            facts.Volume.ClusterSizeBytes = d.BytesPerCluster;
            facts.ClusterSizeSource = "FSCTL_GET_NTFS_VOLUME_DATA";
        }
        if (QueryProperty(h, StorageAccessAlignment.PropertyId, 64) is { } align)
        {
            var a = StorageAccessAlignment.Parse(align);
            facts.Volume.LogicalSectorBytes = a.BytesPerLogicalSector;
            facts.Volume.PhysicalSectorBytes = a.BytesPerPhysicalSector;
        }
        if (QueryProperty(h, StorageDeviceDescriptor.PropertyId, 1024) is { } desc)
        {
            var d = StorageDeviceDescriptor.Parse(desc);
            facts.Volume.Vendor = d.VendorId;
            facts.Volume.Model = d.ProductId;
            facts.Volume.FirmwareRevision = d.ProductRevision;
            facts.Volume.BusType = d.BusTypeName;
        }
        if (QueryProperty(h, StorageWriteCache.PropertyId, StorageWriteCache.Size) is { } cache && StorageWriteCache.Parse(cache) is { } wc)
            facts.WriteCache = wc.ToFacts();
        if (Ioctl(h, PartitionInformation.IoctlDiskGetPartitionInfoEx, default, PartitionInformation.Size) is { } part)
            facts.Volume.PartitionOffsetBytes = PartitionInformation.Parse(part).StartingOffset;

        var extents = Extents(h);
        if (extents is { Count: 1 })
        {
            facts.Volume.Device = $@"\\.\PhysicalDrive{extents[0].DiskNumber}";
            facts.Volume.Multipath = WindowsMpclaim.TryReport(extents[0].DiskNumber);
        }
        else if (extents is { Count: > 1 })
        {
            facts.Notes.Add($"The volume spans {extents.Count} disks; per-disk checks use the volume as a whole.");
        }
    }

    private static List<DiskExtent>? Extents(SafeFileHandle h)
    {
        int count = 1;
        for (int attempt = 0; attempt < 4; attempt++)
        {
            var buf = new byte[VolumeDiskExtents.BufferSize(count)];
            fixed (byte* p = buf)
            {
                if (WindowsVolumeNative.DeviceIoControl(h, VolumeDiskExtents.IoctlVolumeGetVolumeDiskExtents, null, 0, p, (uint)buf.Length, out _, 0))
                    return VolumeDiskExtents.Parse(buf);
            }
            if (Marshal.GetLastPInvokeError() != WindowsVolumeNative.ErrorMoreData) return null;
            count = Math.Max(count * 2, VolumeDiskExtents.ReadCount(buf));
        }
        return null;
    }

    private static byte[]? QueryProperty(SafeFileHandle h, int propertyId, int outSize)
    {
        // STORAGE_PROPERTY_QUERY: PropertyId, QueryType (0 = PropertyStandardQuery), AdditionalParameters[1], padded to 12.
        Span<byte> query = stackalloc byte[12];
        query.Clear();
        System.Buffers.Binary.BinaryPrimitives.WriteInt32LittleEndian(query, propertyId);
        return Ioctl(h, WindowsVolumeNative.IoctlStorageQueryProperty, query, outSize);
    }

    private static byte[]? Ioctl(SafeFileHandle h, uint code, ReadOnlySpan<byte> input, int outSize)
    {
        var output = new byte[outSize];
        fixed (byte* i = input)
        fixed (byte* o = output)
        {
            if (!WindowsVolumeNative.DeviceIoControl(h, code, input.IsEmpty ? null : i, (uint)input.Length, o, (uint)outSize, out uint got, 0))
                return null;
            return output.AsSpan(0, (int)got).ToArray();
        }
    }

    /// <summary>FILE_FLAG_NO_BUFFERING is accepted at open time or refused (network redirectors may refuse it).</summary>
    private static void ProbeDirectIo(string directory, VolumeFacts facts)
    {
        if (!Directory.Exists(directory)) return;
        string probe = Path.Combine(directory, $".exchstoragetest-probe-{Guid.NewGuid():N}.tmp");
        using var h = WindowsVolumeNative.CreateFile(probe, WindowsVolumeNative.GenericWrite, 0, 0, WindowsVolumeNative.CreateNew,
            WindowsVolumeNative.FileFlagNoBuffering | WindowsVolumeNative.FileFlagWriteThrough | WindowsVolumeNative.FileFlagDeleteOnClose, 0);
        facts.Volume.DirectIoSupported = !h.IsInvalid;
        facts.DirectIoDetail = h.IsInvalid
            ? $"CreateFile with FILE_FLAG_NO_BUFFERING failed (error {Marshal.GetLastPInvokeError()})"
            : "CreateFile with FILE_FLAG_NO_BUFFERING succeeded";
    }

    internal static string? VolumeRoot(string full)
    {
        char* buf = stackalloc char[1024];
        return WindowsVolumeNative.GetVolumePathName(full, buf, 1024) ? new string(buf) : null;
    }

    /// <summary>"E:\" opens as \\.\E:; a folder mount point as its \\?\Volume{GUID} name without the trailing backslash.</summary>
    private static string VolumeDevicePath(string root)
    {
        if (root.Length == 3 && root[1] == ':') return @"\\.\" + root[..2];
        char* buf = stackalloc char[128];
        if (WindowsVolumeNative.GetVolumeNameForVolumeMountPoint(root, buf, 128))
            return new string(buf).TrimEnd('\\');
        return @"\\.\" + root.TrimEnd('\\');
    }

    internal static string NearestExisting(string full)
    {
        string? p = full;
        while (p != null && !Directory.Exists(p) && !File.Exists(p)) p = Path.GetDirectoryName(p);
        return p ?? full;
    }
}
