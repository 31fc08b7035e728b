using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

public class PageFormatTests
{
    private static byte[] Page(long number, ulong instance, long gen)
    {
        var b = new byte[PageFormat.PageSize];
        PageFormat.Stamp(b, number, instance, gen);
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
    public void Crc32c_matches_the_standard_check_value()
    {
        Assert.Equal(0xE3069283u, Crc32C.Compute("123456789"u8));
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
        PageFormat.StampRun(run, 1000, 0xFEEDFACE12345678, 9, generationStep);
        for (int i = 0; i < count; i++)
            PageFormat.Stamp(single.AsSpan(i * PageFormat.PageSize, PageFormat.PageSize), 1000 + i, 0xFEEDFACE12345678, 9 + i * generationStep);
        Assert.True(run.AsSpan().SequenceEqual(single), "StampRun differs from Stamp");
        Assert.True(PageFormat.Verify(run.AsSpan((count - 1) * PageFormat.PageSize, PageFormat.PageSize), 1000 + count - 1, 0xFEEDFACE12345678).Ok);
    }

    [Theory]
    [InlineData(0)]
    [InlineData(5)]
    [InlineData(32764)]
    [InlineData(100003)]
    public void Four_interleaved_checksums_equal_four_single_ones(int length)
    {
        var data = new byte[4 * (length + 3)];
        new Random(length).NextBytes(data);
        Span<uint> crcs = stackalloc uint[4];
        Crc32C.Compute4(ref data[0], length + 3, length, crcs);
        for (int i = 0; i < 4; i++) Assert.Equal(Crc32C.Compute(data.AsSpan(i * (length + 3), length)), crcs[i]);
    }

    [Fact]
    public void Four_content_generators_in_lanes_write_what_one_at_a_time_writes()
    {
        const int length = 1024;
        var lanes = new byte[4 * length];
        PageContent.Fill4(ref lanes[0], length, length, 0x0123456789ABCDEF, new long[] { 1, 2, 900, 1L << 40 }, new long[] { 1, 1, 7, 3 });
        var one = new byte[length];
        long[] pages = { 1, 2, 900, 1L << 40 }, generations = { 1, 1, 7, 3 };
        for (int i = 0; i < 4; i++)
        {
            PageContent.Fill(one, 0x0123456789ABCDEF, pages[i], generations[i]);
            Assert.True(lanes.AsSpan(i * length, length).SequenceEqual(one), $"lane {i} differs");
        }
    }
}
