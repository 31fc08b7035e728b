using System.Runtime.Intrinsics.X86;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Storage;

public class PageChecksumTests
{
    private static byte[] Page(ulong instance = 0xFEEDFACE12345678, long number = 77, long generation = 3, DataProfile profile = default)
    {
        var page = new byte[PageFormat.PageSize];
        PageFormat.Stamp(page, number, new DatabaseContent(instance, profile), generation);
        return page;
    }

    [Theory]
    [InlineData(PageFormat.PageSize, 0, 0)]
    [InlineData(PageFormat.PageSize, 60, 50)] // a data profile: zeroed runs and duplicate blocks
    [InlineData(PageChecksum.SectorBytes, 0, 0)]
    [InlineData(3 * PageChecksum.SectorBytes, 0, 0)]
    public void Every_vector_path_folds_as_the_word_by_word_definition(int length, int compressibility, int duplicates)
    {
        var page = Page(profile: new DataProfile(compressibility, duplicates)).AsSpan(0, length);
        var expected = new byte[PageFormat.PageSize / PageChecksum.SectorBytes * PageChecksum.FoldedSectorBytes];
        PageChecksum.FoldScalar(page, expected);
        // Each vector path this CPU has (DOTNET_EnableAVX512F=0 or DOTNET_EnableAVX2=0 leave the others to Compute).
        if (Avx512F.IsSupported)
        {
            var f = new byte[expected.Length];
            PageChecksum.Fold512(page, f);
            Assert.Equal(expected, f);
        }
        if (Avx2.IsSupported)
        {
            var f = new byte[expected.Length];
            PageChecksum.Fold256(page, f);
            Assert.Equal(expected, f);
        }
        Assert.Equal(Crc32C.Compute(expected.AsSpan(0, length / PageChecksum.SectorBytes * PageChecksum.FoldedSectorBytes)), PageChecksum.Compute(page));
    }

    [Fact]
    public void The_checksum_s_own_place_does_not_count()
    {
        var page = Page();
        uint before = PageChecksum.Compute(page);
        page[0] ^= 0xFF; page[3] ^= 0x5A;
        Assert.Equal(before, PageChecksum.Compute(page));
        page[4] ^= 1;
        Assert.NotEqual(before, PageChecksum.Compute(page));
    }

    [Fact]
    public void Every_single_flipped_bit_of_a_page_is_caught()
    {
        var page = Page();
        uint good = PageChecksum.Compute(page);
        int missed = 0;
        for (int bit = 32; bit < 8 * PageFormat.PageSize; bit++)
        {
            page[bit / 8] ^= (byte)(1 << (bit % 8));
            if (PageChecksum.Compute(page) == good) missed++;
            page[bit / 8] ^= (byte)(1 << (bit % 8));
        }
        Assert.Equal(0, missed);
        Assert.Equal(good, PageChecksum.Compute(page));
    }

    [Fact]
    public void The_same_bit_flipped_in_several_lines_of_a_sector_does_not_cancel()
    {
        // What a plain XOR of the lines misses: a stuck bit on a data path flips the same bit in line after line.
        var page = Page();
        uint good = PageChecksum.Compute(page);
        foreach (int[] lines in new[] { new[] { 0, 4 }, new[] { 1, 5, 9, 13 }, Enumerable.Range(0, 64).ToArray() })
        {
            var bad = (byte[])page.Clone();
            foreach (int line in lines) bad[2 * PageChecksum.SectorBytes + line * 64 + 17] ^= 0x08;
            Assert.NotEqual(good, PageChecksum.Compute(bad));
        }
    }

    [Fact]
    public void Two_flips_that_fold_onto_one_bit_pass_as_the_remarks_say()
    {
        // Lines 0 and 4 of a sector share accumulator 0; line 0 is turned once more than line 4, so bit 10 of a word of
        // line 0 lands where bit 11 of the same word of line 4 does. The page's blind spot, kept in view.
        var page = Page();
        uint good = PageChecksum.Compute(page);
        const int Word = PageChecksum.SectorBytes + 3 * 8;
        page[Word + 1] ^= 1 << 2;      // bit 10 of the word in line 0
        page[Word + 4 * 64 + 1] ^= 1 << 3; // bit 11 of the same word in line 4
        Assert.Equal(good, PageChecksum.Compute(page));
        page[Word + 4 * 64 + 1] ^= 1 << 3 | 1 << 4; // bit 12 instead: caught
        Assert.NotEqual(good, PageChecksum.Compute(page));
    }

    [Fact]
    public void Torn_stale_zeroed_and_swapped_sectors_are_caught()
    {
        var page = Page(generation: 3);
        var older = Page(generation: 2);
        uint good = PageChecksum.Compute(page);
        const int S = PageChecksum.SectorBytes;

        var torn = (byte[])page.Clone();
        older.AsSpan(5 * S, S).CopyTo(torn.AsSpan(5 * S)); // one sector of the write never reached the disk
        Assert.NotEqual(good, PageChecksum.Compute(torn));

        var zeroed = (byte[])page.Clone();
        zeroed.AsSpan(7 * S, S).Clear();
        Assert.NotEqual(good, PageChecksum.Compute(zeroed));

        var swapped = (byte[])page.Clone();
        page.AsSpan(2 * S, S).CopyTo(swapped.AsSpan(3 * S));
        page.AsSpan(3 * S, S).CopyTo(swapped.AsSpan(2 * S));
        Assert.NotEqual(good, PageChecksum.Compute(swapped));
    }

    [Theory]
    [InlineData(100)]
    [InlineData(PageFormat.PageSize + PageChecksum.SectorBytes)]
    public void A_length_other_than_whole_sectors_of_a_page_is_refused_by_name(int length)
    {
        var ex = Assert.Throws<ArgumentException>(() => PageChecksum.Compute(new byte[length]));
        Assert.Contains($"got {length}", ex.Message);
    }
}
