using System.IO.Compression;
using System.Security.Cryptography;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Storage;

/// <summary>
/// The data profile of database pages: a database created with compressibility and duplicate targets holds
/// them as a real compressor and a block hash measure them, every page still verifies, the pages a run writes follow the
/// profile, and the header records it so a run asking for other data re-creates or refuses the set.
/// </summary>
public class DataProfileTests(Xunit.Abstractions.ITestOutputHelper output)
{
    private static EngineRequest Request(TestFolder folder, int compressibility, int duplicates)
    {
        var req = folder.Request(TestType.Performance, 5, databases: 1, copies: 1); // one database of 640 pages (20 MiB)
        req.CompressibilityPercent = compressibility;
        req.DuplicatePercent = duplicates;
        return req;
    }

    private static IReadOnlyList<PreparedInstance> Prepare(EngineRequest req) =>
        DatabaseSet.Prepare(TestPlanner.Plan(req), EventWriter.Null, _ => { }, CancellationToken.None);

    /// <summary>
    /// As a data-reducing array sees <paramref name="data"/> in blocks of <paramref name="block"/> bytes (4 KiB unless told):
    /// the share of its blocks that repeat an earlier one, and the share of the unique blocks' bytes that zlib (deflate, best
    /// compression) removes, each block compressed alone.
    /// </summary>
    internal static (double Compressibility, double Duplicates) Measure(ReadOnlySpan<byte> data, int block = DataProfile.BlockBytes)
    {
        int blocks = data.Length / block;
        var seen = new HashSet<string>(StringComparer.Ordinal);
        long uniqueBytes = 0, compressed = 0;
        for (int i = 0; i < blocks; i++)
        {
            var b = data.Slice(i * block, block);
            if (!seen.Add(Convert.ToHexString(SHA256.HashData(b)))) continue;
            uniqueBytes += block;
            using var ms = new MemoryStream();
            using (var z = new ZLibStream(ms, CompressionLevel.SmallestSize, leaveOpen: true)) z.Write(b);
            compressed += ms.Length;
        }
        return (1 - (double)compressed / uniqueBytes, 1 - (double)seen.Count / blocks);
    }

    [Theory]
    [InlineData(0, 0)]
    [InlineData(50, 30)]
    [InlineData(90, 75)]
    public void A_database_created_with_a_profile_measures_as_its_targets_and_every_page_verifies(int compressibility, int duplicates)
    {
        using var folder = new TestFolder($"profile{compressibility}-{duplicates}");
        var db = Prepare(Request(folder, compressibility, duplicates))[0];
        Assert.Equal(new DataProfile(compressibility, duplicates), DatabaseSet.Inspect(db.Plan.DatabaseFile, allowBuffered: true)!.DataProfile);
        byte[] file = File.ReadAllBytes(db.Plan.DatabaseFile);
        var (c, d) = Measure(file);
        // An array that deduplicates 512-byte sectors (all-flash arrays do) must see the same share (it saw 63% of a 50/30 database).
        var (sectorC, sectorD) = Measure(file, DatabaseContent.SectorBytes);
        output.WriteLine($"targets {compressibility}% / {duplicates}%: measured {c * 100:F2}% compressible, {d * 100:F2}% duplicate 4 KiB blocks; "
            + $"{sectorC * 100:F2}% compressible, {sectorD * 100:F2}% duplicate 512-byte sectors");
        // Within 3 points of each target: a compressor stores the repeated run in a few bytes and cannot shrink the rest;
        // the pool's first copies and the header page's zero blocks move the duplicate share by well under a point.
        Assert.InRange(c * 100, compressibility - 3, compressibility + 3);
        Assert.InRange(d * 100, duplicates - 3, duplicates + 3);
        Assert.InRange(sectorD * 100, duplicates - 3, duplicates + 3);
        Assert.InRange(sectorC * 100, compressibility - 8, compressibility + 3);
        if (compressibility == 0)
        {
            // The default stays the worst case: the whole file through one deflate stream saves nothing.
            using var ms = new MemoryStream();
            using (var z = new ZLibStream(ms, CompressionLevel.SmallestSize, leaveOpen: true)) z.Write(file, PageFormat.PageSize, file.Length - PageFormat.PageSize);
            Assert.True(ms.Length >= 0.99 * (file.Length - PageFormat.PageSize), $"the default content compressed to {ms.Length} of {file.Length - PageFormat.PageSize} bytes");
        }
        var check = ChecksumVerifier.Verify(new[] { db.Plan.DatabaseFile }, new[] { db.Plan.LogFolder }, EventWriter.Null, CancellationToken.None);
        Assert.Equal((0L, db.PageCount - 1), (check.BadPages, check.PagesChecked));
    }

