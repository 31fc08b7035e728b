using System.Buffers.Binary;
using System.Text;

namespace ExchStorageTest.Engine.Storage;

/// <summary>Outcome of checking one page.</summary>
public enum PageStatus : byte
{
    Ok,
    /// <summary>The stored checksum does not match the page content (torn or corrupted page).</summary>
    BadChecksum,
    /// <summary>Valid page of ours, but for another page number (misdirected write/read).</summary>
    WrongPage,
    /// <summary>Valid page of ours, but from another database (instance id differs).</summary>
    WrongInstance,
    /// <summary>No page marker at all: never written by us (zeros or foreign data).</summary>
    NotOurs,
}

/// <summary>What a page check found: expected vs found identity, for the error message.</summary>
public readonly record struct PageCheck(PageStatus Status, long ExpectedPage, long FoundPage, ulong ExpectedInstance, ulong FoundInstance, long Generation, uint StoredCrc, uint ComputedCrc)
{
    public bool Ok => Status == PageStatus.Ok;

    public string Describe() => Status switch
    {
        PageStatus.Ok => $"page {ExpectedPage} ok (generation {Generation})",
        PageStatus.BadChecksum => $"page {ExpectedPage}: checksum mismatch (stored 0x{StoredCrc:X8}, computed 0x{ComputedCrc:X8}); header claims page {FoundPage} of instance 0x{FoundInstance:X16}",
        PageStatus.WrongPage => $"page {ExpectedPage}: identity mismatch, expected page {ExpectedPage} of instance 0x{ExpectedInstance:X16}, found page {FoundPage} of instance 0x{FoundInstance:X16} (generation {Generation})",
        PageStatus.WrongInstance => $"page {ExpectedPage}: identity mismatch, expected instance 0x{ExpectedInstance:X16}, found instance 0x{FoundInstance:X16} (page {FoundPage}, generation {Generation})",
        _ => $"page {ExpectedPage}: no ExchStorageTest page marker (expected page {ExpectedPage} of instance 0x{ExpectedInstance:X16})",
    };
}

/// <summary>
/// The on-disk page layout. Data pages (little endian): [0] checksum (<see cref="Checksum"/>), [4] marker
/// "ESTP", [8] page number, [16] instance id, [24] write generation, [32..] content (<see cref="DatabaseContent"/>:
/// incompressible and unique unless the database was created with a data profile).
/// Page 0 is the database header (<see cref="DatabaseHeader"/>).
/// </summary>
public static class PageFormat
{
    public const int PageSize = 32 * 1024;
    public const uint PageMagic = 0x50545345; // "ESTP"
    public const int HeaderBytes = 32;

    /// <summary>Writes a complete data page of the current format: identity, content and checksum.</summary>
    public static void Stamp(Span<byte> page, long pageNumber, DatabaseContent content, long generation)
    {
        WriteIdentity(page, pageNumber, content.InstanceId, generation);
        content.Fill(page, pageNumber, generation);
        BinaryPrimitives.WriteUInt32LittleEndian(page, Checksum(page, DatabaseHeader.CurrentFormatVersion));
    }

    /// <summary>
    /// The checksum a data page of database format <paramref name="formatVersion"/> carries in its first four bytes:
    /// <see cref="PageChecksum"/> from format 2 on; format 1 (databases created before it) a CRC32C of bytes 4..end,
    /// still verified so that <c>Test-DatabaseChecksum</c> reads their files (runs re-create or refuse them).
    /// </summary>
    public static uint Checksum(ReadOnlySpan<byte> page, int formatVersion) => formatVersion switch
    {
        1 => Crc32C.Compute(page.Slice(4, PageSize - 4)),
        DatabaseHeader.CurrentFormatVersion => PageChecksum.Compute(page.Slice(0, PageSize)),
        _ => throw new ArgumentOutOfRangeException(nameof(formatVersion), formatVersion, "Not a database format whose page checksum this version computes (see KnowsFormat)."),
    };

    /// <summary>The database formats whose page checksum <see cref="Checksum"/> computes: the ones this version can verify.</summary>
    public static IReadOnlyList<int> KnownFormats { get; } = new[] { 1, DatabaseHeader.CurrentFormatVersion };

    /// <summary>True for one of the <see cref="KnownFormats"/>.</summary>
    public static bool KnowsFormat(int formatVersion) => KnownFormats.Contains(formatVersion);

    /// <summary>
    /// Stamps the consecutive pages of <paramref name="pages"/> (a whole number of pages): page i is
    /// number <paramref name="firstPage"/> + i of write generation <paramref name="firstGeneration"/> +
    /// i * <paramref name="generationStep"/>. Page by page: the content generator and the CRC each keep the
    /// CPU's units busy within one page (<see cref="PageContent"/>, <see cref="Crc32C"/>), so stamping
    /// several pages together gains nothing.
    /// </summary>
    public static void StampRun(Span<byte> pages, long firstPage, DatabaseContent content, long firstGeneration, long generationStep)
    {
        int count = pages.Length / PageSize;
        for (int i = 0; i < count; i++)
            Stamp(pages.Slice(i * PageSize, PageSize), firstPage + i, content, firstGeneration + i * generationStep);
    }

