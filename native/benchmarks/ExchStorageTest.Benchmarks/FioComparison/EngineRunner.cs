using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Load.Sources;
using ExchStorageTest.Engine.Metrics;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>Runs the same scenario through our load driver and reports the same figures as fio.</summary>
public static class EngineRunner
{
    public sealed record PacedResult(double TargetIops, double AchievedIops, long LateIssues, double MaxLagMs, double MeanLatencyUs, double MeanScheduledLatencyUs);

    /// <param name="file">The test file the scenario reads and writes.</param>
    /// <param name="s">The scenario (block size, read share, queue depth).</param>
    /// <param name="seconds">How long to measure.</param>
    /// <param name="pin">Pin the worker thread to a CPU, as the engine does by default.</param>
    /// <param name="plain">Our io_uring backend without registered buffers and files (what registration saves).</param>
    public static (Measurement Result, string Backend) Run(string file, Scenario s, double seconds, bool pin, bool plain = false)
    {
        using var f = IoFileOpener.Open(file, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        long length = f.Length;
        using var driver = new LoadDriver(new[] { f }, continueOnError: false, seed: 17, pinWorkers: pin);
        int read = driver.RegisterStream(new StreamKey(1, "Read", IoOperation.Read));
        int write = driver.RegisterStream(new StreamKey(1, "Write", IoOperation.Write));
        IIoSource source = s.Sequential
            ? new SequentialSource(0, 0, length, s.BlockSize, s.ReadPercent == 100 ? IoOperation.Read : IoOperation.Write, s.ReadPercent == 100 ? read : write)
            : new RandomBlockSource(0, 0, length, s.BlockSize, s.ReadPercent, read, write, 0xC0FFEE);
        var stream = new[] { new LoadStream(s.Name, source, s.QueueDepth) };
        if (plain) driver.AddWorker(stream, new UnregisteredBackend(IoBackendFactory.Create(s.QueueDepth)));
        else driver.AddWorker(stream);
        driver.Start();
        Thread.Sleep(2000); // ramp, as fio --ramp_time=2
        var cpu0 = Process.GetCurrentProcess().TotalProcessorTime;
        driver.SetAccounting(true);
        Thread.Sleep(TimeSpan.FromSeconds(seconds));
        driver.SetAccounting(false);
        var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu0;
        driver.Stop();

        var r = driver.Totals(read);
        var w = driver.Totals(write);
        var all = new LatencyHistogram();
        all.Add(r.Latency);
        all.Add(w.Latency);
        var main = r.Operations >= w.Operations ? r.Latency : w.Latency;
        long ops = all.Count;
        double window = Math.Max(r.WindowSeconds, w.WindowSeconds);
        var m = new Measurement(ops / window, all.MeanNs / 1000.0, main.Percentile(99) / 1000.0, ops == 0 ? 0 : cpu.TotalMicroseconds / ops);
        return (m, driver.BackendName);
    }

    /// <summary>
    /// The CPU our single worker is pinned to, by the engine's own rule; fio gets the same one through
    /// --cpus_allowed, so both tools run under the same placement.
    /// </summary>
    public static int PinnedCpu() => CpuAffinity.ForWorker(0, CpuAffinity.AllowedCpus());

    /// <summary>Open-loop pacing check: Poisson arrivals at a target rate, QD headroom, for a fixed time.</summary>
    public static PacedResult RunPaced(string file, int blockSize, double rate, int depth, double seconds, bool pin)
    {
        using var f = IoFileOpener.Open(file, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false);
        using var driver = new LoadDriver(new[] { f }, continueOnError: false, seed: 23, pinWorkers: pin);
        int read = driver.RegisterStream(new StreamKey(1, "Read", IoOperation.Read));
        driver.AddWorker(new[] { new LoadStream("paced", new RandomBlockSource(0, 0, f.Length, blockSize, 100, read, read, 99), depth, Arrival.Poisson, rate) });
        driver.Start();
        driver.SetAccounting(true);
        Thread.Sleep(TimeSpan.FromSeconds(seconds));
        driver.Stop();
        var t = driver.Totals(read);
        return new PacedResult(rate, t.OperationsPerSecond, t.LateIssues, t.MaxLagMs, t.Latency.MeanNs / 1000.0, t.Scheduled.MeanNs / 1000.0);
    }

    /// <summary>A backend that is never told its files and buffers, so it registers nothing: the plain path of the same backend.</summary>
    private sealed class UnregisteredBackend(IIoBackend inner) : IIoBackend
    {
        public string Name => inner.Name + " (unregistered)";
        public int Depth => inner.Depth;
        public bool CompletesOnSubmit => inner.CompletesOnSubmit;
        public bool TryQueue(in IoRequest request) => inner.TryQueue(request);
        public int Submit() => inner.Submit();
        public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000) => inner.Reap(completions, minComplete, timeoutMs);
        public void Dispose() => inner.Dispose();
    }
}