    [Fact]
    public void The_default_profile_is_the_content_pages_had_before_profiles_byte_for_byte()
    {
        var page = new byte[PageFormat.PageSize];
        var before = new byte[PageFormat.PageSize - PageFormat.HeaderBytes];
        new DatabaseContent(0x0123456789ABCDEF).Fill(page, 77, 3);
        PageContent.Fill(before, 0x0123456789ABCDEF, 77, 3);
        Assert.True(page.AsSpan(PageFormat.HeaderBytes).SequenceEqual(before));
    }

    [Fact]
    public void A_profiled_page_keeps_its_identity_and_a_rewrite_changes_its_unique_blocks_but_keeps_the_shares()
    {
        var content = new DatabaseContent(0xFEEDFACE, new DataProfile(50, 50));
        var first = new byte[PageFormat.PageSize];
        var again = new byte[PageFormat.PageSize];
        PageFormat.Stamp(first, 9, content, 1);
        PageFormat.Stamp(again, 9, content, 2);
        Assert.True(PageFormat.Verify(first, 9, 0xFEEDFACE).Ok);
        Assert.True(PageFormat.Verify(again, 9, 0xFEEDFACE).Ok);
        Assert.Equal(4, content.DuplicateBlocks(9));
        // The page's unique blocks are new bytes in each generation; its last four blocks are copies from the pool.
        for (int b = 0; b < 4; b++)
            Assert.False(first.AsSpan(b * 4096, 4096).SequenceEqual(again.AsSpan(b * 4096, 4096)), $"block {b} repeated its previous image");
    }

    /// <summary>
    /// A profiled page's definition, written out with <see cref="PageContent.Generate"/> (itself held to the generators'
    /// definition by PageFormatTests): every 512-byte sector its share of the block's random words, rounded up to whole generator
    /// steps, then the page's run word to its end. The page's vector path (AVX-512, AVX2; DOTNET_EnableAVX512F=0 or
    /// DOTNET_EnableAVX2=0 run the others) must write these bytes, and no two of its sectors may be alike.
    /// </summary>
    [Theory]
    [InlineData(1)]
    [InlineData(30)]
    [InlineData(50)]
    [InlineData(90)]
    public unsafe void A_profiled_page_is_each_sector_s_random_share_then_its_run_and_no_sector_repeats(int compressibility)
    {
        const ulong instance = 0x0123456789ABCDEF;
        var page = new byte[PageFormat.PageSize];
        new DatabaseContent(instance, new DataProfile(compressibility, 0)).Fill(page, 77, 3);

        var expected = new byte[PageFormat.PageSize];
        ulong* state = stackalloc ulong[PageContent.StateWords];
        PageContent.Seed(state, instance, 77, 3);
        ulong word = state[0] | 1;
        int words = DatabaseContent.RandomBytes(compressibility) / 8;
        fixed (byte* basePtr = expected)
            for (int s = 0; s < PageFormat.PageSize / DatabaseContent.SectorBytes; s++)
            {
                int k = s % DatabaseContent.SectorsPerBlock;
                int from = s == 0 ? PageFormat.HeaderBytes : 0;
                int random = Math.Max(((k + 1) * words / DatabaseContent.SectorsPerBlock - k * words / DatabaseContent.SectorsPerBlock) * 8, from);
                byte* sector = basePtr + s * DatabaseContent.SectorBytes;
                if (random > from) PageContent.Generate(state, sector + from, (random - from + 63) / 64 * 64);
                for (int at = random; at < DatabaseContent.SectorBytes; at += 8) *(ulong*)(sector + at) = word;
            }
        Assert.True(page.AsSpan(PageFormat.HeaderBytes).SequenceEqual(expected.AsSpan(PageFormat.HeaderBytes)), "the page differs from its sector-by-sector definition");

        var sectors = new HashSet<string>(StringComparer.Ordinal);
        for (int s = 1; s < PageFormat.PageSize / DatabaseContent.SectorBytes; s++)
            Assert.True(sectors.Add(Convert.ToHexString(page, s * DatabaseContent.SectorBytes, DatabaseContent.SectorBytes)), $"sector {s} repeats an earlier one");
    }

