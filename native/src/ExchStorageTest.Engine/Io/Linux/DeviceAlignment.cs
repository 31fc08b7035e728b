using System.Globalization;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>
/// What the device under a file needs for direct I/O. Each value is 0 when it could not be learned.
/// </summary>
public readonly record struct DeviceAlignment(
    int DioMemoryAlignment,
    int DioOffsetAlignment,
    int LogicalBlockSize,
    int PhysicalBlockSize,
    string Source)
{
    /// <summary>The floor: page size, which every direct-I/O path accepts.</summary>
    public const int Minimum = 4096;

    /// <summary>
    /// The alignment the engine uses for offsets, lengths and buffers: max(4096, physical block, the
    /// kernel's DIO requirements). The physical block matters even where the kernel accepts the
    /// logical one: on 512e drives a 512-byte-aligned write is a read-modify-write.
    /// </summary>
    public int Effective
    {
        get
        {
            int a = Math.Max(Minimum, Math.Max(PhysicalBlockSize, Math.Max(DioMemoryAlignment, DioOffsetAlignment)));
            return System.Numerics.BitOperations.IsPow2(a) ? a : (int)System.Numerics.BitOperations.RoundUpToPowerOf2((uint)a);
        }
    }
}

/// <summary>
/// Probes <see cref="DeviceAlignment"/> for an open fd: statx(STATX_DIOALIGN) (Linux 6.1+) for the
/// kernel's own DIO limits, then /sys/dev/block/MAJOR:MINOR for the logical and physical block sizes
/// (a partition's own directory has no queue/, so its parent disk's is used). File systems with no
/// backing block device (tmpfs, NFS, FUSE, btrfs's anonymous dev) leave the sysfs values 0.
/// </summary>
public static unsafe class DeviceAlignmentProbe
{
    public static DeviceAlignment Probe(int fd, string sysRoot = "/sys")
    {
        Statx st = default;
        int dioMem = 0, dioOffset = 0;
        uint major = 0, minor = 0;
        string source = "default";
        if (LibC.StatxCall(fd, "", LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS | LibC.STATX_DIOALIGN, &st) == 0)
        {
            major = st.DevMajor;
            minor = st.DevMinor;
            if ((st.Mask & LibC.STATX_DIOALIGN) != 0 && st.DioOffsetAlign != 0)
            {
                dioMem = (int)st.DioMemAlign;
                dioOffset = (int)st.DioOffsetAlign;
                source = "statx";
            }
        }
        (int logical, int physical) = major == 0 && minor == 0 ? (0, 0) : ReadSysfs(sysRoot, major, minor);
        if (physical != 0) source = source == "statx" ? "statx+sysfs" : "sysfs";
        return new DeviceAlignment(dioMem, dioOffset, logical, physical, source);
    }

    /// <summary>Logical and physical block sizes of block device MAJOR:MINOR, or zeros.</summary>
    public static (int Logical, int Physical) ReadSysfs(string sysRoot, uint major, uint minor)
    {
        string dev = Path.Combine(sysRoot, "dev", "block", $"{major}:{minor}");
        if (!Directory.Exists(dev)) return (0, 0);
        string queue = Path.Combine(dev, "queue");
        if (!Directory.Exists(queue))
        {
            // A partition: the queue belongs to the whole disk, the parent of the resolved directory.
            string resolved = Directory.ResolveLinkTarget(dev, returnFinalTarget: true)?.FullName ?? dev;
            string? parent = Path.GetDirectoryName(Path.TrimEndingDirectorySeparator(resolved));
            if (parent is null) return (0, 0);
            queue = Path.Combine(parent, "queue");
        }
        return (ReadInt(Path.Combine(queue, "logical_block_size")), ReadInt(Path.Combine(queue, "physical_block_size")));
    }

    private static int ReadInt(string path)
    {
        try
        {
            return int.TryParse(File.ReadAllText(path).Trim(), NumberStyles.None, CultureInfo.InvariantCulture, out int v) && v > 0 ? v : 0;
        }
        catch (IOException) { return 0; }
        catch (UnauthorizedAccessException) { return 0; }
    }
}
