using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Load.Sources;

namespace ExchStorageTest.Engine.Tests.Load;

public class LoadDriverTests : IDisposable
{
    private readonly TestFolder _dir = new("driver");

    /// <summary>A file whose every block is written, so reads reach the device instead of a hole.</summary>
    private IoFile MakeWrittenFile(long bytes)
    {
        string path = _dir.Combine($"f{Guid.NewGuid():N}.dat");
        using (var fs = new FileStream(path, FileMode.CreateNew))
        {
            var block = new byte[1 << 20];
            new Random(5).NextBytes(block);
            for (long done = 0; done < bytes; done += block.Length) fs.Write(block);
            fs.Flush(flushToDisk: true);
        }
        return IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
    }

    private IoFile MakeFile(long bytes)
    {
        string path = _dir.Combine($"f{Guid.NewGuid():N}.dat");
        using (var fs = new FileStream(path, FileMode.CreateNew)) { fs.SetLength(bytes); fs.Write(new byte[4096]); }
        return IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
    }

    [Fact]
    public void Closed_loop_random_mix_counts_every_io_into_its_stream()
    {
        using var file = MakeFile(16 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int reads = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        int writes = driver.RegisterStream(new StreamKey(1, "DatabaseWrite", IoOperation.Write));
        driver.AddWorker(new[] { new LoadStream("db", new RandomBlockSource(0, 0, 16 << 20, 32768, 64, reads, writes, 11), depth: 4) });
        driver.Start();
        driver.SetAccounting(true);
        Thread.Sleep(700);
        var sample = driver.Sample();
        driver.Stop();

        var r = driver.Totals(reads);
        var w = driver.Totals(writes);
        Assert.True(r.Operations > 10 && w.Operations > 5, $"reads {r.Operations} writes {w.Operations}");
        double readShare = (double)r.Operations / (r.Operations + w.Operations);
        Assert.InRange(readShare, 0.5, 0.78);
        Assert.Equal(r.Operations * 32768L, r.Bytes);
        Assert.Equal(0, r.Errors + w.Errors);
        Assert.True(r.Latency.MinNs > 0);
        Assert.True(r.MeanQueueDepth > 0 && r.MeanQueueDepth <= 4.0001, $"mean QD {r.MeanQueueDepth}");
        Assert.Equal(2, sample.Count);
        Assert.True(sample[reads].Operations > 0);
        Assert.True(driver.AccountedSeconds > 0.5);
    }

    [Fact]
    public void Mean_queue_depth_is_kept_per_stream_on_a_shared_worker()
    {
        using var file = MakeWrittenFile(16 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int deep = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        int shallow = driver.RegisterStream(new StreamKey(2, "DatabaseRead", IoOperation.Read));
        driver.AddWorker(new[]
        {
            new LoadStream("deep", new RandomBlockSource(0, 0, 8 << 20, 4096, 100, deep, deep, 3), depth: 6),
            new LoadStream("shallow", new RandomBlockSource(0, 8 << 20, 8 << 20, 4096, 100, shallow, shallow, 4), depth: 1),
        });
        driver.Start();
        driver.SetAccounting(true);
        Thread.Sleep(600);
        driver.Stop();

        // Closed loop keeps each stream's slots busy except between a reap and the next issue, so
        // each mean sits just under its own depth; a shared or missed integration would not.
        double deepQd = driver.Totals(deep).MeanQueueDepth;
        double shallowQd = driver.Totals(shallow).MeanQueueDepth;
        Assert.InRange(deepQd, 3.0, 6.0001);
        Assert.InRange(shallowQd, 0.5, 1.0001);
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void Workers_are_pinned_round_robin_unless_told_not_to(bool pin)
    {
        using var file = MakeFile(4 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false, pinWorkers: pin);
        int id = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        for (int i = 0; i < 3; i++)
            driver.AddWorker(new[] { new LoadStream($"w{i}", new RandomBlockSource(0, 0, 4 << 20, 4096, 100, id, id, (ulong)i + 1), depth: 1) });
        driver.Start();
        Thread.Sleep(100);
        driver.Stop();

        // Pinned: worker i on the i-th CPU the process may use, wrapping round; not pinned: nothing
        // listed (-1 is kept for a pin the OS refused).
        var allowed = CpuAffinity.AllowedCpus();
        var expected = pin ? Enumerable.Range(0, 3).Select(i => allowed[i % allowed.Count]).ToArray() : Array.Empty<int>();
        Assert.Equal(expected, driver.WorkerCpus);
    }

    [Fact]
    public void Every_request_reaches_the_os_before_the_next_is_built()
    {
        // Batching several requests into one submission let io_uring plug them until the last was
        // built, idling a fast device (docs/benchmarks.md): the driver must submit each one at once.
        using var file = MakeWrittenFile(8 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int id = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        var backend = new SubmitWatchingBackend(IoBackendFactory.Create(8));
        driver.AddWorker(new[] { new LoadStream("r", new RandomBlockSource(0, 0, 8 << 20, 4096, 100, id, id, 9), depth: 8) }, backend);
        driver.Start();
        Thread.Sleep(300);
        driver.Stop();

        Assert.True(backend.Queued > 100, $"queued {backend.Queued}");
        Assert.Equal(1, backend.MostQueuedBeforeSubmit);
    }

    /// <summary>Passes everything to a real backend and notes how many requests wait for each Submit.</summary>
    private sealed class SubmitWatchingBackend(IIoBackend inner) : IIoBackend
    {
        private int _pending;
        public int Queued { get; private set; }
        public int MostQueuedBeforeSubmit { get; private set; }
        public string Name => inner.Name;
        public int Depth => inner.Depth;
        public bool CompletesOnSubmit => inner.CompletesOnSubmit;

        public bool TryQueue(in IoRequest request)
        {
            if (!inner.TryQueue(request)) return false;
            Queued++;
            MostQueuedBeforeSubmit = Math.Max(MostQueuedBeforeSubmit, ++_pending);
            return true;
        }

        public int Submit()
        {
            _pending = 0;
            return inner.Submit();
        }

        public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000) => inner.Reap(completions, minComplete, timeoutMs);
        public void Dispose() => inner.Dispose();
    }

    [Fact]
    public void Accounting_off_excludes_warmup_from_the_window()
    {
        using var file = MakeFile(4 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int id = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        driver.AddWorker(new[] { new LoadStream("r", new RandomBlockSource(0, 0, 4 << 20, 4096, 100, id, id, 5), depth: 1) });
        driver.Start();
        Thread.Sleep(200);
        var warm = driver.Sample();
        driver.Stop();
        Assert.True(warm[id].Operations > 0);
        Assert.Equal(0, driver.Totals(id).Operations);
    }

    [Fact]
    public void Open_loop_paces_near_the_target_rate_and_records_scheduled_latency()
    {
        using var file = MakeFile(4 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int id = driver.RegisterStream(new StreamKey(1, "MaintenanceRead", IoOperation.Read));
        driver.AddWorker(new[] { new LoadStream("bdm", new SequentialSource(0, 0, 4 << 20, 65536, IoOperation.Read, id), depth: 2, Arrival.Linear, rateIops: 200) });
        driver.Start();
        driver.SetAccounting(true);
        Thread.Sleep(2000);
        driver.Stop();
        var t = driver.Totals(id);
        // Correctness of pacing (not a performance goal): 200/s for ~2 s.
        Assert.InRange(t.OperationsPerSecond, 180, 220);
        Assert.Equal(t.Operations, t.Scheduled.Count);
        Assert.True(t.Scheduled.MeanNs >= t.Latency.MeanNs * 0.99);
    }

    [Fact]
    public void Reads_past_the_end_are_errors_and_stop_the_run_without_continue_on_error()
    {
        using var file = MakeFile(1 << 20);
        using var driver = new LoadDriver(new[] { file }, continueOnError: false);
        int id = driver.RegisterStream(new StreamKey(1, "DatabaseRead", IoOperation.Read));
        // The region deliberately runs past the end of the 1 MiB file: reads there come back short.
        driver.AddWorker(new[] { new LoadStream("r", new SequentialSource(0, 1 << 20, 1 << 20, 4096, IoOperation.Read, id), depth: 1) });
        driver.Start();
        driver.SetAccounting(true);
        var deadline = DateTime.UtcNow.AddSeconds(5);
        while (!driver.StopRequested && DateTime.UtcNow < deadline) Thread.Sleep(10);
        driver.Stop();
        Assert.True(driver.StoppedByError);
        var e = Assert.Single(driver.Errors());
        Assert.True(e.ShortTransfer);
        Assert.Equal(1 << 20, e.Offset);
    }

    public void Dispose() => _dir.Dispose();
}