    [Fact]
    public void Pages_a_run_writes_follow_the_database_profile()
    {
        var content = new DatabaseContent(0xABCDEF, new DataProfile(50, 30));
        var (cap, start, stop) = CacheModel.Size(256L * PageFormat.PageSize, 20_000);
        var w = new InstanceWorkload(1, 0xABCDEF, 20_000, 0, new[] { 1, 2, 3, 4 }, new CacheModel(cap, start, stop), 0, 42) { Content = content };
        w.DatabaseReadStream = 0;
        w.DatabaseWriteStream = 1;
        w.LogWriteStream = 2;
        var src = new TransactionalSource(w, sessions: 4, WorkloadShape.Default);
        var written = new MemoryStream();
        var inFlight = new List<(IoPlan Plan, byte[] Buffer)>();
        var expected = new byte[PageFormat.PageSize];
        for (int step = 0; step < 50_000 && written.Length < 8L << 20; step++)
        {
            while (inFlight.Count < src.Depth)
            {
                var plan = default(IoPlan);
                var buffer = new byte[src.MaxLength];
                if (!src.TryNext(ref plan, buffer)) break;
                inFlight.Add((plan, buffer));
            }
            var (done, buf) = inFlight[0];
            inFlight.RemoveAt(0);
            if (done.Operation == IoOperation.Write && done.StreamId == 1)
                for (int off = 0; off < done.Length; off += PageFormat.PageSize)
                {
                    long page = done.Offset / PageFormat.PageSize + off / PageFormat.PageSize;
                    var image = buf.AsSpan(off, PageFormat.PageSize);
                    long generation = BitConverter.ToInt64(buf, off + 24);
                    PageFormat.Stamp(expected, page, content, generation);
                    Assert.True(image.SequenceEqual(expected), $"page {page} (generation {generation}) is not the profile's image");
                    written.Write(image);
                }
            Tests.Workload.TransactionalSourceTests.Complete(src, w, done, buf);
        }
        Assert.True(written.Length >= 1L << 20, $"the run flushed only {written.Length} bytes");
        var (c, _) = Measure(written.GetBuffer().AsSpan(0, (int)written.Length));
        Assert.InRange(c * 100, 47, 53);
    }

    [Fact]
    public void The_header_records_the_profile_and_a_header_written_before_profiles_reads_as_the_default()
    {
        var page = new byte[PageFormat.PageSize];
        var h = new DatabaseHeader(1, PageFormat.PageSize, 640, 0xFEED, new DateTime(2026, 1, 2, 0, 0, 0, DateTimeKind.Utc), DatabaseState.Complete, 3, new DataProfile(40, 20));
        h.Write(page);
        Assert.Equal(h, DatabaseHeader.TryRead(page));
        // Before profiles, bytes 48..63 of page 0 were left zero: such a header is the default profile.
        (h with { DataProfile = DataProfile.Default }).Write(page);
        Assert.True(page.AsSpan(48, 16).IndexOfAnyExcept((byte)0) < 0);
        Assert.Equal(DataProfile.Default, DatabaseHeader.TryRead(page)!.DataProfile);
    }

