using System.Buffers.Binary;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>One DISK_EXTENT (24 bytes): DiskNumber maps to \\.\PhysicalDriveN.</summary>
public readonly record struct DiskExtent(int DiskNumber, long StartingOffset, long ExtentLength);

/// <summary>VOLUME_DISK_EXTENTS (IOCTL_VOLUME_GET_VOLUME_DISK_EXTENTS): a count at 0, extents from offset 8.</summary>
public static class VolumeDiskExtents
{
    public const uint IoctlVolumeGetVolumeDiskExtents = 0x00560000;
    public const int HeaderSize = 8;
    public const int ExtentSize = 24;

    /// <summary>Bytes needed for <paramref name="count"/> extents (retry size after ERROR_MORE_DATA).</summary>
    public static int BufferSize(int count) => HeaderSize + Math.Max(1, count) * ExtentSize;

    public static int ReadCount(ReadOnlySpan<byte> b)
    {
        IoctlBuffer.RequireLength(b, 4, "VOLUME_DISK_EXTENTS");
        return BinaryPrimitives.ReadInt32LittleEndian(b);
    }

    public static List<DiskExtent> Parse(ReadOnlySpan<byte> b)
    {
        int count = ReadCount(b);
        if (count < 0 || count > 4096)
            throw new EngineException("InvalidIoctlBuffer", ErrorCategories.InvalidData,
                $"VOLUME_DISK_EXTENTS reports {count} extents.");
        IoctlBuffer.RequireLength(b, HeaderSize + count * ExtentSize, "VOLUME_DISK_EXTENTS");
        var list = new List<DiskExtent>(count);
        for (int i = 0; i < count; i++)
        {
            var e = b.Slice(HeaderSize + i * ExtentSize, ExtentSize);
            list.Add(new DiskExtent(
                BinaryPrimitives.ReadInt32LittleEndian(e),
                BinaryPrimitives.ReadInt64LittleEndian(e[8..]),
                BinaryPrimitives.ReadInt64LittleEndian(e[16..])));
        }
        return list;
    }
}
