using ExchStorageTest.Engine.Analysis;

namespace ExchStorageTest.Engine.Tests.Analysis;

/// <summary>The step and settling detectors on synthetic series: a made step is found where and as large as it was made; noise, a spike and a drift are not steps.</summary>
public class ChangePointTests
{
    /// <summary>A level with Gaussian noise of <paramref name="noise"/> (relative), seeded: the same series every run.</summary>
    internal static double[] Series(int n, Func<int, double> level, double noise, int seed)
    {
        var random = new Random(seed);
        var x = new double[n];
        for (int i = 0; i < n; i++)
        {
            double u1 = 1 - random.NextDouble(), u2 = random.NextDouble();
            double gauss = Math.Sqrt(-2 * Math.Log(u1)) * Math.Cos(2 * Math.PI * u2);
            x[i] = level(i) * (1 + noise * gauss);
        }
        return x;
    }

    [Theory]
    [InlineData(35, 60, 0.03, 1)]
    [InlineData(12, 40, 0.05, 2)]
    [InlineData(100, 240, 0.08, 3)]
    [InlineData(25, 240, 0.08, 4)]
    public void A_drop_that_stays_is_found_within_a_sample_with_its_size(int at, int n, double noise, int seed)
    {
        var x = Series(n, i => i < at ? 1000 : 420, noise, seed);
        var step = Assert.Single(ChangePoints.Find(x));
        Assert.InRange(step.Index, at - 1, at + 1);
        Assert.Equal(n, step.End);
        Assert.InRange(step.RelativeChange, -0.62, -0.54);
    }

    [Fact]
    public void In_a_day_long_run_the_fall_at_minute_14_is_found_when_the_sample_interval_is_known_and_a_day_long_drift_is_not()
    {
        // 24 hours of 15 s samples; the fall comes at sample 56 (00:14:00), far under a tenth of the run.
        var x = Series(5760, i => i < 56 ? 1000 : 420, 0.05, 15);
        Assert.Empty(ChangePoints.Find(x)); // without the interval a step must last a tenth of the run on each side
        var step = Assert.Single(ChangePoints.Find(x, intervalSeconds: 15));
        Assert.InRange(step.Index, 55, 57);
        Assert.Equal(40, ChangePoints.MinimumSegment(5760, 15));
        Assert.Empty(ChangePoints.Find(Series(5760, i => 1000 - 0.1 * i, 0.05, 16), intervalSeconds: 15));
        Assert.InRange(SteadyState.Of(x, 15).SettledIndex!.Value, 40, 60);
    }

    [Fact]
    public void A_latency_rise_is_found_and_a_dip_that_recovers_is_two_steps_the_first_not_lasting()
    {
        var rise = Assert.Single(ChangePoints.Find(Series(50, i => i < 20 ? 3 : 9, 0.1, 5)));
        Assert.InRange(rise.Index, 19, 21);
        Assert.InRange(rise.RelativeChange, 1.7, 2.3);

        var steps = ChangePoints.Find(Series(90, i => i is >= 30 and < 60 ? 400 : 1000, 0.04, 6));
        Assert.Equal(2, steps.Count);
        Assert.InRange(steps[0].Index, 29, 31);
        Assert.InRange(steps[0].End, 59, 61);
        Assert.True(steps[0].After < steps[0].Before);
        Assert.InRange(steps[1].Index, 59, 61);
        Assert.Equal(90, steps[1].End);
        Assert.True(steps[1].After > steps[1].Before);
    }

    [Fact]
    public void Noise_alone_gives_no_step_over_many_seeds()
    {
        for (int seed = 0; seed < 200; seed++)
        {
            Assert.Empty(ChangePoints.Find(Series(120, _ => 1000, 0.05, seed)));
            Assert.Empty(ChangePoints.Find(Series(30, _ => 5, 0.15, seed)));
        }
    }

    [Fact]
    public void A_one_sample_spike_or_dip_gives_no_step_wherever_it_falls()
    {
        foreach (int at in new[] { 0, 1, 30, 58, 59 })
        {
            var spike = Series(60, _ => 1000, 0.03, at);
            spike[at] *= 6;
            Assert.Empty(ChangePoints.Find(spike));
            var dip = Series(60, _ => 1000, 0.03, at + 100);
            dip[at] = 0;
            Assert.Empty(ChangePoints.Find(dip));
        }
        // A perfectly flat series with one spike: no noise to judge against, still no step.
        var flat = Enumerable.Repeat(10.0, 40).ToArray();
        flat[20] = 100;
        Assert.Empty(ChangePoints.Find(flat));
    }

    [Theory]
    [InlineData(1000, 400, 0.02, 7)]
    [InlineData(3, 9, 0.05, 8)]
    [InlineData(1000, 200, 0.0, 9)]
    public void A_slow_drift_gives_no_step(double from, double to, double noise, int seed)
    {
        const int n = 120;
        Assert.Empty(ChangePoints.Find(Series(n, i => from + (to - from) * i / (n - 1), noise, seed)));
    }

    [Fact]
    public void A_steady_series_gives_no_finding_and_settled_from_the_start()
    {
        var x = Series(100, _ => 800, 0.05, 10);
        Assert.Empty(ChangePoints.Find(x));
        Assert.Equal(0, SteadyState.Of(x).SettledIndex);
        Assert.Empty(ChangePoints.Find(new double[9])); // too short to judge
    }

    [Fact]
    public void A_ramp_at_the_start_settles_where_it_levels_off_and_a_step_settles_after_it()
    {
        var ramp = Series(100, i => i < 20 ? 400 + 30 * i : 1000, 0.03, 11);
        var settled = SteadyState.Of(ramp);
        Assert.InRange(settled.SettledIndex!.Value, 12, 22);
        Assert.InRange(settled.Level, 950, 1050);

        var step = SteadyState.Of(Series(60, i => i < 35 ? 1000 : 420, 0.03, 12));
        Assert.InRange(step.SettledIndex!.Value, 30, 36);
    }

    [Fact]
    public void The_noise_estimate_ignores_a_step()
    {
        var x = Series(200, i => i < 100 ? 1000 : 400, 0.0, 13);
        Assert.Equal(0, ChangePoints.Noise(x));
        double noise = ChangePoints.Noise(Series(400, _ => 1000, 0.05, 14));
        Assert.InRange(noise, 40, 60);
    }
}
