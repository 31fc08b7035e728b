using System.Buffers.Binary;
using System.Text;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Log generation files (1 MiB). Bytes 0..4095 are the file header: [0] CRC32C of 4..4095,
/// [4] "ESTL", [8] format version, [12] instance index, [16] instance id, [24] generation
/// (0 = created, never used), [32] created UTC ticks, [64..] the marker text. Log blocks follow
/// from 4096, each a multiple of 4096 bytes: [0] CRC32C of 4..length, [4] "ESTB", [8] length,
/// [12] sequence in the generation, [16] generation, [24] instance id, [32] record count,
/// [40..] one u32 page number per page update (what replay re-applies), then incompressible filler.
/// </summary>
public static class LogFormat
{
    public const int FileSize = 1024 * 1024;
    public const int Sector = 4096;
    public const int FileHeaderBytes = Sector;
    public const uint FileMagic = 0x4C545345;  // "ESTL"
    public const uint BlockMagic = 0x42545345; // "ESTB"
    public const int BlockHeaderBytes = 40;
    public const int CurrentFormatVersion = 1;

    public static void WriteFileHeader(Span<byte> sector, int instanceIndex, ulong instanceId, long generation, DateTime createdUtc)
    {
        sector.Slice(0, Sector).Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(sector.Slice(4), FileMagic);
        BinaryPrimitives.WriteInt32LittleEndian(sector.Slice(8), CurrentFormatVersion);
        BinaryPrimitives.WriteInt32LittleEndian(sector.Slice(12), instanceIndex);
        BinaryPrimitives.WriteUInt64LittleEndian(sector.Slice(16), instanceId);
        BinaryPrimitives.WriteInt64LittleEndian(sector.Slice(24), generation);
        BinaryPrimitives.WriteInt64LittleEndian(sector.Slice(32), createdUtc.Ticks);
        for (int i = 0; i < DatabaseHeader.Marker.Length; i++) sector[64 + i] = (byte)DatabaseHeader.Marker[i];
        BinaryPrimitives.WriteUInt32LittleEndian(sector, Crc32C.Compute(sector.Slice(4, Sector - 4)));
    }

    public readonly record struct FileHeader(int InstanceIndex, ulong InstanceId, long Generation, DateTime CreatedUtc);

    public static FileHeader? TryReadFileHeader(ReadOnlySpan<byte> sector)
    {
        if (sector.Length < Sector || !LooksOurs(sector)) return null;
        if (Crc32C.Compute(sector.Slice(4, Sector - 4)) != BinaryPrimitives.ReadUInt32LittleEndian(sector)) return null;
        return new FileHeader(BinaryPrimitives.ReadInt32LittleEndian(sector.Slice(12)), BinaryPrimitives.ReadUInt64LittleEndian(sector.Slice(16)),
            BinaryPrimitives.ReadInt64LittleEndian(sector.Slice(24)), new DateTime(BinaryPrimitives.ReadInt64LittleEndian(sector.Slice(32)), DateTimeKind.Utc));
    }

    public static bool LooksOurs(ReadOnlySpan<byte> sector) =>
        sector.Length >= 128 && BinaryPrimitives.ReadUInt32LittleEndian(sector.Slice(4)) == FileMagic
        && sector.Slice(64, DatabaseHeader.Marker.Length).SequenceEqual(Encoding.ASCII.GetBytes(DatabaseHeader.Marker));

    /// <summary>
    /// True when a log file whose first bytes are <paramref name="start"/> (its header sector and first block, or as
    /// much as it holds) was written by ExchStorageTest: the header's magic or its marker text, or an "ESTB" block
    /// right after the header. A log of ours with a damaged header is still ours (a bad log); a file of the same
    /// name pattern that never was one (Exchange's own E00*.log) is refused as foreign by the checksum pass.
    /// </summary>
    public static bool IsOurs(ReadOnlySpan<byte> start)
    {
        if (start.Length >= 128 && (BinaryPrimitives.ReadUInt32LittleEndian(start.Slice(4)) == FileMagic
            || start.Slice(64, DatabaseHeader.Marker.Length).SequenceEqual(Encoding.ASCII.GetBytes(DatabaseHeader.Marker)))) return true;
        return start.Length >= FileHeaderBytes + BlockHeaderBytes && BinaryPrimitives.ReadUInt32LittleEndian(start.Slice(FileHeaderBytes + 4)) == BlockMagic;
    }

