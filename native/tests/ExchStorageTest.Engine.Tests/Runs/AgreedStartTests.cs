using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>Multi-host runs: the engine prepares, then holds the measured window until the agreed UTC instant.</summary>
public class AgreedStartTests
{
    [Fact]
    public void Measurement_starts_no_earlier_than_the_agreed_instant()
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(TestType.Performance, seconds: 2, databases: 1, copies: 1);
        request.WarmupSeconds = 0.5;
        var at = DateTime.UtcNow.AddSeconds(4);
        request.StartAtUtc = at;
        var results = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", results.Completion);
        Assert.Contains(results.Timeline.Phases, p => p.Name == "WaitingForStart");
        Assert.True(results.Timeline.CollectionStartUtc >= at, $"collection started {results.Timeline.CollectionStartUtc:o}, agreed {at:o}");
        Assert.Contains(results.TestLog, l => l.Message.StartsWith("Waiting for the agreed start", StringComparison.Ordinal));
    }

    [Fact]
    public void A_start_a_week_away_is_refused()
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(TestType.Performance, seconds: 2);
        request.StartAtUtc = DateTime.UtcNow.AddDays(8);
        Assert.Equal("StartTimeOutOfRange", Assert.Throws<EngineException>(() => TestPlanner.Plan(request)).Code);
    }
}
