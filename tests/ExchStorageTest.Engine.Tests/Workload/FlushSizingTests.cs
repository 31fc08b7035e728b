using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Workload;

/// <summary>The scavenger's recent write average, which decides whether its urgent write-back may apply.</summary>
public class FlushSizingTests
{
    private const long Ms = 1000; // ticks of these tests: microseconds
    private static readonly long Quick = 5 * Ms;

    /// <summary>Writes of buffer 0, one after another, each taking <paramref name="took"/> ticks; returns the time after them.</summary>
    private static long Writes(FlushSizing f, int count, long took, long now)
    {
        for (int i = 0; i < count; i++)
        {
            f.FlushIssued(0, now);
            now += took;
            f.FlushCompleted(0, now);
        }
        return now;
    }

    private static FlushSizing New() => new(new CacheModel(1024, 10, 20));

    [Fact]
    public void Says_nothing_before_its_first_writes_and_then_follows_how_long_they_took()
    {
        var f = New();
        Assert.False(f.WritesAverageAtMost(Quick));
        long now = Writes(f, 31, Ms / 2, 1);
        Assert.False(f.WritesAverageAtMost(Quick)); // not yet the first 32
        now = Writes(f, 1, Ms / 2, now);
        Assert.True(f.WritesAverageAtMost(Quick));
        // A device that stays slow is no longer quick within a few hundred writes.
        Writes(f, 400, 20 * Ms, now);
        Assert.False(f.WritesAverageAtMost(Quick));
    }

    [Fact]
    public void A_pause_of_a_few_late_writes_does_not_make_quick_storage_slow()
    {
        var f = New();
        long now = Writes(f, 500, Ms / 2, 1);
        // A RAM-backed volume's pause: 32 writes out at once, all finishing 10-14 ms late.
        now = Writes(f, 32, 12 * Ms, now);
        Assert.True(f.WritesAverageAtMost(Quick));
    }

    [Fact]
    public void Storage_that_queues_a_first_burst_is_not_quick()
    {
        // 32 writes issued together to a disk that serves one a millisecond: the first back in 1 ms, the last in 32.
        var f = New();
        for (int i = 0; i < 32; i++) f.FlushIssued(i, 0);
        for (int i = 0; i < 32; i++) f.FlushCompleted(i, (i + 1) * Ms);
        Assert.False(f.WritesAverageAtMost(Quick));
    }
}
