using System.Buffers.Binary;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

public class PageFormatTests
{
    private static byte[] Page(long number, ulong instance, long gen)
    {
        var b = new byte[PageFormat.PageSize];
        PageFormat.Stamp(b, number, new DatabaseContent(instance), gen);
        return b;
    }

    [Fact]
    public void Stamped_page_verifies_with_its_identity()
    {
        var check = PageFormat.Verify(Page(42, 0xABCDEF, 7), 42, 0xABCDEF);
        Assert.True(check.Ok);
        Assert.Equal(7, check.Generation);
    }

    [Fact]
    public void Flipped_byte_is_a_checksum_mismatch_naming_the_page()
    {
        var b = Page(42, 0xABCDEF, 7);
        b[1000] ^= 0x40;
        var check = PageFormat.Verify(b, 42, 0xABCDEF);
        Assert.Equal(PageStatus.BadChecksum, check.Status);
        Assert.Contains("page 42", check.Describe());
    }

    [Fact]
    public void Wrong_page_number_is_an_identity_mismatch_with_expected_and_found()
    {
        var check = PageFormat.Verify(Page(7, 0xABCDEF, 1), 5, 0xABCDEF);
        Assert.Equal(PageStatus.WrongPage, check.Status);
        Assert.Equal(5, check.ExpectedPage);
        Assert.Equal(7, check.FoundPage);
        Assert.Contains("expected page 5", check.Describe());
        Assert.Contains("found page 7", check.Describe());
    }

    [Fact]
    public void Page_of_another_database_is_a_wrong_instance()
    {
        var check = PageFormat.Verify(Page(5, 0x1111, 1), 5, 0x2222);
        Assert.Equal(PageStatus.WrongInstance, check.Status);
        Assert.Equal(0x1111UL, check.FoundInstance);
    }

    [Fact]
    public void Zero_page_is_not_ours()
    {
        Assert.Equal(PageStatus.NotOurs, PageFormat.Verify(new byte[PageFormat.PageSize], 3, 1).Status);
    }

    [Fact]
    public void Content_differs_between_databases_generations_and_pages()
    {
        var a = Page(5, 1, 1).AsSpan(PageFormat.HeaderBytes).ToArray();
        Assert.False(a.AsSpan().SequenceEqual(Page(5, 2, 1).AsSpan(PageFormat.HeaderBytes)));
        Assert.False(a.AsSpan().SequenceEqual(Page(5, 1, 2).AsSpan(PageFormat.HeaderBytes)));
        Assert.False(a.AsSpan().SequenceEqual(Page(6, 1, 1).AsSpan(PageFormat.HeaderBytes)));
    }

    [Fact]
    public void Content_is_incompressible()
    {
        var page = Page(9, 0x1234, 3);
        using var ms = new MemoryStream();
        using (var z = new System.IO.Compression.DeflateStream(ms, System.IO.Compression.CompressionLevel.Optimal, leaveOpen: true)) z.Write(page);
        Assert.True(ms.Length > page.Length * 0.99, $"compressed to {ms.Length} of {page.Length}");
    }

    [Fact]
    public void Database_header_round_trips_and_rejects_corruption()
    {
        var h = new DatabaseHeader(1, PageFormat.PageSize, 640, 0xFEEDFACE, new DateTime(2026, 1, 2, 3, 4, 5, DateTimeKind.Utc), DatabaseState.Complete, 3);
        var b = new byte[PageFormat.PageSize];
        h.Write(b);
        Assert.Equal(h, DatabaseHeader.TryRead(b));
        b[200] ^= 1;
        Assert.Null(DatabaseHeader.TryRead(b));
        Assert.True(DatabaseHeader.LooksOurs(b));
    }

