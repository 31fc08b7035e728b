using System.Buffers.Binary;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Sector 0 of an NTFS volume (not of the disk). Read from any OS, it tells the real cluster size
/// even where the file system driver hides it (ntfs-3g reports "fuseblk"), and the partition start
/// LBA that Windows recorded in the hidden-sectors field.
/// </summary>
public sealed record NtfsBootSector(
    int BytesPerSector,
    int SectorsPerCluster,
    long HiddenSectors,
    long TotalSectors,
    long MftLcn,
    long MftMirrorLcn,
    int BytesPerFileRecord,
    int BytesPerIndexBlock,
    ulong SerialNumber)
{
    public const int Length = 512;
    public const string OemId = "NTFS    ";

    public long BytesPerCluster => (long)BytesPerSector * SectorsPerCluster;

    public long TotalBytes => TotalSectors * BytesPerSector;

    /// <summary>Partition start in bytes as recorded at format time (hidden sectors x bytes per sector).</summary>
    public long HiddenSectorsBytes => HiddenSectors * BytesPerSector;

    /// <summary>True when the bytes start like an NTFS boot sector (OEM id only; no other checks).</summary>
    public static bool LooksLikeNtfs(ReadOnlySpan<byte> sector) =>
        sector.Length >= 11 && sector.Slice(3, 8).SequenceEqual("NTFS    "u8);

    /// <summary>Parses sector 0; throws EngineException "NotNtfsBootSector" for anything else.</summary>
    public static NtfsBootSector Parse(ReadOnlySpan<byte> sector)
    {
        if (sector.Length < Length)
            throw Invalid($"An NTFS boot sector is {Length} bytes; got {sector.Length}.");
        if (!LooksLikeNtfs(sector))
            throw Invalid($"Not an NTFS boot sector: OEM id is \"{Printable(sector.Slice(3, 8))}\", expected \"{OemId}\".");
        if (sector[0x1FE] != 0x55 || sector[0x1FF] != 0xAA)
            throw Invalid($"NTFS boot sector signature is {sector[0x1FE]:X2}{sector[0x1FF]:X2}, expected 55AA.");

        int bytesPerSector = BinaryPrimitives.ReadUInt16LittleEndian(sector[0x0B..]);
        if (bytesPerSector < 256 || bytesPerSector > 4096 || (bytesPerSector & (bytesPerSector - 1)) != 0)
            throw Invalid($"NTFS boot sector has an invalid bytes-per-sector value {bytesPerSector}.");

        int sectorsPerCluster = DecodeSectorsPerCluster(sector[0x0D]);
        if (sectorsPerCluster == 0)
            throw Invalid($"NTFS boot sector has an invalid sectors-per-cluster byte 0x{sector[0x0D]:X2}.");
        long bytesPerCluster = (long)bytesPerSector * sectorsPerCluster;

        return new NtfsBootSector(
            bytesPerSector,
            sectorsPerCluster,
            BinaryPrimitives.ReadUInt32LittleEndian(sector[0x1C..]),
            (long)BinaryPrimitives.ReadUInt64LittleEndian(sector[0x28..]),
            (long)BinaryPrimitives.ReadUInt64LittleEndian(sector[0x30..]),
            (long)BinaryPrimitives.ReadUInt64LittleEndian(sector[0x38..]),
            DecodeRecordSize((sbyte)sector[0x40], bytesPerCluster),
            DecodeRecordSize((sbyte)sector[0x44], bytesPerCluster),
            BinaryPrimitives.ReadUInt64LittleEndian(sector[0x48..]));
    }

    /// <summary>Values up to 0x80 are literal; 0xF4 and above mean 2^(256 - value) (clusters over 64 KB at 512-byte sectors).</summary>
    public static int DecodeSectorsPerCluster(byte value)
    {
        if (value >= 0xF4) return 1 << (256 - value);
        if (value == 0 || value > 0x80 || (value & (value - 1)) != 0) return 0;
        return value;
    }

    /// <summary>Positive: that many clusters. Negative: 2^(-value) bytes (records smaller than a cluster).</summary>
    public static int DecodeRecordSize(sbyte value, long bytesPerCluster) =>
        value >= 0 ? checked((int)(value * bytesPerCluster)) : 1 << -value;

    private static string Printable(ReadOnlySpan<byte> bytes)
    {
        var chars = new char[bytes.Length];
        for (int i = 0; i < bytes.Length; i++) chars[i] = bytes[i] is >= 0x20 and < 0x7F ? (char)bytes[i] : '.';
        return new string(chars);
    }

    private static EngineException Invalid(string message) =>
        new("NotNtfsBootSector", ErrorCategories.InvalidData, message);
}
