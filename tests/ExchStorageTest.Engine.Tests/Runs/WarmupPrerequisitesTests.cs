using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// "Attaining prerequisites" (<see cref="WarmupPrerequisites"/>): the window waits for the caches to have filled and for
/// the engine's compiler to have gone quiet (<see cref="CompilerQuiet"/>), and the test log says which came first.
/// </summary>
public class WarmupPrerequisitesTests
{
    /// <summary>A compiler whose total compile time and clock the test sets.</summary>
    private sealed class FakeCompiler
    {
        public double Now, CompileMs;
        public CompilerQuiet Quiet() => new(() => TimeSpan.FromMilliseconds(CompileMs), () => Now);
        public void Advance(double seconds, double compiledMs) { Now += seconds; CompileMs += compiledMs; }
    }

    [Fact]
    public void The_compiler_is_quiet_only_after_half_a_second_under_five_percent_of_a_CPU()
    {
        var c = new FakeCompiler();
        var quiet = c.Quiet();
        Assert.False(quiet.IsQuiet()); // no window yet
        Assert.Null(quiet.LastCpuShare);
        c.Advance(0.25, 0);
        Assert.False(quiet.IsQuiet()); // a quarter of a second is not the window
        c.Advance(0.25, 0);
        Assert.True(quiet.IsQuiet());
        Assert.Equal(0, quiet.LastCpuShare);

        // The tier-up burst: a second of the compiler at 60% of a CPU, looked at every quarter second.
        for (int i = 0; i < 4; i++)
        {
            c.Advance(0.25, 150);
            Assert.False(quiet.IsQuiet());
        }
        Assert.Equal(0.6, quiet.LastCpuShare!.Value, 3);
        // Quiet again only once the whole window has passed without it: a quarter second of quiet is half the window.
        c.Advance(0.25, 0);
        Assert.False(quiet.IsQuiet());
        Assert.Equal(0.3, quiet.LastCpuShare!.Value, 3);
        c.Advance(0.25, 0);
        Assert.True(quiet.IsQuiet());

        // The trickle after the burst (a method or two, the sampler's code): 20 ms in half a second is 4%, quiet; 30 ms is not.
        c.Advance(0.25, 10); c.Advance(0.25, 10);
        Assert.True(quiet.IsQuiet());
        Assert.Equal(0.04, quiet.LastCpuShare!.Value, 3);
        c.Advance(0.25, 15); quiet.IsQuiet(); c.Advance(0.25, 15);
        Assert.False(quiet.IsQuiet());
    }

    [Fact]
    public void Looks_far_apart_measure_over_the_time_between_them()
    {
        // A warm-up polled seldom (a long sample interval): the window is the span since the last look, however long.
        var c = new FakeCompiler();
        var quiet = c.Quiet();
        quiet.IsQuiet();
        c.Advance(2, 80); // 4% over two seconds
        Assert.True(quiet.IsQuiet());
        Assert.Equal(0.04, quiet.LastCpuShare!.Value, 3);
    }

    [Fact]
    public void A_warm_up_waits_for_the_compiler_after_the_cache_has_filled_and_the_test_log_says_what_came_first()
    {
        using var folder = new TestFolder("warmup");
        var plan = TestPlanner.Plan(folder.Request(TestType.Performance, 10));
        using var ctx = new RunContext(plan, EventWriter.Null, CancellationToken.None);
        ctx.Prepared = DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        ctx.OpenFiles();
        var c = new FakeCompiler();
        var prerequisites = new WarmupPrerequisites(ctx, c.Quiet());

        // Empty caches, busy compiler: not met; the log names both as cut short by the bound.
        Assert.False(prerequisites.Met());
        var lines = prerequisites.Describe().ToList();
        Assert.Equal(2, lines.Count);
        Assert.StartsWith(@"\MSExchange Database(ExchStorageTest)\Database Cache Size, Last: 0.0 (lower bound: ", lines[0]);
        Assert.EndsWith(" - warm-up time bound reached", lines[0]);
        Assert.Equal("Engine code compiled: not known, the warm-up ended within the compiler's first 0.5 s (the window opens once it used 5% of a CPU or less over that long) - warm-up time bound reached", lines[1]);

        // The caches fill: still waiting for the compiler.
        foreach (var w in ctx.Instances)
            for (int page = 0; w.Cache.Resident < w.Cache.Capacity; page++)
            {
                Assert.Equal(CacheAccess.Miss, w.Cache.Access(page, modify: false, out int slot));
                w.Cache.ReadCompleted(slot);
            }
        c.Advance(0.5, 300);
        Assert.False(prerequisites.Met());
        Assert.Equal("Engine code compiled: the .NET compiler used 60% of a CPU over the last 0.5 s (the window opens at 5% or less) - warm-up time bound reached", prerequisites.Describe().Last());

        // The scavenger frees buffers below the cache's share: filled once is filled (Jetstress's lower bound is reached, not held).
        foreach (var w in ctx.Instances)
        {
            Assert.False(w.Cache.NextFlush(out _, out _, out _, out _)); // clean pages: evicted, nothing to write
            Assert.True(w.Cache.Resident < w.Cache.Capacity * WarmupPrerequisites.CacheShare, $"{w.Cache.Resident} of {w.Cache.Capacity} buffers hold pages");
        }
        c.Advance(0.5, 5);
        Assert.True(prerequisites.Met());
        lines = prerequisites.Describe().ToList();
        Assert.DoesNotContain("bound reached", lines[0]);
        Assert.Equal("Engine code compiled: the .NET compiler used 1% of a CPU over the last 0.5 s (the window opens at 5% or less).", lines[1]);
    }
}