    private static void WriteIdentity(Span<byte> page, long pageNumber, ulong instanceId, long generation)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(page.Slice(4), PageMagic);
        BinaryPrimitives.WriteInt64LittleEndian(page.Slice(8), pageNumber);
        BinaryPrimitives.WriteUInt64LittleEndian(page.Slice(16), instanceId);
        BinaryPrimitives.WriteInt64LittleEndian(page.Slice(24), generation);
    }

    /// <summary>Checks one data page against the identity it must have (a page of a database of <paramref name="formatVersion"/>).</summary>
    public static PageCheck Verify(ReadOnlySpan<byte> page, long expectedPage, ulong expectedInstance, int formatVersion = DatabaseHeader.CurrentFormatVersion)
    {
        uint magic = BinaryPrimitives.ReadUInt32LittleEndian(page.Slice(4));
        long foundPage = BinaryPrimitives.ReadInt64LittleEndian(page.Slice(8));
        ulong foundInstance = BinaryPrimitives.ReadUInt64LittleEndian(page.Slice(16));
        long generation = BinaryPrimitives.ReadInt64LittleEndian(page.Slice(24));
        uint stored = BinaryPrimitives.ReadUInt32LittleEndian(page);
        if (magic != PageMagic)
            return new PageCheck(PageStatus.NotOurs, expectedPage, foundPage, expectedInstance, foundInstance, generation, stored, 0);
        uint computed = Checksum(page, formatVersion);
        if (computed != stored)
            return new PageCheck(PageStatus.BadChecksum, expectedPage, foundPage, expectedInstance, foundInstance, generation, stored, computed);
        if (foundInstance != expectedInstance)
            return new PageCheck(PageStatus.WrongInstance, expectedPage, foundPage, expectedInstance, foundInstance, generation, stored, computed);
        if (foundPage != expectedPage)
            return new PageCheck(PageStatus.WrongPage, expectedPage, foundPage, expectedInstance, foundInstance, generation, stored, computed);
        return new PageCheck(PageStatus.Ok, expectedPage, foundPage, expectedInstance, foundInstance, generation, stored, computed);
    }
}

/// <summary>State of a database file as its header records it.</summary>
public enum DatabaseState : uint
{
    /// <summary>Written first when creation starts: the file is ours but its pages are not all written.</summary>
    Creating = 1,
    /// <summary>Written last, after every page is on disk: the file can be attached.</summary>
    Complete = 2,
}

