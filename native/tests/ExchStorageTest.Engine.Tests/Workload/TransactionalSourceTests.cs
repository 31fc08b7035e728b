using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Workload;

/// <summary>
/// The transactional source driven by a simulated driver (no files: plans carry indexes only),
/// so the session model's rules can be checked I/O by I/O.
/// </summary>
public class TransactionalSourceTests
{
    private const int DatabaseRead = 0, DatabaseWrite = 1, LogWrite = 2;

    internal static InstanceWorkload Instance(long pages = 20_000, int cachePages = 256, ulong seed = 42)
    {
        var (cap, start, stop) = CacheModel.Size((long)cachePages * PageFormat.PageSize, pages);
        var w = new InstanceWorkload(1, 0xABCDEF, pages, databaseFileIndex: 0, logFileIndexes: new[] { 1, 2, 3, 4 },
            new CacheModel(cap, start, stop), lastLogGeneration: 0, seed);
        w.DatabaseReadStream = DatabaseRead;
        w.DatabaseWriteStream = DatabaseWrite;
        w.LogWriteStream = LogWrite;
        return w;
    }

    /// <summary>Completes an I/O as the device would: a read returns the page as it was stamped.</summary>
    internal static void Complete(TransactionalSource src, InstanceWorkload w, in IoPlan plan, byte[] buffer)
    {
        if (plan.Operation == IoOperation.Read && plan.StreamId == DatabaseRead)
            PageFormat.Stamp(buffer.AsSpan(0, PageFormat.PageSize), plan.Offset / PageFormat.PageSize, w.InstanceId, 1);
        src.Completed(plan, plan.Length, buffer);
    }

    [Fact]
    public void A_single_session_always_has_the_io_it_waits_for_in_flight()
    {
        // One session: whenever the source has nothing more to start, the session must be waiting
        // on a read or a log write that is already in flight (or on a flush, when the cache is out
        // of buffers). A commit that waited on a log write nobody had started left the session idle
        // until the worker polled again: busy only ~20% of the time on an SSD.
        var w = Instance();
        var src = new TransactionalSource(w, sessions: 1, WorkloadShape.Default);
        var inFlight = new List<(IoPlan Plan, byte[] Buffer)>();
        int commitsWaited = 0;
        for (int step = 0; step < 20_000; step++)
        {
            while (inFlight.Count < src.Depth)
            {
                var plan = default(IoPlan);
                var buffer = new byte[src.MaxLength];
                if (!src.TryNext(ref plan, buffer)) break;
                inFlight.Add((plan, buffer));
            }
            bool waitsOnRead = inFlight.Exists(x => x.Plan.StreamId == DatabaseRead);
            bool waitsOnLog = inFlight.Exists(x => x.Plan.StreamId == LogWrite);
            bool stalled = w.Cache.Available == 0 && inFlight.Exists(x => x.Plan.StreamId == DatabaseWrite);
            Assert.True(waitsOnRead || waitsOnLog || stalled,
                $"step {step}: the session waits, but nothing it could wait for is in flight ({inFlight.Count} I/Os: {string.Join(", ", inFlight.Select(x => x.Plan.StreamId))})");
            if (waitsOnLog && !waitsOnRead) commitsWaited++;
            // Completes the oldest I/O first, as a FIFO device would.
            var (done, buf) = inFlight[0];
            inFlight.RemoveAt(0);
            Complete(src, w, done, buf);
        }
        Assert.True(commitsWaited > 100, $"only {commitsWaited} commits waited for the log");
        Assert.True(w.Transactions > 1000);
    }
}
