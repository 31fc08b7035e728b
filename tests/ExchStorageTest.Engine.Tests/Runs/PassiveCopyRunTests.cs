using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// A short real run of a Preferred-Architecture profile (4 copies per volume, 1 active, 1 of the 3 passive ones lagged):
/// each database's passive I/O on its volume matches the model of docs/load-model.md ("Passive copies on a volume")
/// within the bands its table states, counted apart from the active database's streams.
/// </summary>
public class PassiveCopyRunTests
{
    private readonly ITestOutputHelper _out;
    public PassiveCopyRunTests(ITestOutputHelper output) => _out = output;

    /// <summary>The band of docs/load-model.md: 10% of the model's figure, plus what the copies may have in flight at the window's edges.</summary>
    private static void Within(string what, double measured, double modelled, double slack)
    {
        double band = 0.10 * modelled + slack;
        Assert.True(Math.Abs(measured - modelled) <= band, $"{what}: measured {measured:F0}, model {modelled:F0} (band ±{band:F0})");
    }

    [Fact]
    public void A_preferred_architecture_run_puts_the_modelled_passive_copy_IO_on_each_volume()
    {
        using var folder = new TestFolder("pa");
        var request = folder.Request(TestType.Performance, seconds: 8, copies: 4);
        request.Profile!.CopiesPerVolume = 4;
        request.Profile.LaggedCopiesPerVolume = 1;
        var plan = TestPlanner.Plan(request);
        var results = TestRunner.Run(plan, new EventWriter(new MemoryStream()), CancellationToken.None);

        Assert.Equal("Complete", results.Completion);
        Assert.Equal(ModelledExchange.PreferredArchitecture2019.Description, results.Exchange.Describe());
        // The copies kept up with their databases (else the test log says how far they fell behind, and the figures below would not hold).
        Assert.DoesNotContain(results.TestLog, l => l.Message.Contains("fell behind", StringComparison.Ordinal));
        const int replaying = 2, passive = 3;
        double slack = PassiveCopyFiguresSlack(passive);
        foreach (var inst in results.Instances)
        {
            _out.WriteLine($"{inst.Name}: " + string.Join("; ", inst.Streams.Select(s => $"{s.Stream} {s.Operations} ops {s.AverageBytes:F0} B {s.LatencyMs.Mean:F2} ms")));
            double r = inst.Stream(StreamNames.DatabaseRead)!.Operations, w = inst.Stream(StreamNames.DatabaseWrite)!.Operations;
            var log = inst.Stream(StreamNames.LogWrite)!;
            Assert.True(r > 50 && w > 20, $"{inst.Name}: too little active load to compare ({r} reads, {w} writes)");
            var replayRead = inst.Stream(StreamNames.PassiveReplayRead)!;
            var replayWrite = inst.Stream(StreamNames.PassiveReplayWrite)!;
            var copiedLog = inst.Stream(StreamNames.PassiveLogWrite)!;
            Within($"{inst.Name} replay reads", replayRead.Operations, replaying * PassiveCopyModel.ReplayReads(r, w), slack);
            Within($"{inst.Name} replay writes", replayWrite.Operations, replaying * PassiveCopyModel.ReplayWrites(r, w), slack);
            Assert.Equal(32768, replayRead.AverageBytes, 0);
            // The copied log: every copy, lagged ones too, writes the active's log bytes, in 1 MiB writes (a whole
            // generation each: the last megabyte of the window may still be owed).
            Assert.True(copiedLog.Operations == 0 || copiedLog.AverageBytes == PassiveCopyModel.CopiedLogWriteBytes, $"copied-log writes of {copiedLog.AverageBytes} B");
            double logBytes = log.Operations * log.AverageBytes;
            Within($"{inst.Name} copied-log bytes", copiedLog.Operations * copiedLog.AverageBytes, passive * logBytes, passive * 2.0 * PassiveCopyModel.CopiedLogWriteBytes);
            // The passive copies' own files, ours, beside the database, named in the results.
            Assert.Equal(passive, inst.PassiveCopyPaths!.Count);
            Assert.Equal(1, inst.LaggedPassiveCopies);
            for (int k = 1; k <= passive; k++)
            {
                string path = Path.Combine(Path.GetDirectoryName(inst.DatabasePath)!, $"Passive{k}", TestPlan.DatabaseFileName(inst.Index));
                Assert.Equal(path, inst.PassiveCopyPaths[k - 1]);
                Assert.NotNull(DatabaseSet.Inspect(path, allowBuffered: true));
            }
        }
        // The Jetstress-shaped figures stay the active databases': the achieved transactional IOPS count no passive I/O.
        double active = results.Instances.Sum(i => i.Stream(StreamNames.DatabaseRead)!.OperationsPerSecond + i.Stream(StreamNames.DatabaseWrite)!.OperationsPerSecond);
        Assert.Equal(active, results.Sizing.AchievedTransactionalIops, 1);
        // Replay reads are judged by the database read limits, and only when slow.
        bool slowReplay = results.Instances.Any(i => i.Stream(StreamNames.PassiveReplayRead)!.LatencyMs.Mean > plan.Thresholds.AverageDatabaseReadLatencyMs);
        Assert.Equal(slowReplay, results.Verdict.Reasons.Any(x => x.Code == "PassiveReplayReadLatencyAverage"));
    }

    /// <summary>I/Os the passive copies may hold in flight across the window's start and end.</summary>
    private static double PassiveCopyFiguresSlack(int copies) => 2.0 * copies * ExchStorageTest.Engine.Workload.PassiveCopySource.ReplayDepth;
}