    [Fact]
    public void A_page_of_a_format_1_database_is_verified_by_its_CRC32C_and_a_current_page_by_the_page_checksum()
    {
        var page = Page(42, 0xABCDEF, 7);
        Assert.Equal(PageChecksum.Compute(page), BinaryPrimitives.ReadUInt32LittleEndian(page));
        Assert.True(PageFormat.Verify(page, 42, 0xABCDEF).Ok);
        Assert.Equal(PageStatus.BadChecksum, PageFormat.Verify(page, 42, 0xABCDEF, formatVersion: 1).Status);
        // As a format 1 database stamped it.
        BinaryPrimitives.WriteUInt32LittleEndian(page, Crc32C.Compute(page.AsSpan(4)));
        Assert.True(PageFormat.Verify(page, 42, 0xABCDEF, formatVersion: 1).Ok);
        Assert.Equal(PageStatus.BadChecksum, PageFormat.Verify(page, 42, 0xABCDEF).Status);
        page[9000] ^= 4;
        Assert.Equal(PageStatus.BadChecksum, PageFormat.Verify(page, 42, 0xABCDEF, formatVersion: 1).Status);
    }

    [Fact]
    public void Crc32c_matches_the_standard_check_value()
    {
        Assert.Equal(0xE3069283u, Crc32C.Compute("123456789"u8));
    }

    [Fact]
    public void A_format_whose_checksum_this_version_does_not_compute_is_refused_not_checked_as_another()
    {
        Assert.Equal(new[] { 1, DatabaseHeader.CurrentFormatVersion }, PageFormat.KnownFormats);
        var page = new byte[PageFormat.PageSize];
        foreach (int format in new[] { 0, DatabaseHeader.CurrentFormatVersion + 1 })
        {
            Assert.False(PageFormat.KnowsFormat(format));
            Assert.Throws<ArgumentOutOfRangeException>(() => PageFormat.Checksum(page, format));
        }
    }

    [Fact]
    public void Log_block_round_trips_and_detects_corruption()
    {
        var b = new byte[16384];
        LogFormat.WriteBlock(b, 8192, 3, 17, 0xAA, new[] { 5, 9, 11 });
        Assert.Equal(LogFormat.BlockStatus.Ok, LogFormat.ReadBlock(b, 17, 0xAA, out int len, out int count));
        Assert.Equal(8192, len);
        Assert.Equal(3, count);
        Assert.Equal(9, LogFormat.RecordPage(b, 1));
        Assert.Equal(LogFormat.BlockStatus.End, LogFormat.ReadBlock(b, 16, 0xAA, out _, out _));
        b[5000] ^= 1;
        Assert.Equal(LogFormat.BlockStatus.BadChecksum, LogFormat.ReadBlock(b, 17, 0xAA, out _, out _));
    }

    [Theory]
    [InlineData(1, 0)]
    [InlineData(4, 0)]
    [InlineData(7, 1)]
    [InlineData(32, 0)]
    [InlineData(33, 1)]
    public void A_run_of_pages_is_stamped_byte_for_byte_as_page_by_page(int count, long generationStep)
    {
        // Creation and flushes stamp four pages at a time; the bytes must be those of the one-page stamp.
        var run = new byte[count * PageFormat.PageSize];
        var single = new byte[run.Length];
        PageFormat.StampRun(run, 1000, new DatabaseContent(0xFEEDFACE12345678), 9, generationStep);
        for (int i = 0; i < count; i++)
            PageFormat.Stamp(single.AsSpan(i * PageFormat.PageSize, PageFormat.PageSize), 1000 + i, new DatabaseContent(0xFEEDFACE12345678), 9 + i * generationStep);
        Assert.True(run.AsSpan().SequenceEqual(single), "StampRun differs from Stamp");
        Assert.True(PageFormat.Verify(run.AsSpan((count - 1) * PageFormat.PageSize, PageFormat.PageSize), 1000 + count - 1, 0xFEEDFACE12345678).Ok);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(767)]
    [InlineData(768)]
    [InlineData(769)]
    [InlineData(2039)]
    [InlineData(2040)]
    [InlineData(2048)] // a page's folded sectors (PageChecksum)
    [InlineData(4092)]
    [InlineData(12287)]
    [InlineData(12288)]
    [InlineData(12295)]
    [InlineData(8159)]
    [InlineData(8160)]
    [InlineData(8161)]
    [InlineData(20447)]
    [InlineData(32764)]
    [InlineData(100003)]
    public void Three_chain_checksum_equals_the_bytewise_definition(int length)
    {
        // Long buffers run three crc32 chains side by side (and, with PCLMULQDQ, fold a part of each chunk on
        // the vector unit) and join them by shifting: every chunk, stripe and remainder must give the CRC the
        // bytewise definition gives (the pages on disk carry it). DOTNET_EnablePCLMULQDQ=0 runs the path without folding.
        var data = new byte[length];
        new Random(length).NextBytes(data);
        Assert.Equal(BytewiseCrc32C(0xFFFFFFFFu, data) ^ 0xFFFFFFFFu, Crc32C.Compute(data));
        uint partial = Crc32C.Append(0xFFFFFFFFu, data.AsSpan(0, length / 3));
        Assert.Equal(Crc32C.Compute(data), ~Crc32C.Append(partial, data.AsSpan(length / 3)));
    }

