using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Workload;

/// <summary>
/// The passive copies a profile puts on its volumes (docs/load-model.md, "Passive copies on a volume"): how many the plan
/// gives each database, where their files go, and the I/O one copy owes for what its active database issued.
/// </summary>
public class PassiveCopyTests : IDisposable
{
    private readonly TestFolder _folder = new("passive");

    public void Dispose() => _folder.Dispose();

    private EngineRequest Request(int copiesPerVolume, int lagged = 0)
    {
        var r = _folder.Request(TestType.Performance, seconds: 10, copies: 4);
        r.Profile!.CopiesPerVolume = copiesPerVolume;
        r.Profile.LaggedCopiesPerVolume = lagged;
        return r;
    }

    [Fact]
    public void The_plan_gives_each_database_its_passive_copies_with_their_own_files_beside_it()
    {
        var plan = TestPlanner.Plan(Request(copiesPerVolume: 4, lagged: 1));
        Assert.Same(ModelledExchange.PreferredArchitecture2019, plan.Exchange);
        foreach (var inst in plan.Instances)
        {
            Assert.Equal(3, inst.PassiveCopies.Count);
            Assert.Equal(new[] { false, false, true }, inst.PassiveCopies.Select(c => c.Lagged));
            for (int k = 1; k <= 3; k++)
            {
                var c = inst.PassiveCopies[k - 1].Database;
                Assert.Equal(k, inst.PassiveCopies[k - 1].Copy);
                Assert.Equal(Path.Combine(inst.DatabaseFolder, $"Passive{k}", $"ExchStorageTest{inst.Index:D3}.edb"), c.DatabaseFile);
                Assert.Equal(Path.Combine(inst.DatabaseFolder, $"Passive{k}", "Logs"), c.LogFolder);
                Assert.Equal(inst.DatabaseSizeBytes, c.DatabaseSizeBytes);
                Assert.Equal(TestPlanner.CircularLogGenerations, c.LogGenerations);
            }
        }
        var files = plan.Files().ToList();
        Assert.Equal(2 * 3, files.Count(f => f.Kind == "PassiveDatabase"));
        Assert.Equal(2 * 3 * TestPlanner.CircularLogGenerations, files.Count(f => f.Kind == "PassiveLog"));
        Assert.Equal(2 + 2 * 3, plan.AllDatabases().Count());
    }

    [Fact]
    public void The_Jetstress_model_plans_no_passive_copy_and_no_file_for_one()
    {
        var plan = TestPlanner.Plan(Request(copiesPerVolume: 1));
        Assert.Same(ModelledExchange.Jetstress, plan.Exchange);
        Assert.All(plan.Instances, i => Assert.Empty(i.PassiveCopies));
        Assert.DoesNotContain(plan.Files(), f => f.Kind.StartsWith("Passive", StringComparison.Ordinal));
    }

    [Fact]
    public void Two_active_databases_on_a_volume_of_four_copies_each_have_one_passive_copy()
    {
        var r = Request(copiesPerVolume: 4);
        r.Profile!.ActiveCopiesPerVolume = 2;
        Assert.All(TestPlanner.Plan(r).Instances, i => Assert.Single(i.PassiveCopies));
    }

    [Fact]
    public void A_file_at_a_passive_copys_name_that_is_not_ours_is_refused_before_anything_is_written_and_left_untouched()
    {
        var planned = TestPlanner.Plan(Request(copiesPerVolume: 4)).Instances[0].PassiveCopies[1].Database;
        Directory.CreateDirectory(planned.DatabaseFolder);
        var bytes = new byte[100_000];
        new Random(1).NextBytes(bytes);
        File.WriteAllBytes(planned.DatabaseFile, bytes);
        var ex = Assert.Throws<ExchStorageTest.Engine.Protocol.EngineException>(() => TestPlanner.Plan(Request(copiesPerVolume: 4)));
        Assert.Equal("ForeignFile", ex.Code);
        Assert.Equal(planned.DatabaseFile, ex.Target);
        Assert.Equal(bytes, File.ReadAllBytes(planned.DatabaseFile));
    }

