using System.Buffers.Binary;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>NTFS_VOLUME_DATA_BUFFER, the output of FSCTL_GET_NTFS_VOLUME_DATA (96 bytes, x64 and x86 alike).</summary>
public sealed record NtfsVolumeData(
    ulong VolumeSerialNumber,
    long NumberSectors,
    long TotalClusters,
    long FreeClusters,
    long TotalReserved,
    int BytesPerSector,
    int BytesPerCluster,
    int BytesPerFileRecordSegment,
    int ClustersPerFileRecordSegment,
    long MftValidDataLength,
    long MftStartLcn,
    long Mft2StartLcn,
    long MftZoneStart,
    long MftZoneEnd)
{
    public const int Size = 96;
    public const uint FsctlGetNtfsVolumeData = 0x00090064;

    public static NtfsVolumeData Parse(ReadOnlySpan<byte> b)
    {
        IoctlBuffer.RequireLength(b, Size, "NTFS_VOLUME_DATA_BUFFER");
        return new NtfsVolumeData(
            BinaryPrimitives.ReadUInt64LittleEndian(b),
            BinaryPrimitives.ReadInt64LittleEndian(b[8..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[16..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[24..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[32..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[40..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[44..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[48..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[52..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[56..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[64..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[72..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[80..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[88..]));
    }
}
