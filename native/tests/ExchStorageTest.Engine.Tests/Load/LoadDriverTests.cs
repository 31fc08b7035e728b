using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Load.Sources;

namespace ExchStorageTest.Engine.Tests.Load;

public class LoadDriverTests : IDisposable
{
    private readonly TestFolder _dir = new("driver");

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
