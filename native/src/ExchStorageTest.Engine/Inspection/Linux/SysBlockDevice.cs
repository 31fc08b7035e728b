using System.Globalization;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>
/// What sysfs says about a block device (a partition is described together with its whole disk).
/// The root is a parameter so tests feed a fake tree; real sysfs follows /sys/block/* symlinks.
/// </summary>
public sealed record SysBlockDevice(
    string Name,
    string DiskName,
    bool IsPartition,
    long? PartitionStartSectors512,
    int? LogicalBlockSize,
    int? PhysicalBlockSize,
    string? Vendor,
    string? Model,
    string? FirmwareRevision,
    string? BusType,
    bool? Rotational,
    string? DmName,
    string? DmUuid,
    string? WriteCache = null)
{
    public long? PartitionOffsetBytes => IsPartition ? PartitionStartSectors512 * 512 : 0;

    public string DevicePath => "/dev/" + Name;

    /// <summary>Finds the device whose dev file holds "major:minor" under {root}/block/*[/*]/dev.</summary>
    public static SysBlockDevice? FromDeviceNumber(string sysRoot, int major, int minor)
    {
        string want = $"{major}:{minor}";
        string blockDir = Path.Combine(sysRoot, "block");
        if (!Directory.Exists(blockDir)) return null;
        foreach (var disk in Directory.EnumerateDirectories(blockDir))
        {
            if (ReadText(Path.Combine(disk, "dev")) == want) return Read(sysRoot, Path.GetFileName(disk), null);
            foreach (var part in Directory.EnumerateDirectories(disk))
            {
                if (!File.Exists(Path.Combine(part, "partition"))) continue;
                if (ReadText(Path.Combine(part, "dev")) == want)
                    return Read(sysRoot, Path.GetFileName(disk), Path.GetFileName(part));
            }
        }
        return null;
    }

    /// <summary>Reads a whole disk (<paramref name="partition"/> null) or one of its partitions.</summary>
    public static SysBlockDevice Read(string sysRoot, string disk, string? partition)
    {
        string diskDir = Path.Combine(sysRoot, "block", disk);
        long? start = partition == null ? null : ReadLong(Path.Combine(diskDir, partition, "start"));
        string? rot = ReadText(Path.Combine(diskDir, "queue", "rotational"));
        string device = Path.Combine(diskDir, "device");
        return new SysBlockDevice(
            partition ?? disk,
            disk,
            partition != null,
            start,
            (int?)ReadLong(Path.Combine(diskDir, "queue", "logical_block_size")),
            (int?)ReadLong(Path.Combine(diskDir, "queue", "physical_block_size")),
            // SCSI/SATA and virtio name the vendor on the device; an NVMe namespace's device is its
            // controller, whose PCI function (device/device) carries the vendor id.
            ReadText(Path.Combine(device, "vendor")) ?? ReadText(Path.Combine(device, "device", "vendor")),
            ReadText(Path.Combine(device, "model")),
            ReadText(Path.Combine(device, "rev")) ?? ReadText(Path.Combine(device, "firmware_rev")),
            BusTypeOf(RealPath(diskDir)),
            rot == null ? null : rot == "1",
            ReadText(Path.Combine(diskDir, "dm", "name")),
            ReadText(Path.Combine(diskDir, "dm", "uuid")),
            ReadText(Path.Combine(diskDir, "queue", "write_cache")));
    }

    /// <summary>
    /// queue/write_cache: "write back" is a volatile cache the block layer flushes (REQ_PREFLUSH/FUA) for every
    /// write-through and fsync; "write through" is none, or one the device keeps safe (block/queue-sysfs.rst).
    /// </summary>
    public WriteCacheFacts? WriteCacheFacts() => WriteCache switch
    {
        "write back" => new WriteCacheFacts(true, true, null, $"/sys/block/{DiskName}/queue/write_cache: write back"),
        "write through" => new WriteCacheFacts(false, null, null, $"/sys/block/{DiskName}/queue/write_cache: write through"),
        _ => null,
    };

    /// <summary>"dm-crypt (LUKS2)" for a device-mapper crypt target (its uuid starts CRYPT-); null otherwise.</summary>
    public string? Encryption() =>
        DmUuid is { } u && u.StartsWith("CRYPT-", StringComparison.Ordinal)
            ? "dm-crypt" + (u.Split('-') is { Length: > 2 } parts ? $" ({parts[1]})" : "")
            : null;

    /// <summary>
    /// How the host reaches a disk, read from its place in the sysfs device tree
    /// ("/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/..." is SATA); null when the path says nothing known.
    /// </summary>
    public static string? BusTypeOf(string? devicePath)
    {
        if (string.IsNullOrEmpty(devicePath)) return null;
        bool Has(string marker) => devicePath.Contains(marker, StringComparison.Ordinal);
        if (Has("/virtio")) return "virtio";
        if (Has("/nvme")) return "NVMe";
        if (Has("/rport-")) return "Fibre Channel";
        if (Has("/session")) return "iSCSI";
        if (Has("/end_device-")) return "SAS";
        if (Has("/usb")) return "USB";
        if (Has("/ata")) return "SATA";
        return null;
    }

    private static string? RealPath(string path)
    {
        try
        {
            var target = new DirectoryInfo(path).ResolveLinkTarget(returnFinalTarget: true);
            return target?.FullName ?? path;
        }
        catch (IOException) { return null; }
        catch (UnauthorizedAccessException) { return null; }
    }

    internal static string? ReadText(string path)
    {
        try
        {
            if (!File.Exists(path)) return null;
            var s = File.ReadAllText(path).Trim();
            return s.Length == 0 ? null : s;
        }
        catch (IOException) { return null; }
        catch (UnauthorizedAccessException) { return null; }
    }

    internal static long? ReadLong(string path) =>
        long.TryParse(ReadText(path), NumberStyles.Integer, CultureInfo.InvariantCulture, out long v) ? v : null;
}
