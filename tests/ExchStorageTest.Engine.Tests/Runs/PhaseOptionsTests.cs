using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// Each kind of load phase as <see cref="PhaseOptions"/> builds it, run on real databases: the streams that ride with
/// it, and whether its inserts grow the databases. Only the test's own load grows them (Jetstress's transactional test
/// grows its databases; <see cref="PhaseOptions.Grow"/> says why a search's steps and soft recovery's log generation do
/// not); tuning trials and capacity steps are built by <see cref="PhaseOptions.SearchStep"/>, soft recovery's
/// generation by <see cref="PhaseOptions.LogGeneration"/>.
/// </summary>
public class PhaseOptionsTests
{
    /// <summary>Transactions each instance commits in a phase here: some 250 inserts against some 130 deletes, a dozen new pages when the load grows.</summary>
    private const int Transactions = 300;

    [Fact]
    public void Only_the_tests_own_load_grows_the_databases_and_the_profiles_streams_ride_with_the_test_and_its_searches()
    {
        using var folder = new TestFolder("phases");
        var plan = TestPlanner.Plan(folder.Request(TestType.Performance, 10, copies: 2));
        Assert.True(plan.Profile.BackgroundMaintenance);
        using var ctx = new RunContext(plan, EventWriter.Null, CancellationToken.None);
        ctx.Prepared = DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        ctx.OpenFiles();
        Assert.All(ctx.Instances, w => Assert.True(w.Room.Limit > w.PageCount, "the databases may not grow at all here"));
        string[] transactional = { StreamNames.DatabaseRead, StreamNames.DatabaseWrite, StreamNames.LogRead, StreamNames.LogWrite };
        string[] profile = transactional.Append(StreamNames.MaintenanceRead).Append(StreamNames.LogReplicationRead).ToArray();

        // The searches and the log generation first: the same transactions leave the databases as they were ...
        var search = Run(ctx, PhaseOptions.SearchStep(plan, 4));
        Assert.Equal(Sorted(profile), search.Streams);
        Assert.Equal(0, search.GrownPages);
        var generation = Run(ctx, PhaseOptions.LogGeneration(4));
        Assert.Equal(Sorted(transactional), generation.Streams);
        Assert.Equal(0, generation.GrownPages);

        // ... and grow them under the test's load, which carries the same streams as the searches.
        var test = Run(ctx, PhaseOptions.Test(plan, 4));
        Assert.Equal(Sorted(profile), test.Streams);
        Assert.True(test.GrownPages > 0, "the test's load did not grow the databases");

        using (var backup = new LoadPhase(ctx, PhaseOptions.BackupRead(ctx.Instances.Count)))
            Assert.Equal(new[] { StreamNames.BackupRead }, Streams(backup));
    }

    [Fact]
    public void Maintenance_and_replication_ride_with_the_profiles_load_only_as_the_profile_says()
    {
        using var folder = new TestFolder("phaseopts");
        var noMaintenance = folder.Request(TestType.Performance, 10, copies: 1);
        noMaintenance.Profile.BackgroundMaintenance = false;
        var without = TestPlanner.Plan(noMaintenance);
        var with = TestPlanner.Plan(folder.Request(TestType.Performance, 10, copies: 3));
        foreach (var (plan, on) in new[] { (without, false), (with, true) })
            foreach (var options in new[] { PhaseOptions.Test(plan, 8), PhaseOptions.SearchStep(plan, 8) })
                Assert.Equal((true, on, on, false), (options.Transactional, options.Maintenance, options.Replication, options.Backup));
        // Neither rides with soft recovery's log generation, whatever the profile says.
        Assert.Equal((true, false, false, false), (PhaseOptions.LogGeneration(8).Transactional, PhaseOptions.LogGeneration(8).Maintenance, PhaseOptions.LogGeneration(8).Replication, PhaseOptions.LogGeneration(8).Grow));
        // The open loop's rate is the test's; a search's steps run closed.
        var open = folder.Request(TestType.Performance, 10, threads: null);
        open.TargetRateIops = 120;
        var openPlan = TestPlanner.Plan(open);
        Assert.Equal(120, PhaseOptions.Test(openPlan, 8).OpenLoopRateIops);
        Assert.Null(PhaseOptions.SearchStep(openPlan, 8).OpenLoopRateIops);
    }

    /// <summary>Runs one phase until every instance has committed <see cref="Transactions"/> more transactions: the streams it ran and the pages the databases grew by meanwhile.</summary>
    private static (string[] Streams, long GrownPages) Run(RunContext ctx, PhaseOptions options)
    {
        long grownBefore = ctx.Instances.Sum(w => w.GrownPages);
        var until = ctx.Instances.Select(w => w.Transactions + Transactions).ToArray();
        using var phase = new LoadPhase(ctx, options);
        phase.Start();
        var end = phase.Run(300, 0.5, "Phase", () => ctx.Instances.Select((w, i) => Volatile.Read(ref w.Transactions) >= until[i]).All(x => x));
        phase.Stop();
        Assert.Equal(WindowEnd.Condition, end);
        return (Streams(phase), ctx.Instances.Sum(w => w.GrownPages) - grownBefore);
    }

    private static string[] Streams(LoadPhase phase) => Sorted(phase.StreamResults().Select(s => s.Result.Stream).Distinct());

    private static string[] Sorted(IEnumerable<string> names) => names.OrderBy(n => n, StringComparer.Ordinal).ToArray();
}
