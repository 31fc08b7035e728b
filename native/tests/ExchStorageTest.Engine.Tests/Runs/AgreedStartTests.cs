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

    [Theory]
    [InlineData(-1.5, 0)]     // passed between the loop's check and the clock reading: WaitOne would read -1 ms as Infinite
    [InlineData(-1000, 0)]
    [InlineData(0, 0)]
    [InlineData(250, 250)]
    [InlineData(5000, 1000)]  // long waits in one-second slices, so progress stays live
    public void The_wait_for_the_instant_is_never_negative_and_at_most_a_second(double leftMs, double expectedMs)
    {
        Assert.Equal(TimeSpan.FromMilliseconds(expectedMs), TestRunner.NextWait(TimeSpan.FromMilliseconds(leftMs)));
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
