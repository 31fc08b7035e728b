using System.Buffers.Binary;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>PARTITION_INFORMATION_EX (IOCTL_DISK_GET_PARTITION_INFO_EX), the fields the alignment rule needs.</summary>
public sealed record PartitionInformation(
    int PartitionStyle,
    long StartingOffset,
    long PartitionLength,
    int PartitionNumber,
    bool RewritePartition)
{
    public const int Size = 144;
    public const uint IoctlDiskGetPartitionInfoEx = 0x00070048;

    public string PartitionStyleName => PartitionStyle switch
    {
        0 => "MBR",
        1 => "GPT",
        2 => "RAW",
        _ => $"Style {PartitionStyle}",
    };

    public static PartitionInformation Parse(ReadOnlySpan<byte> b)
    {
        // The union after byte 32 (MBR/GPT details) is not needed for the alignment check; only the header is required.
        IoctlBuffer.RequireLength(b, 32, "PARTITION_INFORMATION_EX");
        return new PartitionInformation(
            BinaryPrimitives.ReadInt32LittleEndian(b),
            BinaryPrimitives.ReadInt64LittleEndian(b[8..]),
            BinaryPrimitives.ReadInt64LittleEndian(b[16..]),
            BinaryPrimitives.ReadInt32LittleEndian(b[24..]),
            b[28] != 0);
    }
}
