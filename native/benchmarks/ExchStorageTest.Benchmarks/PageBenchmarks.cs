using BenchmarkDotNet.Attributes;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// The page work of every transactional I/O: a page read is verified (identity and checksum of
/// 32 KiB), a page written is stamped (content and checksum). Checksum is the page checksum alone
/// (<see cref="PageChecksum"/>), Crc the CRC32C of a whole page that format 1 pages carried. Thread CPU, so a busy machine inflates it less
/// than wall-clock IOPS. FillProfiled is a page's content with a data profile of 50% compressible and 50%
/// duplicate 4 KiB blocks, against Fill's default incompressible, unique content; FillCompressible90 and
/// FillCompressible30 the profiles whose 512-byte sectors' random shares end farthest from a whole vector step.
/// </summary>
public class PageBenchmarks
{
    private readonly byte[] _page = new byte[PageFormat.PageSize];
    private readonly DatabaseContent _unique = new(0xABCDEF);
    private readonly DatabaseContent _profiled = new(0xABCDEF, new ExchStorageTest.Contract.DataProfile(50, 50));
    private readonly DatabaseContent _compressible90 = new(0xABCDEF, new ExchStorageTest.Contract.DataProfile(90, 0));
    private readonly DatabaseContent _compressible30 = new(0xABCDEF, new ExchStorageTest.Contract.DataProfile(30, 0));
    private long _generation = 1;

    [GlobalSetup]
    public void Setup() => PageFormat.Stamp(_page, 1234, _unique, 1);

    [Benchmark]
    public bool Verify() => PageFormat.Verify(_page, 1234, 0xABCDEF).Ok;

    [Benchmark]
    public void Stamp() => PageFormat.Stamp(_page, 1234, _unique, ++_generation);

    [Benchmark]
    public void Fill() => PageContent.Fill(_page.AsSpan(PageFormat.HeaderBytes), 0xABCDEF, 1234, ++_generation);

    /// <summary>Page 1235 of a 50/50 profile holds 4 duplicate blocks (the profile's 8 x 50% per page).</summary>
    [Benchmark]
    public void FillProfiled() => _profiled.Fill(_page, 1235, ++_generation);

    [Benchmark]
    public void FillCompressible90() => _compressible90.Fill(_page, 1235, ++_generation);

    [Benchmark]
    public void FillCompressible30() => _compressible30.Fill(_page, 1235, ++_generation);

    [Benchmark]
    public uint Checksum() => PageChecksum.Compute(_page);

    [Benchmark]
    public uint Crc() => Crc32C.Compute(_page.AsSpan(4));
}