    [Fact]
    public void A_throughput_run_sizes_the_passive_copies_as_their_databases_from_the_volumes_free_space()
    {
        var r = Request(copiesPerVolume: 4);
        r.TestType = TestType.Throughput;
        r.CapacityPercent = 1;
        var withCopies = TestPlanner.Plan(r);
        r.Profile!.CopiesPerVolume = 1;
        var without = TestPlanner.Plan(r);
        foreach (var inst in withCopies.Instances)
            Assert.All(inst.PassiveCopies, c => Assert.Equal(inst.DatabaseSizeBytes, c.Database.DatabaseSizeBytes));
        // Four databases share what one had: each about a quarter (less its logs and the rounding to pages).
        double quarter = without.Instances[0].DatabaseSizeBytes / 4.0;
        Assert.InRange(withCopies.Instances[0].DatabaseSizeBytes, quarter - 2.0 * TestPlan.LogFileSize * TestPlanner.CircularLogGenerations, quarter + TestPlan.PageSize);
    }

    /// <summary>The active database with what it issued so far, and one passive copy's sources following it.</summary>
    private static (InstanceWorkload Active, PassiveCopySource[] Copy) Copy(bool lagged)
    {
        var (cap, start, stop) = CacheModel.Size(1 << 20, 1000);
        var active = new InstanceWorkload(1, 0xABCDEF, 1000, databaseFileIndex: 0, logFileIndexes: new[] { 1, 2 }, new CacheModel(cap, start, stop), 0, 42);
        var files = new PassiveCopyFiles(1, lagged, DatabaseFileIndex: 3, LogFileIndexes: new[] { 4, 5, 6 }, PageCount: 1000, InstanceId: 0x1234, new DatabaseContent(0x1234));
        active.PassiveReplayReadStream = 10;
        active.PassiveReplayWriteStream = 11;
        active.PassiveLogWriteStream = 12;
        var log = new PassiveCopySource(active, files, PassiveCopyPart.CopiedLog);
        return (active, lagged ? new[] { log } : new[] { log, new PassiveCopySource(active, files, PassiveCopyPart.Replay) });
    }

    /// <summary>Everything the source owes now, as (stream, file, offset, length).</summary>
    private static List<IoPlan> Drain(PassiveCopySource[] sources)
    {
        var plans = new List<IoPlan>();
        foreach (var source in sources)
        {
            var buffer = new byte[source.MaxLength];
            var plan = new IoPlan();
            while (source.TryNext(ref plan, buffer)) plans.Add(plan);
        }
        return plans;
    }

    [Fact]
    public void Each_stream_of_a_copy_is_sized_to_its_own_IO_and_a_lagged_copy_has_no_replay()
    {
        var (_, sources) = Copy(lagged: false);
        Assert.Equal(1024 * 1024, sources[0].MaxLength);
        Assert.Equal(4 * 32 * 1024, sources[1].MaxLength);
        Assert.Equal((4, 4, 16, 32), (PassiveCopySource.ReplayDepthFor(1), PassiveCopySource.ReplayDepthFor(4), PassiveCopySource.ReplayDepthFor(16), PassiveCopySource.ReplayDepthFor(100)));
        Assert.Equal(1, PassiveCopySource.CopiedLogDepth);
        var (active, _) = Copy(lagged: true);
        var lagged = new PassiveCopyFiles(1, true, 3, new[] { 4 }, 1000, 1, new DatabaseContent(1));
        Assert.Throws<ArgumentException>(() => new PassiveCopySource(active, lagged, PassiveCopyPart.Replay));
    }

