using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Workload;

/// <summary>
/// A short real Performance run on a small profile must land in the per-instance ranges seen in
/// published Jetstress reports (SPEC section 3). Ratios and sizes, not speeds: no timing goals.
/// </summary>
public class FidelityTests
{
    private readonly ITestOutputHelper _out;
    public FidelityTests(ITestOutputHelper output) => _out = output;

    [Fact]
    public void Performance_run_matches_the_seen_jetstress_io_profile()
    {
        using var folder = new TestFolder("fidelity");
        var req = folder.Request(TestType.Performance, seconds: 20, threads: 4, databases: 2, copies: 2);
        req.Profile.MailboxCount = 128; // 2 x 64 MB
        req.WarmupSeconds = 5;
        var r = TestRunner.Run(TestPlanner.Plan(req), EventWriter.Null, CancellationToken.None);
        Assert.Equal("Complete", r.Completion);
        foreach (var inst in r.Instances)
        {
            var read = inst.Stream(StreamNames.DatabaseRead)!;
            var write = inst.Stream(StreamNames.DatabaseWrite)!;
            var log = inst.Stream(StreamNames.LogWrite)!;
            var bdm = inst.Stream(StreamNames.MaintenanceRead)!;
            var repl = inst.Stream(StreamNames.LogReplicationRead)!;
            double rw = read.OperationsPerSecond / write.OperationsPerSecond;
            double dbToLog = (read.OperationsPerSecond + write.OperationsPerSecond) / log.OperationsPerSecond;
            _out.WriteLine($"{inst.Name}: read {read.OperationsPerSecond:F1}/s {read.AverageBytes:F0} B {read.LatencyMs.Mean:F2} ms; write {write.OperationsPerSecond:F1}/s {write.AverageBytes:F0} B; " +
                $"log {log.OperationsPerSecond:F1}/s {log.AverageBytes:F0} B {log.LatencyMs.Mean:F2} ms; r:w {rw:F2}; db:log {dbToLog:F1}; BDM {bdm.OperationsPerSecond:F2}/s {bdm.AverageBytes:F0} B; repl {repl.OperationsPerSecond:F2}/s {repl.AverageBytes:F0} B; stalls {inst.PageFaultStallsPerSecond:F2}/s");
            Assert.InRange(read.AverageBytes, 32_000, 34_000);
            Assert.InRange(write.AverageBytes, 34_000, 40_000);
            Assert.InRange(rw, 1.5, 2.6);
            Assert.InRange(dbToLog, 8, 15);
            Assert.InRange(log.AverageBytes, 12_000, 21_000);
            Assert.InRange(bdm.OperationsPerSecond, 8, 10);
            Assert.InRange(bdm.AverageBytes, 250_000, 262_144); // a wrap shortens the last read of a pass, as Jetstress shows 261,2xx
            Assert.InRange(repl.OperationsPerSecond, 0.35, 0.65);
            Assert.InRange(repl.AverageBytes, 150_000, 212_000);
        }
    }
}