    /// <summary>Most page records a block of <paramref name="length"/> bytes can carry.</summary>
    public static int MaxRecords(int length) => (length - BlockHeaderBytes) / 4;

    /// <summary>Writes a log block: header, page records, filler, CRC. No allocation (runs in the I/O loop).</summary>
    public static void WriteBlock(Span<byte> block, int length, int sequence, long generation, ulong instanceId, ReadOnlySpan<int> pages)
    {
        var b = block.Slice(0, length);
        BinaryPrimitives.WriteUInt32LittleEndian(b.Slice(4), BlockMagic);
        BinaryPrimitives.WriteInt32LittleEndian(b.Slice(8), length);
        BinaryPrimitives.WriteInt32LittleEndian(b.Slice(12), sequence);
        BinaryPrimitives.WriteInt64LittleEndian(b.Slice(16), generation);
        BinaryPrimitives.WriteUInt64LittleEndian(b.Slice(24), instanceId);
        BinaryPrimitives.WriteInt32LittleEndian(b.Slice(32), pages.Length);
        BinaryPrimitives.WriteInt32LittleEndian(b.Slice(36), 0);
        int o = BlockHeaderBytes;
        for (int i = 0; i < pages.Length; i++, o += 4) BinaryPrimitives.WriteInt32LittleEndian(b.Slice(o), pages[i]);
        int fillStart = (o + 7) & ~7;
        b.Slice(o, fillStart - o).Clear();
        PageContent.Fill(b.Slice(fillStart), instanceId ^ 0x5A5A5A5A5A5A5A5AUL, generation, sequence);
        BinaryPrimitives.WriteUInt32LittleEndian(b, Crc32C.Compute(b.Slice(4)));
    }

    public enum BlockStatus { Ok, End, BadChecksum, Malformed }

    /// <summary>
    /// Parses the block at the start of <paramref name="data"/>. End = no block of this generation
    /// here (zeros, or stale data of an older generation in a circular file).
    /// </summary>
    public static BlockStatus ReadBlock(ReadOnlySpan<byte> data, long generation, ulong instanceId, out int length, out int recordCount)
    {
        length = 0;
        recordCount = 0;
        if (!StartsBlockOf(data, generation, instanceId)) return BlockStatus.End;
        length = BinaryPrimitives.ReadInt32LittleEndian(data.Slice(8));
        recordCount = BinaryPrimitives.ReadInt32LittleEndian(data.Slice(32));
        if (length < Sector || length % Sector != 0 || length > data.Length || recordCount < 0 || recordCount > MaxRecords(length))
            return BlockStatus.Malformed;
        if (Crc32C.Compute(data.Slice(4, length - 4)) != BinaryPrimitives.ReadUInt32LittleEndian(data)) return BlockStatus.BadChecksum;
        return BlockStatus.Ok;
    }

    /// <summary>True when a block of this generation and instance starts at the start of <paramref name="data"/> (its header says so).</summary>
    public static bool StartsBlockOf(ReadOnlySpan<byte> data, long generation, ulong instanceId) =>
        data.Length >= Sector
        && BinaryPrimitives.ReadUInt32LittleEndian(data.Slice(4)) == BlockMagic
        && BinaryPrimitives.ReadInt64LittleEndian(data.Slice(16)) == generation
        && BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(24)) == instanceId;

    public static int RecordPage(ReadOnlySpan<byte> block, int record) => BinaryPrimitives.ReadInt32LittleEndian(block.Slice(BlockHeaderBytes + record * 4));
}
