using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Runs;

public class PerformanceRunTests
{
    private readonly ITestOutputHelper _out;
    public PerformanceRunTests(ITestOutputHelper output) => _out = output;

    [Fact]
    public void Performance_run_measures_every_stream_saves_results_and_judges_consistently()
    {
        using var folder = new TestFolder("perf");
        var request = folder.Request(TestType.Performance, seconds: 8);
        var plan = TestPlanner.Plan(request);
        var events = new MemoryStream();
        var results = TestRunner.Run(plan, new EventWriter(events), CancellationToken.None);

        Assert.Equal("Complete", results.Completion);
        Assert.Equal(2, results.Instances.Count);
        foreach (var inst in results.Instances)
        {
            _out.WriteLine($"{inst.Name}: " + string.Join("; ", inst.Streams.Select(s => $"{s.Stream} {s.Operations} ops {s.OperationsPerSecond:F1}/s {s.AverageBytes:F0} B {s.LatencyMs.Mean:F2} ms")));
            foreach (var name in new[] { StreamNames.DatabaseRead, StreamNames.DatabaseWrite, StreamNames.LogWrite, StreamNames.MaintenanceRead, StreamNames.LogReplicationRead })
                Assert.True(inst.Stream(name) is { Operations: > 0 }, $"{inst.Name} {name} had no operations");
            Assert.Equal(0, inst.ChecksumErrors);
            // The Jetstress model: no passive copy, no passive stream, nothing said of one in the results.
            Assert.Null(inst.PassiveCopyPaths);
            Assert.DoesNotContain(inst.Streams, s => s.Stream.StartsWith("Passive", StringComparison.Ordinal));
        }
        Assert.True(File.Exists(results.SavedPath!));
        var loaded = ResultsFile.Load(results.SavedPath!);
        Assert.Equal(results.TestId, loaded.TestId);
        Assert.NotEmpty(loaded.TimeSeries);
        Assert.Equal(results.Verdict.Result, loaded.Verdict.Result);
        // Which Exchange was modelled, and the host as the platform pre-flight saw it, travel in the results file.
        Assert.Equal(ModelledExchange.Jetstress.Description, loaded.Exchange.Describe());
        Assert.Same(ModelledExchange.Jetstress, loaded.Exchange.Model());
        Assert.True(loaded.Environment.Platform is { LogicalProcessors: > 0 }, "no platform report");
        foreach (var line in results.TestLog) _out.WriteLine(line.Message);
        // Verdict consistent with the numbers.
        bool slowRead = results.Instances.Any(i => i.Stream(StreamNames.DatabaseRead)!.LatencyMs.Mean > 20);
        Assert.Equal(slowRead, results.Verdict.Reasons.Any(r => r.Code == "DatabaseReadLatencyAverage"));
        bool belowTarget = results.Sizing.AchievedTransactionalIops < results.Sizing.TargetTransactionalIops;
        Assert.Equal(belowTarget, results.Verdict.Reasons.Any(r => r.Code == "TargetIopsNotMet"));
        Assert.Equal(results.Verdict.Reasons.Count == 0 ? "Pass" : "Fail", results.Verdict.Result);
        Assert.Contains(results.TestLog, l => l.Message.StartsWith("Operation mix: Sessions 4, Inserts 40%"));
        Assert.Contains(results.TestLog, l => l.Message.StartsWith("Engine code compiled: "));
    }
}