    /// <summary>CRC32C one bit at a time (reflected polynomial 0x82F63B78): the definition, nothing borrowed from the engine.</summary>
    private static uint BytewiseCrc32C(uint crc, ReadOnlySpan<byte> data)
    {
        foreach (byte b in data)
        {
            crc ^= b;
            for (int k = 0; k < 8; k++) crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
        }
        return crc;
    }

    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(7)]
    [InlineData(8)]
    [InlineData(31)]
    [InlineData(33)]
    [InlineData(64)]
    [InlineData(97)]
    [InlineData(1024)]
    [InlineData(32736)]
    [InlineData(32741)]
    public void Content_is_eight_interleaved_generators_word_by_word(int length)
    {
        // The vector paths (eight generators in the lanes of one AVX-512 or two AVX2 registers) and the scalar
        // path (tails, CPUs without either) must write the same bytes: those of eight xoshiro256+ generators taking turns.
        var filled = new byte[length];
        PageContent.Fill(filled, 0x0123456789ABCDEF, 900, 7);
        Assert.True(filled.AsSpan().SequenceEqual(ReferenceContent(length, 0x0123456789ABCDEF, 900, 7)), "Fill differs from the eight-generator definition");
        var other = new byte[length];
        PageContent.Fill(other, 0x0123456789ABCDEF, 900, 8);
        if (length >= 8) Assert.False(filled.AsSpan().SequenceEqual(other), "a rewritten page repeated its previous image");
    }

    /// <summary>The content's definition, written out plainly: splitmix64 seeds eight xoshiro256+ generators; word i is generator i mod 8's next.</summary>
    private static byte[] ReferenceContent(int length, ulong instanceId, long page, long generation)
    {
        ulong seed = instanceId ^ ((ulong)page * 0x9E3779B97F4A7C15UL) ^ ((ulong)generation * 0xC2B2AE3D27D4EB4FUL);
        var s = new ulong[8, 4];
        for (int lane = 0; lane < 8; lane++)
        {
            for (int k = 0; k < 4; k++)
            {
                ulong z = seed += 0x9E3779B97F4A7C15UL;
                z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
                z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
                s[lane, k] = z ^ (z >> 31);
            }
        }
        ulong Next(int lane)
        {
            ulong result = s[lane, 0] + s[lane, 3];
            ulong t = s[lane, 1] << 17;
            s[lane, 2] ^= s[lane, 0]; s[lane, 3] ^= s[lane, 1]; s[lane, 1] ^= s[lane, 2]; s[lane, 0] ^= s[lane, 3]; s[lane, 2] ^= t;
            s[lane, 3] = System.Numerics.BitOperations.RotateLeft(s[lane, 3], 45);
            return result;
        }
        var bytes = new byte[length];
        for (int i = 0; i * 8 < length; i++)
        {
            ulong w = Next(i % 8);
            for (int b = 0; b < 8 && i * 8 + b < length; b++) bytes[i * 8 + b] = (byte)(w >> (8 * b));
        }
        return bytes;
    }
}
