using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Workload;

public class CacheModelTests
{
    private readonly ITestOutputHelper _out;
    public CacheModelTests(ITestOutputHelper output) => _out = output;

    [Fact]
    public void Misses_allocate_until_full_then_stall_until_the_scavenger_frees_buffers()
    {
        var c = new CacheModel(16, 2, 4);
        for (int p = 1; p <= 16; p++)
        {
            Assert.Equal(CacheAccess.Miss, c.Access(p, modify: p % 2 == 0, out int slot));
            c.ReadCompleted(slot);
        }
        Assert.Equal(16, c.Resident);
        Assert.Equal(8, c.DirtyCount);
        Assert.Equal(CacheAccess.Hit, c.Access(3, false, out _));
        Assert.Equal(CacheAccess.Stall, c.Access(100, false, out _));
        Assert.Equal(1, c.Stalls);
        Assert.True(c.WantsScavenge);
        // The scavenger evicts clean pages and hands out dirty ones (coalescing neighbours) until the stop threshold.
        int flushes = 0;
        while (c.NextFlush(out int first, out int pages, out int s1, out int s2))
        {
            flushes++;
            Assert.InRange(pages, 1, 2);
            c.FlushCompleted(s1);
            c.FlushCompleted(s2);
        }
        Assert.True(c.Available >= c.StopThreshold);
        Assert.Equal(CacheAccess.Miss, c.Access(100, false, out _));
    }

    [Fact]
    public void With_every_write_slot_busy_the_scavenger_evicts_clean_pages_up_to_the_next_dirty_one()
    {
        // 8 buffers: pages 1-3 clean, 4 dirty, 5-8 clean; none referenced once the hand has passed.
        var c = new CacheModel(8, 3, 6);
        for (int p = 1; p <= 8; p++) { c.Access(p, modify: p == 4, out int s); c.ReadCompleted(s); }
        Assert.True(c.WantsScavenge);
        c.EvictClean(); // first sweep clears the reference bits, then evicts 1-3 and stops at dirty 4
        Assert.False(c.IsResident(1));
        Assert.False(c.IsResident(3));
        Assert.True(c.IsResident(4));
        Assert.True(c.IsResident(5), "evicted past the dirty page: the write-back order would no longer be the clock's");
        // The next write the scavenger hands out is that dirty page.
        Assert.True(c.NextFlush(out int first, out _, out _, out _));
        Assert.Equal(4, first);
    }

    [Fact]
    public void The_pool_target_raises_the_thresholds_but_never_beyond_an_eighth_of_the_cache()
    {
        var c = new CacheModel(1024, 10, 20);
        c.PoolTarget = 50;
        Assert.Equal((50, 100), (c.StartThreshold, c.StopThreshold));
        c.PoolTarget = 5;
        Assert.Equal((10, 20), (c.StartThreshold, c.StopThreshold));
        c.PoolTarget = 100_000;
        Assert.Equal((128, 256), (c.StartThreshold, c.StopThreshold));
        Assert.Equal((10, 20), (c.ConfiguredStartThreshold, c.ConfiguredStopThreshold));
    }

    [Fact]
    public void Redirtied_page_stays_resident_after_its_flush()
    {
        var c = new CacheModel(8, 1, 2);
        for (int p = 1; p <= 8; p++) { c.Access(p * 10, true, out int s); c.ReadCompleted(s); }
        Assert.True(c.NextFlush(out int first, out _, out int s1, out _));
        c.Access(first, true, out _);
        c.FlushCompleted(s1);
        Assert.True(c.IsResident(first));
    }

    /// <summary>
    /// Drives the transactional source with simulated completions (no disk), a fixed seed and
    /// completions in random order: the operation mix must turn into the seen Jetstress ratios.
    /// </summary>
    [Fact]
    public void Operation_mix_produces_jetstress_ratios()
    {
        const long pages = 40_000;
        var (cap, start, stop) = CacheModel.Size(64L << 20, pages);
        var w = new InstanceWorkload(1, 0x1234_5678_9ABC, pages, 0, new[] { 1, 2, 3, 4, 5, 6, 7, 8 }, new CacheModel(cap, start, stop), 0, 42);
        w.DatabaseReadStream = 0; w.DatabaseWriteStream = 1; w.LogWriteStream = 2;
        var src = new TransactionalSource(w, 6, WorkloadShape.Default);
        var rng = new Random(7);
        var outstanding = new List<(IoPlan Plan, byte[] Buffer)>();
        long[] ops = new long[3], bytes = new long[3];
        var pool = new Stack<byte[]>();
        for (int i = 0; i < src.Depth; i++) pool.Push(new byte[src.MaxLength]);
        bool warm = false;
        for (int step = 0; step < 150_000; step++)
        {
            while (outstanding.Count < src.Depth)
            {
                var buffer = pool.Pop();
                var plan = default(IoPlan);
                if (!src.TryNext(ref plan, buffer)) { pool.Push(buffer); break; }
                outstanding.Add((plan, buffer));
            }
            if (outstanding.Count == 0) continue;
            int i = rng.Next(outstanding.Count);
            var (p, b) = outstanding[i];
            outstanding.RemoveAt(i);
            if (p.Operation == IoOperation.Read) PageFormat.Stamp(b, p.Offset / PageFormat.PageSize, w.Content, 1);
            warm |= w.Cache.Resident >= w.Cache.Capacity * 0.9;
            if (warm) { ops[p.StreamId]++; bytes[p.StreamId] += p.Length; }
            src.Completed(p, p.Length, b);
            pool.Push(b);
        }
        double readAvg = bytes[0] / (double)ops[0], writeAvg = bytes[1] / (double)ops[1], logAvg = bytes[2] / (double)ops[2];
        double rw = ops[0] / (double)ops[1], dbToLog = (ops[0] + ops[1]) / (double)ops[2];
        _out.WriteLine($"reads {ops[0]} avg {readAvg:F0}; writes {ops[1]} avg {writeAvg:F0}; logs {ops[2]} avg {logAvg:F0}; r:w {rw:F2}; db:log {dbToLog:F1}; stalls {w.Cache.Stalls}");
        Assert.Equal(0, w.ChecksumErrors);
        Assert.InRange(readAvg, 32_000, 34_000);
        Assert.InRange(writeAvg, 34_000, 40_000);
        Assert.InRange(rw, 1.5, 2.6);
        Assert.InRange(dbToLog, 8, 15);
        Assert.InRange(logAvg, 12_000, 21_000);
    }
}
