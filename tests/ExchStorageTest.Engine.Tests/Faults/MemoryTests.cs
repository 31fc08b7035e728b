using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Load.Sources;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>
/// Memory over a long run (the soak itself is a benchmark: docs/benchmarks.md). A 24-hour run checkpoints
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

    [Fact]
    public void Sampling_a_running_driver_leaves_no_histogram_behind_each_interval()
    {
        string path = _dir.Combine("d.dat");
        using (var fs = new FileStream(path, FileMode.CreateNew)) fs.SetLength(8 << 20);
        using var file = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: true);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false, pinWorkers: false);
        int read = driver.RegisterStream(new StreamKey(1, "Read", IoOperation.Read));
        int write = driver.RegisterStream(new StreamKey(1, "Write", IoOperation.Write));
        driver.AddWorker(new[] { new LoadStream("s", new RandomBlockSource(0, 0, file.Length, 4096, 50, read, write, 7), 2) });
        driver.Start();
        driver.SetAccounting(true);
        try
        {
            driver.Sample(); // warm
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 10; i++) driver.Sample();
            long perSample = (GC.GetAllocatedBytesForCurrentThread() - before) / 10;
            // A histogram is 38 KB; a sample of two streams needs a few hundred bytes.
            Assert.True(perSample < 4096, $"{perSample} bytes allocated per sample");
        }
        finally
        {
            driver.Stop();
        }
    }

    public void Dispose() => _dir.Dispose();
}
