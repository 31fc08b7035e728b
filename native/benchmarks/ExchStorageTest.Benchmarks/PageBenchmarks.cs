using BenchmarkDotNet.Attributes;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// The page work of every transactional I/O (issue 34): a page read is verified (identity and CRC32C of
/// 32 KiB), a page written is stamped (content and CRC32C). Thread CPU, so a busy machine inflates it less
/// than wall-clock IOPS.
/// </summary>
public class PageBenchmarks
{
    private readonly byte[] _page = new byte[PageFormat.PageSize];
    private long _generation = 1;

    [GlobalSetup]
    public void Setup() => PageFormat.Stamp(_page, 1234, 0xABCDEF, 1);

    [Benchmark]
    public bool Verify() => PageFormat.Verify(_page, 1234, 0xABCDEF).Ok;

    [Benchmark]
    public void Stamp() => PageFormat.Stamp(_page, 1234, 0xABCDEF, ++_generation);

    [Benchmark]
    public void Fill() => PageContent.Fill(_page.AsSpan(PageFormat.HeaderBytes), 0xABCDEF, 1234, ++_generation);

    [Benchmark]
    public uint Crc() => Crc32C.Compute(_page.AsSpan(4));
}