/// <summary>
/// Page 0 of every database file. Layout: [0] CRC32C of bytes 4..end, [4] "ESTH", [8] format
/// version, [12] page size, [16] page count (including page 0), [24] instance id, [32] created
/// UTC ticks, [40] state, [44] instance index, [48] compressibility percent, [52] duplicate percent (the data profile
/// the pages were written with; zero in files written before it existed, which is the default profile they hold),
/// [56] the content layout of a profiled database (<see cref="ContentLayout"/>; zero for the default profile, whose pages
/// have one layout), [64..128) the marker text.
/// Crash safety: the header is written first with state Creating and rewritten with state
/// Complete only after every page is durable, so a half-created file is recognised as ours but
/// incomplete (and is re-created), and a complete one can be attached by the next run.
/// </summary>
public sealed record DatabaseHeader(int FormatVersion, int PageSize, long PageCount, ulong InstanceId, DateTime CreatedUtc, DatabaseState State, int InstanceIndex, DataProfile DataProfile = default,
    int ContentLayout = DatabaseHeader.SectorLayout)
{
    /// <summary>
    /// The layout of a profiled page's content this version writes: every 512-byte sector its own random bytes, then its
    /// share of the run (<see cref="DatabaseContent"/>). Profiled databases written before it (layout 0) put one
    /// run at the end of each 4 KiB block, whose whole sectors repeat: they hold more duplicate sectors than their profile states.
    /// </summary>
    public const int SectorLayout = 1;

    /// <summary>Why the pages do not hold what the header's profile states as this version states it; null when they do.</summary>
    public string? OtherLayout => DataProfile.IsDefault || ContentLayout == SectorLayout ? null
        : "its pages were written with the data profile's earlier layout, one compressible run per 4 KiB block, whose whole 512-byte sectors repeat (an array that deduplicates 512-byte sectors finds far more duplicates than the profile states)";

    public const uint Magic = 0x48545345; // "ESTH"
    /// <summary>2: data pages carry <see cref="PageChecksum"/> (1: a CRC32C of the page, <see cref="PageFormat.Checksum"/>).</summary>
    public const int CurrentFormatVersion = 2;
    public const string Marker = "created by ExchStorageTest";

    public long SizeBytes => PageCount * PageSize;

    public void Write(Span<byte> page)
    {
        page.Slice(0, PageFormat.PageSize).Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(page.Slice(4), Magic);
        BinaryPrimitives.WriteInt32LittleEndian(page.Slice(8), FormatVersion);
        BinaryPrimitives.WriteInt32LittleEndian(page.Slice(12), PageSize);
        BinaryPrimitives.WriteInt64LittleEndian(page.Slice(16), PageCount);
        BinaryPrimitives.WriteUInt64LittleEndian(page.Slice(24), InstanceId);
        BinaryPrimitives.WriteInt64LittleEndian(page.Slice(32), CreatedUtc.Ticks);
        BinaryPrimitives.WriteUInt32LittleEndian(page.Slice(40), (uint)State);
        BinaryPrimitives.WriteInt32LittleEndian(page.Slice(44), InstanceIndex);
        BinaryPrimitives.WriteInt32LittleEndian(page.Slice(48), DataProfile.CompressibilityPercent);
        BinaryPrimitives.WriteInt32LittleEndian(page.Slice(52), DataProfile.DuplicatePercent);
        if (!DataProfile.IsDefault) BinaryPrimitives.WriteInt32LittleEndian(page.Slice(56), ContentLayout);
        Encoding.ASCII.GetBytes(Marker, page.Slice(64));
        BinaryPrimitives.WriteUInt32LittleEndian(page, Crc32C.Compute(page.Slice(4, PageFormat.PageSize - 4)));
    }

    /// <summary>Parses page 0; null when it is not a valid header of ours (foreign file, or torn).</summary>
    public static DatabaseHeader? TryRead(ReadOnlySpan<byte> page)
    {
        if (page.Length < PageFormat.PageSize) return null;
        if (BinaryPrimitives.ReadUInt32LittleEndian(page.Slice(4)) != Magic) return null;
        if (!page.Slice(64, Marker.Length).SequenceEqual(Encoding.ASCII.GetBytes(Marker))) return null;
        if (Crc32C.Compute(page.Slice(4, PageFormat.PageSize - 4)) != BinaryPrimitives.ReadUInt32LittleEndian(page)) return null;
        var profile = new DataProfile(BinaryPrimitives.ReadInt32LittleEndian(page.Slice(48)), BinaryPrimitives.ReadInt32LittleEndian(page.Slice(52)));
        return new DatabaseHeader(
            BinaryPrimitives.ReadInt32LittleEndian(page.Slice(8)),
            BinaryPrimitives.ReadInt32LittleEndian(page.Slice(12)),
            BinaryPrimitives.ReadInt64LittleEndian(page.Slice(16)),
            BinaryPrimitives.ReadUInt64LittleEndian(page.Slice(24)),
            new DateTime(BinaryPrimitives.ReadInt64LittleEndian(page.Slice(32)), DateTimeKind.Utc),
            (DatabaseState)BinaryPrimitives.ReadUInt32LittleEndian(page.Slice(40)),
            BinaryPrimitives.ReadInt32LittleEndian(page.Slice(44)),
            profile,
            profile.IsDefault ? SectorLayout : BinaryPrimitives.ReadInt32LittleEndian(page.Slice(56)));
    }

    /// <summary>
    /// True when a file whose first bytes are <paramref name="start"/> (its first two pages, or as much as it holds)
    /// was written by ExchStorageTest: page 0 carries the header's magic or its marker text, or page 1 is a data page
    /// of ours (its "ESTP" marker and page number 1). Either alone is enough, so a database of ours whose header was
    /// damaged is still ours — a checksum failure to report — while a file that never was one (another program's,
    /// Exchange's own .edb) has neither and is refused as foreign (Test-DatabaseChecksum).
    /// </summary>
    public static bool IsOurs(ReadOnlySpan<byte> start)
    {
        if (start.Length >= 128 && (BinaryPrimitives.ReadUInt32LittleEndian(start.Slice(4)) == Magic
            || start.Slice(64, Marker.Length).SequenceEqual(Encoding.ASCII.GetBytes(Marker)))) return true;
        if (start.Length < PageFormat.PageSize + PageFormat.HeaderBytes) return false;
        var page1 = start.Slice(PageFormat.PageSize);
        return BinaryPrimitives.ReadUInt32LittleEndian(page1.Slice(4)) == PageFormat.PageMagic && BinaryPrimitives.ReadInt64LittleEndian(page1.Slice(8)) == 1;
    }

    /// <summary>True when the first bytes carry our header marker (even if the rest is torn).</summary>
    public static bool LooksOurs(ReadOnlySpan<byte> page) =>
        page.Length >= 128 && BinaryPrimitives.ReadUInt32LittleEndian(page.Slice(4)) == Magic
        && page.Slice(64, Marker.Length).SequenceEqual(Encoding.ASCII.GetBytes(Marker));
}
