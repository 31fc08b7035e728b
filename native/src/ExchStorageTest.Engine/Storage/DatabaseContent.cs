using System.Runtime.CompilerServices;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// What the data pages of one database hold: its instance id and its <see cref="DataProfile"/>. The default profile
/// is <see cref="PageContent"/> over the whole content area, byte for byte what every database held before profiles.
/// </summary>
/// <remarks>
/// A profiled page is laid out in <see cref="DataProfile.BlockBytes"/> blocks (8 per page) of <see cref="SectorBytes"/>
/// sectors (8 per block). Each sector of the page's unique blocks is random bytes (the page's generators, seeded once,
/// continued from sector to sector) followed by a run of one word repeated: the runs are the compressible share, and a
/// compressor stores each in a few bytes while the random bytes do not shrink at all, so what it removes is the runs'
/// share. Every sector has its own random bytes, so the profile holds at 512 bytes as at 4 KiB: no sector of a
/// unique block repeats another, where one run per block filled whole sectors with the same word and an array that
/// deduplicates 512-byte sectors found 63% of a 50/30 database duplicate, not 30%. Duplicate blocks are the page's last blocks, each
/// a copy of one of <see cref="PoolBlocks"/> blocks made once per database (themselves random bytes and a run), so they
/// repeat one another across the file and every rewrite keeps the share. Page p holds floor(8pD) - floor(8(p-1)D)
/// duplicates (D the share): the file's share is D to within one block, and page 0's identity block never is one.
/// Cost per page: the random share of today's generation (each sector's rounded up to whole vector steps, the excess
/// overwritten by its run; <see cref="PageContent.GenerateSectors"/>), vector stores for the runs, a copy per duplicate.
/// </remarks>
public sealed class DatabaseContent
{
    public const int BlocksPerPage = PageFormat.PageSize / DataProfile.BlockBytes;
    /// <summary>The smallest unit an array deduplicates (a disk sector): each holds its share of random bytes.</summary>
    public const int SectorBytes = 512;
    public const int SectorsPerBlock = DataProfile.BlockBytes / SectorBytes;
    /// <summary>How many distinct blocks the duplicates copy: few enough that every one repeats many times in any database.</summary>
    public const int PoolBlocks = 16;
    private const ulong PoolSalt = 0xD1B54A32D192ED03UL;

    private readonly byte[]? _pool;
    /// <summary>Random bytes at the start of each sector of a unique block (whole words, the block's share spread evenly); the rest of each sector is the run.</summary>
    private readonly int[] _sectorRandomBytes = new int[SectorsPerBlock];

    /// <summary>The default content: incompressible, unique pages.</summary>
    public DatabaseContent(ulong instanceId) : this(instanceId, DataProfile.Default) { }

    public DatabaseContent(ulong instanceId, DataProfile profile)
    {
        InstanceId = instanceId;
        Profile = profile;
        int words = RandomBytes(profile.CompressibilityPercent) / 8;
        for (int sector = 0; sector < SectorsPerBlock; sector++)
            _sectorRandomBytes[sector] = ((sector + 1) * words / SectorsPerBlock - sector * words / SectorsPerBlock) * 8;
        if (profile.DuplicatePercent > 0)
        {
            _pool = new byte[PoolBlocks * DataProfile.BlockBytes];
            for (int i = 0; i < PoolBlocks; i++)
                FillBlocks(_pool.AsSpan(i * DataProfile.BlockBytes, DataProfile.BlockBytes), 0, 1, instanceId ^ PoolSalt, -1 - i, 0);
        }
    }

    public ulong InstanceId { get; }
    public DataProfile Profile { get; }

    /// <summary>The random bytes of a block for a compressibility: the rest, rounded to whole words, is the run.</summary>
    internal static int RandomBytes(int compressibilityPercent) =>
        (int)Math.Round(DataProfile.BlockBytes * (100 - compressibilityPercent) / 100.0 / 8) * 8;

    /// <summary>How many of page <paramref name="pageNumber"/>'s blocks are duplicates (its last ones).</summary>
    public int DuplicateBlocks(long pageNumber)
    {
        if (_pool is null || pageNumber < 1) return 0;
        long perHundred = (long)BlocksPerPage * Profile.DuplicatePercent;
        return (int)(pageNumber * perHundred / 100 - (pageNumber - 1) * perHundred / 100);
    }

    /// <summary>Fills a data page's content area (every byte after its <see cref="PageFormat.HeaderBytes"/> identity).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written goes through here: no slow first tier
    public void Fill(Span<byte> page, long pageNumber, long generation)
    {
        if (Profile.IsDefault)
        {
            PageContent.Fill(page.Slice(PageFormat.HeaderBytes, PageFormat.PageSize - PageFormat.HeaderBytes), InstanceId, pageNumber, generation);
            return;
        }
        int duplicates = DuplicateBlocks(pageNumber);
        int unique = BlocksPerPage - duplicates;
        FillBlocks(page.Slice(0, unique * DataProfile.BlockBytes), PageFormat.HeaderBytes, unique, InstanceId, pageNumber, generation);
        if (duplicates == 0) return;
        // Which pool block each duplicate copies: mixed from the page, its generation and the block, so copies spread over the pool.
        ulong pick = (ulong)pageNumber * 0x9E3779B97F4A7C15UL ^ (ulong)generation * 0xC2B2AE3D27D4EB4FUL;
        for (int b = unique; b < BlocksPerPage; b++)
        {
            pick = (pick ^ (pick >> 29)) * 0xBF58476D1CE4E5B9UL + (ulong)b;
            int source = (int)((pick >> 40) % PoolBlocks);
            _pool.AsSpan(source * DataProfile.BlockBytes, DataProfile.BlockBytes).CopyTo(page.Slice(b * DataProfile.BlockBytes, DataProfile.BlockBytes));
        }
    }

    /// <summary>
    /// <paramref name="blocks"/> unique blocks from the start of <paramref name="target"/>: each sector its random bytes (the
    /// first sector's from <paramref name="skip"/>, past the page identity), then its run of one word repeated.
    /// </summary>
    private unsafe void FillBlocks(Span<byte> target, int skip, int blocks, ulong instanceId, long pageNumber, long generation)
    {
        ulong* state = stackalloc ulong[PageContent.StateWords];
        PageContent.Seed(state, instanceId, pageNumber, generation);
        // The run's word comes from the page's generators too: no two pages share it, and it is never zeros (which
        // arrays may treat as unallocated rather than compress).
        ulong word = state[0] | 1;
        fixed (byte* basePtr = target)
            PageContent.GenerateSectors(state, basePtr, blocks * SectorsPerBlock, SectorBytes, _sectorRandomBytes, skip, word);
    }
}