    [Fact]
    public void A_set_of_another_profile_is_refused_by_attach_and_restore_and_re_created_by_create()
    {
        using var folder = new TestFolder("profilemismatch");
        var created = Prepare(Request(folder, 50, 30))[0];
        byte[] before = File.ReadAllBytes(created.Plan.DatabaseFile);
        var attach = Request(folder, 0, 0);
        attach.DatabaseSource = DatabaseSource.Attach;
        var ex = Assert.Throws<EngineException>(() => DatabaseSet.CheckBeforeWriting(TestPlanner.Plan(attach)));
        Assert.Equal("DatabaseMismatch", ex.Code);
        Assert.Contains("50% compressible, 30% duplicate 4 KiB blocks", ex.Message);
        Assert.Contains("incompressible, unique pages", ex.Message);
        Assert.Equal(before, File.ReadAllBytes(created.Plan.DatabaseFile));
        // A backup copy of other data is refused before anything is copied.
        string backup = folder.Sub("Backup");
        File.Copy(created.Plan.DatabaseFile, Path.Combine(backup, Path.GetFileName(created.Plan.DatabaseFile)));
        var restore = Request(folder, 0, 0);
        restore.Profile.DatabasePaths = new[] { folder.Sub("Restored") };
        restore.DatabaseSource = DatabaseSource.Restore;
        restore.RestoreFromPath = backup;
        var refused = Assert.Throws<EngineException>(() => DatabaseSet.CheckBeforeWriting(TestPlanner.Plan(restore)));
        Assert.Equal("DatabaseMismatch", refused.Code);
        Assert.Contains("50% compressible", refused.Message);
        Assert.Empty(Directory.GetFileSystemEntries(folder.Combine("Restored")));
        var again = Prepare(Request(folder, 50, 30))[0];
        Assert.False(again.Created);
        var recreated = Prepare(Request(folder, 0, 0))[0];
        Assert.True(recreated.Created);
        Assert.Equal(DataProfile.Default, recreated.Header.DataProfile);
    }

    /// <summary>
    /// A profiled database written by earlier versions (one compressible run per 4 KiB block, whole sectors repeating) does not hold
    /// what its profile now states: Create re-creates it, Attach refuses it by name rather than measure it as the profile says.
    /// </summary>
    [Fact]
    public void A_profiled_set_of_the_earlier_layout_is_re_created_by_create_and_refused_by_attach()
    {
        using var folder = new TestFolder("profilelayout");
        var created = Prepare(Request(folder, 50, 30))[0];
        Assert.Equal(DatabaseHeader.SectorLayout, created.Header.ContentLayout);
        string path = created.Plan.DatabaseFile;
        var page = new byte[PageFormat.PageSize];
        using (var f = new FileStream(path, FileMode.Open, FileAccess.ReadWrite))
        {
            f.ReadExactly(page);
            (DatabaseHeader.TryRead(page)! with { ContentLayout = 0 }).Write(page);
            f.Position = 0;
            f.Write(page);
        }
        Assert.NotNull(DatabaseSet.Inspect(path, allowBuffered: true)!.OtherLayout);
        var attach = Request(folder, 50, 30);
        attach.DatabaseSource = DatabaseSource.Attach;
        var ex = Assert.Throws<EngineException>(() => DatabaseSet.CheckBeforeWriting(TestPlanner.Plan(attach)));
        Assert.Equal("DatabaseMismatch", ex.Code);
        Assert.Contains("earlier layout", ex.Message);
        var again = Prepare(Request(folder, 50, 30))[0];
        Assert.True(again.Created);
        Assert.Null(again.Header.OtherLayout);
    }

    [Theory]
    [InlineData(91, 0, "CompressibilityPercentOutOfRange", "CompressibilityPercent '91'")]
    [InlineData(-1, 0, "CompressibilityPercentOutOfRange", "CompressibilityPercent '-1'")]
    [InlineData(0, 76, "DuplicatePercentOutOfRange", "DuplicatePercent '76'")]
    public void Targets_out_of_range_are_refused_by_name_before_anything_is_written(int compressibility, int duplicates, string code, string named)
    {
        using var folder = new TestFolder("profilebad");
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(folder, compressibility, duplicates)));
        Assert.Equal(code, ex.Code);
        Assert.Contains(named, ex.Message);
        Assert.False(Directory.Exists(folder.Combine("DB1")));
    }
}
