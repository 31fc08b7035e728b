using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>
/// Issue 17 item 13 (the soak itself is a benchmark: docs/benchmarks.md). A 24-hour run checkpoints
/// its whole results document every sample interval; that must stream to disk, not build the
/// document in memory, or memory would grow with the run.
/// </summary>
public class MemoryTests : IDisposable
{
    private readonly TestFolder _dir = new("mem");

    [Fact]
    public void A_checkpoint_allocates_the_same_however_large_the_results_have_grown()
    {
        var r = new TestResults();
        string path = OutputFile.CreateUnique(_dir.Path, "r", ".json");
        var allocated = new List<long>();
        for (int round = 0; round < 3; round++)
        {
            for (int i = 0; i < 20_000; i++)
                r.TimeSeries.Add(new SamplePoint { Stream = StreamNames.DatabaseRead, ElapsedSeconds = i, OperationsPerSecond = 123.456, AverageLatencyMs = 1.234 });
            ResultsFile.Save(r, path); // warm
            long before = GC.GetAllocatedBytesForCurrentThread();
            ResultsFile.Save(r, path);
            allocated.Add(GC.GetAllocatedBytesForCurrentThread() - before);
        }
        Assert.True(new FileInfo(path).Length > 15 << 20, "the document should be large by now");
        // 20 000 -> 60 000 samples (5 -> 16 MB of JSON): the allocation per save must not follow.
        Assert.True(allocated[2] < 2 * allocated[0] && allocated[2] < 1 << 20, $"allocated per save: {string.Join(", ", allocated)} bytes");
    }

    public void Dispose() => _dir.Dispose();
}
