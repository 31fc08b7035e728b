using System.Buffers.Binary;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR (IOCTL_STORAGE_QUERY_PROPERTY, StorageAccessAlignmentProperty):
/// the only Windows source of the physical sector size (GetDiskFreeSpace gives the logical one).
/// </summary>
public sealed record StorageAccessAlignment(
    int Version,
    int Size,
    int BytesPerCacheLine,
    int BytesOffsetForCacheAlignment,
    int BytesPerLogicalSector,
    int BytesPerPhysicalSector,
    int BytesOffsetForSectorAlignment)
{
    public const int StructSize = 28;
    public const int PropertyId = 6;

    public static StorageAccessAlignment Parse(ReadOnlySpan<byte> b)
    {
        IoctlBuffer.RequireLength(b, StructSize, "STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR");
        return new StorageAccessAlignment(
            BinaryPrimitives.ReadInt32LittleEndian(b),
            BinaryPrimitives.ReadInt32LittleEndian(b[4..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[8..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[12..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[16..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[20..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[24..]));
    }
}
