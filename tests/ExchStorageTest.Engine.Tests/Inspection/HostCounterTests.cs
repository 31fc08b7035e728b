using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Counters;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class HostCounterTests
{
    private static LinuxHostSnapshot Snap(string dir, double t) => LinuxHostSnapshot.FromTexts(t,
        EnvFixtures.Text($"{dir}/stat"), EnvFixtures.Text($"{dir}/meminfo"), EnvFixtures.Text($"{dir}/vmstat"), EnvFixtures.Text($"{dir}/diskstats"));

    [Fact]
    public void Cpu_busy_counts_iowait_as_idle()
    {
        var a = ProcStat.ParseCpu(EnvFixtures.Text("proc1/stat"))!.Value;
        var b = ProcStat.ParseCpu(EnvFixtures.Text("proc2/stat"))!.Value;
        Assert.Equal(10000, a.Total);
        // Δtotal = 2000, Δ(idle+iowait) = 1000 -> 50 %
        Assert.Equal(50.0, CpuTimes.ProcessorTimePercent(a, b), 9);
        Assert.Equal(0, CpuTimes.ProcessorTimePercent(a, a));
        Assert.Null(ProcStat.ParseCpu("intr 1"));
    }

    [Fact]
    public void Meminfo_in_bytes_and_vmstat_pgsteal_sum()
    {
        var m = ProcKeyValues.ParseMeminfo(EnvFixtures.Text("proc1/meminfo"));
        Assert.Equal(2097152L * 1024, m["MemAvailable"]);
        Assert.Equal(0, m["HugePages_Total"]);
        Assert.Equal(1500, ProcKeyValues.PagesStolen(ProcKeyValues.ParseVmstat(EnvFixtures.Text("proc1/vmstat"))));
    }

    [Fact]
    public void Diskstats_parses_old_and_new_field_counts()
    {
        var d = ProcDiskstats.Parse(EnvFixtures.Text("proc1/diskstats"));
        Assert.Equal(4, d.Count);
        Assert.Equal(new DiskStat("sdb", 1000, 64000, 5000, 2000, 128000, 4000, 2, 3000, 9000), d["sdb"]);
        Assert.Equal(8980, d["sdb1"].WeightedIoMs);
    }

    [Fact]
    public void Disk_rates_from_two_snapshots()
    {
        var a = ProcDiskstats.Parse(EnvFixtures.Text("proc1/diskstats"))["sdb"];
        var b = ProcDiskstats.Parse(EnvFixtures.Text("proc2/diskstats"))["sdb"];
        var r = ProcDiskstats.Rates(a, b, 10);
        Assert.Equal(150, r.ReadsPerSecond, 9);             // 1500 reads / 10 s
        Assert.Equal(100, r.WritesPerSecond, 9);            // 1000 writes / 10 s
        Assert.Equal(0.010, r.AvgSecPerRead, 9);            // 15000 ms / 1500 reads
        Assert.Equal(0.005, r.AvgSecPerWrite, 9);           // 5000 ms / 1000 writes
        Assert.Equal(3.0, r.AvgQueueLength, 9);             // 30000 weighted ms / 10000 ms
        Assert.Equal(96000 * 512 / 10.0, r.ReadBytesPerSecond, 6);
        Assert.Equal(default, ProcDiskstats.Rates(b, a, 10)); // counters went backwards: device reset
        Assert.Equal(default, ProcDiskstats.Rates(a, b, 0));
    }

    [Fact]
    public void Sampler_accumulates_average_min_max_with_spec_names()
    {
        var snaps = new Queue<LinuxHostSnapshot>(new[] { Snap("proc1", 0), Snap("proc2", 10), Snap("proc2", 20), Snap("proc1", 30) });
        using var s = new LinuxHostCounterSampler(new[] { "sdb", "sdb", "missing" }, () => snaps.Dequeue());
        s.Start();
        s.Sample();
        s.Sample();
        var c = s.Results().ToDictionary(x => x.Name);

        var cpu = c[HostCounterNames.ProcessorTime];
        Assert.Equal("/proc", cpu.Source);
        Assert.Contains("iowait", cpu.Origin);
        Assert.Equal(2, cpu.Samples);
        Assert.Equal(50, cpu.Maximum, 9);
        Assert.Equal(0, cpu.Minimum, 9);   // no CPU time passed in the second interval
        Assert.Equal(25, cpu.Average, 9);

        var avail = c[HostCounterNames.AvailableMBytes];
        Assert.Equal(1024, avail.Average, 9);
        var repurposed = c[HostCounterNames.TransitionPagesRePurposed];
        Assert.Equal(200, repurposed.Maximum, 9);  // 2000 pages / 10 s
        Assert.Equal(0, repurposed.Minimum, 9);
        Assert.Contains("pgsteal", repurposed.Origin);
        Assert.Equal(28000 * 1024, c[HostCounterNames.PoolNonpagedBytes].Average, 9);
        Assert.Equal(130000 * 1024, c[HostCounterNames.PoolPagedBytes].Average, 9);
        Assert.Contains("no Free System Page Table Entries analogue", c[HostCounterNames.PageTablesBytes].Origin);
        Assert.False(c.ContainsKey(HostCounterNames.FreeSystemPageTableEntries));

        var lat = c[@"\LogicalDisk(sdb)\Avg. Disk sec/Read"];
        Assert.Equal(0.010, lat.Maximum, 9);
        Assert.Equal(0, lat.Minimum, 9);
        Assert.Equal(150, c[@"\LogicalDisk(sdb)\Disk Reads/sec"].Maximum, 9);
        Assert.Equal(100, c[@"\LogicalDisk(sdb)\Disk Writes/sec"].Maximum, 9);
        Assert.Equal(0.005, c[@"\LogicalDisk(sdb)\Avg. Disk sec/Write"].Maximum, 9);
        Assert.Equal(1.5, c[@"\LogicalDisk(sdb)\Avg. Disk Queue Length"].Average, 9);
        Assert.DoesNotContain(c.Keys, k => k.Contains("missing"));
        Assert.DoesNotContain(c.Keys, k => k.Contains("vda"));
    }

    [Fact]
    public void Accumulator_ignores_nan_and_keeps_first_seen_order()
    {
        var acc = new HostCounterAccumulator();
        acc.Add("b", "/proc", null, 1);
        acc.Add("a", "/proc", null, double.NaN);
        acc.Add("a", "/proc", null, 3);
        acc.Add("b", "/proc", null, 5);
        var list = acc.ToCounters();
        Assert.Equal(new[] { "b", "a" }, list.Select(x => x.Name));
        Assert.Equal(3, list[0].Average);
        Assert.Equal(1, list[0].Minimum);
        Assert.Equal(5, list[0].Maximum);
        Assert.Equal(1, list[1].Samples);
    }

    [Fact]
    public void Live_proc_sampler_runs_here()
    {
        if (!OperatingSystem.IsLinux()) return;
        using var s = new LinuxHostCounterSampler(new[] { ProcDiskstats.Parse(File.ReadAllText("/proc/diskstats")).Keys.First() });
        s.Start();
        Thread.Sleep(50);
        s.Sample();
        var c = s.Results();
        Assert.Contains(c, x => x.Name == HostCounterNames.ProcessorTime && x.Samples == 1);
        Assert.Contains(c, x => x.Name == HostCounterNames.AvailableMBytes && x.Average > 0);
    }

    [Fact]
    public async Task Loop_samples_on_its_interval()
    {
        int n = 0;
        var snaps = Enumerable.Range(0, 1000).Select(i => Snap(i % 2 == 0 ? "proc1" : "proc2", i)).ToArray();
        var sampler = new LinuxHostCounterSampler(new[] { "sdb" }, () => snaps[Interlocked.Increment(ref n) - 1]);
        using var loop = new HostCounterLoop(sampler, TimeSpan.FromMilliseconds(20));
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (Volatile.Read(ref n) < 4 && DateTime.UtcNow < deadline) await Task.Delay(10);
        var c = loop.Stop();
        Assert.True(c.Single(x => x.Name == HostCounterNames.ProcessorTime).Samples >= 3);
    }

    [Fact]
    public void Stopping_the_loop_throws_nothing_on_the_stopping_thread()
    {
        // Under Wine, an exception thrown on the main thread while it stopped the counters (the old
        // loop cancelled a PeriodicTimer: OperationCanceledException) killed that thread and hung the run.
        int n = 0;
        var snaps = Enumerable.Range(0, 1000).Select(i => Snap(i % 2 == 0 ? "proc1" : "proc2", i)).ToArray();
        var sampler = new LinuxHostCounterSampler(new[] { "sdb" }, () => snaps[Math.Min(Interlocked.Increment(ref n) - 1, 999)]);
        var loop = new HostCounterLoop(sampler, TimeSpan.FromMilliseconds(10));
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (Volatile.Read(ref n) < 3 && DateTime.UtcNow < deadline) Thread.Sleep(5);
        int thread = Environment.CurrentManagedThreadId;
        var thrown = new List<string>();
        EventHandler<System.Runtime.ExceptionServices.FirstChanceExceptionEventArgs> watch = (_, e) =>
        {
            if (Environment.CurrentManagedThreadId == thread) lock (thrown) thrown.Add(e.Exception.GetType().Name);
        };
        AppDomain.CurrentDomain.FirstChanceException += watch;
        try { loop.Dispose(); }
        finally { AppDomain.CurrentDomain.FirstChanceException -= watch; }
        Assert.Empty(thrown);
        Assert.Same(loop.Stop(), loop.Stop());
    }

    [Fact]
    public void Pdh_sampler_asks_for_the_spec_english_paths()
    {
        using var s = new PdhHostCounterSampler(new[] { "E:", "e:", "F:" });
        var paths = s.CounterPaths.Select(p => p.Path).ToList();
        Assert.Contains(@"\Processor(_Total)\% Processor Time", paths);
        Assert.Contains(@"\Memory\Free System Page Table Entries", paths);
        Assert.Contains(@"\Memory\Transition Pages RePurposed/sec", paths);
        Assert.Contains(@"\LogicalDisk(E:)\Avg. Disk sec/Read", paths);
        Assert.Contains(@"\LogicalDisk(F:)\Avg. Disk Queue Length", paths);
        Assert.Equal(6 + 2 * 5, paths.Count);
        if (!OperatingSystem.IsWindows()) Assert.Throws<ExchStorageTest.Engine.Protocol.EngineException>(() => s.Start());
    }
}