    [Fact]
    public void A_passive_copy_owes_the_modelled_replay_and_copied_log_for_what_its_active_database_issued()
    {
        var (active, copy) = Copy(lagged: false);
        Assert.Empty(Drain(copy)); // nothing is owed ahead of the active copy
        // The active database: 200 reads, 100 writes of 36 KiB on average, 3.5 MiB of log.
        active.DatabaseReadsIssued = 200;
        active.DatabaseWritesIssued = 100;
        active.DatabaseWriteBytesIssued = 100 * 36 * 1024;
        active.LogBytesWritten = 3 * 1024 * 1024 + 512 * 1024;
        var plans = Drain(copy);
        var log = plans.Where(p => p.StreamId == 12).ToList();
        var writes = plans.Where(p => p.StreamId == 11).ToList();
        var reads = plans.Where(p => p.StreamId == 10).ToList();
        // Copied log: one 1 MiB write per whole megabyte, through the copy's own log files in turn.
        Assert.Equal(3, log.Count);
        Assert.All(log, p => Assert.Equal((IoOperation.Write, 0L, 1024 * 1024), (p.Operation, p.Offset, p.Length)));
        Assert.Equal(3, log.Select(p => p.FileIndex).Distinct().Count());
        Assert.All(log, p => Assert.Contains(p.FileIndex, new[] { 4, 5, 6 }));
        // Replay: writes = the active's writes, reads = the rest of 50% of its database I/Os, on the copy's own file.
        Assert.Equal(100, writes.Count);
        Assert.Equal(50, reads.Count);
        Assert.All(writes.Concat(reads), p => Assert.Equal(3, p.FileIndex));
        Assert.All(reads, p => Assert.Equal((IoOperation.Read, 32 * 1024), (p.Operation, p.Length)));
        Assert.All(writes.Concat(reads), p => Assert.InRange(p.Offset, 32 * 1024, 999L * 32 * 1024));
        // The writes average the active's write size (36 KiB: runs of 1 and 2 pages).
        Assert.InRange(writes.Average(p => p.Length), 35 * 1024, 37 * 1024);
        Assert.Empty(Drain(copy));
        Assert.All(copy, s => Assert.Equal(0, s.Backlog));
        Assert.Equal((3, 150), (copy[0].Issued, copy[1].Issued));
        // More activity, more owed: it follows the active's issued I/O, not a planned rate.
        active.DatabaseReadsIssued += 20;
        active.DatabaseWritesIssued += 10;
        active.DatabaseWriteBytesIssued += 10 * 32 * 1024;
        Assert.Equal(15, copy[1].Backlog);
        Assert.Equal(15, Drain(copy).Count);
    }

    [Fact]
    public void A_lagged_copy_writes_the_copied_log_and_replays_nothing()
    {
        var (active, copy) = Copy(lagged: true);
        active.DatabaseReadsIssued = 200;
        active.DatabaseWritesIssued = 100;
        active.DatabaseWriteBytesIssued = 100 * 32 * 1024;
        active.LogBytesWritten = 2 * 1024 * 1024;
        var plans = Drain(copy);
        Assert.Equal(2, plans.Count);
        Assert.All(plans, p => Assert.Equal(12, p.StreamId));
    }
}

/// <summary>What a capacity search with passive copies says of its answer: the model's multiple of the volumes' load.</summary>
public class PassiveCopyCapacityLineTests
{
    private static MailboxProfile Profile(int copiesPerVolume, int lagged = 0) => new()
    {
        MailboxCount = 100, IopsPerMailbox = 0.1, MailboxSizeMB = 10, CopiesPerDatabase = 4, CopiesPerVolume = copiesPerVolume,
        LaggedCopiesPerVolume = lagged, DatabasePaths = new[] { "/db" },
    };

    [Fact]
    public void The_capacity_search_says_the_modelled_factor_of_its_volumes_load()
    {
        string line = ExchStorageTest.Engine.Runs.CapacityRun.PassiveCopiesLine(Profile(4))!;
        Assert.StartsWith("Passive copies: each step's volumes carried 3 passive copies beside each active database (4 copies per volume, 1 active, 0 lagged): by the model, 2.5x the active databases' database IOPS and 4x their log bytes", line);
        Assert.Contains("up to 2.5x as many", line);
        Assert.Contains("by the model, 2x the active", ExchStorageTest.Engine.Runs.CapacityRun.PassiveCopiesLine(Profile(4, lagged: 1)));
        Assert.Null(ExchStorageTest.Engine.Runs.CapacityRun.PassiveCopiesLine(Profile(1)));
    }
}
