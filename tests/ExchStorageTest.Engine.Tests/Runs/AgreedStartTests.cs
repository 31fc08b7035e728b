using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// Hosts that run together agree instants (RunSchedule): each prepares, starts loading at the agreed load start,
/// and measures from the agreed measuring start whatever its tuning and warm-up took.
/// </summary>
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
        // A given thread count does not tune: the lead is the warm-up's bound.
        var agreedMeasure = at.AddSeconds(0.5);
        Assert.Equal(at, results.Settings.StartAtUtc);
        Assert.Equal(agreedMeasure, results.Settings.MeasureAtUtc);
        Assert.True(results.Timeline.CollectionStartUtc >= agreedMeasure, $"collection started {results.Timeline.CollectionStartUtc:o}, agreed {agreedMeasure:o}");
        Assert.Contains(results.TestLog, l => l.Message.StartsWith("Waiting for the agreed start", StringComparison.Ordinal));
    }

    [Fact]
    public void A_tuned_host_holds_its_chosen_load_until_the_agreed_measuring_start()
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(TestType.Performance, seconds: 2, threads: null, databases: 1, copies: 1);
        request.TuningSeconds = 4;
        request.WarmupSeconds = 1;
        var at = DateTime.UtcNow.AddSeconds(2);
        request.StartAtUtc = at;
        var plan = TestPlanner.Plan(request);
        // Tuning 4 s + warm-up 1 s + settling 2 s (the sample interval, at least 2).
        Assert.Equal(7, plan.Schedule.LeadSeconds);
        Assert.Equal(at.AddSeconds(7), plan.Schedule.MeasureStartUtc);

        var results = TestRunner.Run(plan, EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", results.Completion);
        Assert.Equal(at.AddSeconds(7), results.Settings.MeasureAtUtc);
        Assert.True(results.Timeline.CollectionStartUtc >= at.AddSeconds(7), $"collection started {results.Timeline.CollectionStartUtc:o}, agreed {at.AddSeconds(7):o}");
        Assert.True(results.TuningLog.Count > 0, string.Join("\n", results.TestLog.Select(l => $"{l.TimeUtc:HH:mm:ss.fff} {l.Message}")));
        // The warm-up's bound is the setting, not what the warm-up happened to take.
        Assert.Equal(1, results.Settings.WarmupSeconds);
        Assert.Contains(results.TestLog, l => l.Message.Contains("until the agreed measuring start", StringComparison.Ordinal));
    }

    [Fact]
    public void A_host_left_no_time_to_tune_says_so_and_still_measures_from_the_agreed_instant()
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(TestType.Performance, seconds: 2, threads: null, databases: 1, copies: 1);
        request.WarmupSeconds = 1;
        var at = DateTime.UtcNow.AddSeconds(2);
        request.StartAtUtc = at;
        // The orchestrator agreed a measuring start sooner than this host's lead: tuning must end by at + 2 s, less than one step.
        request.MeasureAtUtc = at.AddSeconds(5);
        var results = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);

        Assert.Equal("Failed", results.TuningOutcome);
        Assert.Contains("no step fits", results.TuningStopReason);
        Assert.Contains(results.TestLog, l => l.Message.StartsWith("Tuning failed: the tuning time ran out", StringComparison.Ordinal));
        Assert.True(results.Timeline.CollectionStartUtc >= at.AddSeconds(5), $"collection started {results.Timeline.CollectionStartUtc:o}, agreed {at.AddSeconds(5):o}");
    }

    [Theory]
    [InlineData(TestType.Performance, null, null, 120, 60, 10)] // tuned: budget = duration, warm-up = half, settling = the interval (max 10)
    [InlineData(TestType.Performance, 4, null, 0, 60, 0)]       // a given thread count: no tuning, no settling
    [InlineData(TestType.Stress, null, 30.0, 180, 30, 10)]      // tuning capped at 180 s; the warm-up as given
    [InlineData(TestType.Throughput, null, null, 20, 10, 0)]    // the maximum search runs flat out: no settling
    [InlineData(TestType.DatabaseBackup, null, null, 0, 0, 0)]  // measures from its first I/O
    public void The_lead_depends_only_on_the_settings(TestType type, int? threads, double? warmup, double tuning, double warm, double settle)
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(type, seconds: type == TestType.Stress ? 7200 : type == TestType.Throughput ? 20 : 120, threads: threads, databases: 1, copies: 1);
        request.WarmupSeconds = warmup;
        request.SampleIntervalSeconds = 15;
        var schedule = RunSchedule.For(request, type, request.DurationSeconds!.Value, 15, threads);
        Assert.Equal(tuning, schedule.TuningSeconds);
        Assert.Equal(warm, schedule.WarmupSeconds);
        Assert.Equal(settle, schedule.SettleSeconds);
        Assert.False(schedule.Agreed);
    }

    [Fact]
    public void Contradicting_instants_are_refused()
    {
        using var folder = new TestFolder("start");
        var request = folder.Request(TestType.Performance, seconds: 2);
        request.MeasureAtUtc = DateTime.UtcNow.AddMinutes(1);
        Assert.Equal("MeasureTimeWithoutStart", Assert.Throws<EngineException>(() => TestPlanner.Plan(request)).Code);
        request.StartAtUtc = DateTime.UtcNow.AddMinutes(2);
        Assert.Equal("MeasureTimeBeforeStart", Assert.Throws<EngineException>(() => TestPlanner.Plan(request)).Code);
        request.MeasureAtUtc = DateTime.UtcNow.AddDays(3);
        Assert.Equal("MeasureTimeOutOfRange", Assert.Throws<EngineException>(() => TestPlanner.Plan(request)).Code);
    }

    [Theory]
    [InlineData(-1.5, 0)]     // passed between the loop's check and the clock reading: WaitOne would read -1 ms as Infinite
    [InlineData(-1000, 0)]
    [InlineData(0, 0)]
    [InlineData(250, 250)]
    [InlineData(5000, 1000)]  // long waits in one-second slices, so progress stays live
    public void The_wait_for_the_instant_is_never_negative_and_at_most_a_second(double leftMs, double expectedMs)
    {
        Assert.Equal(TimeSpan.FromMilliseconds(expectedMs), AgreedStart.NextWait(TimeSpan.FromMilliseconds(leftMs)));
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
