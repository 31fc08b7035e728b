using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Analysis;

/// <summary>The run's series judged from its results: the finding's time, size and words, and where the reports show it.</summary>
public class SeriesFindingsTests
{
    private static readonly DateTime Start = new(2026, 11, 26, 12, 0, 0, DateTimeKind.Utc);

    /// <summary>A two-database run sampled every <paramref name="interval"/> s: each database's reads and writes per second and latencies by sample.</summary>
    internal static TestResults Run(int samples, double interval, Func<int, double> iops, Func<int, double> readMs, int seed = 1, Func<int, double>? logMs = null)
    {
        var r = new TestResults { TestType = TestType.Performance };
        r.Settings.SampleIntervalSeconds = interval;
        r.Timeline.CollectionStartUtc = Start;
        r.Timeline.CollectionEndUtc = Start.AddSeconds(samples * interval);
        var noise = ChangePointTests.Series(samples * 2, _ => 1, 0.03, seed);
        for (int i = 0; i < samples; i++)
            for (int instance = 1; instance <= 2; instance++)
            {
                double n = noise[2 * i + instance - 1];
                void Add(string stream, double ops, double ms) => r.TimeSeries.Add(new SamplePoint
                {
                    TimeUtc = Start.AddSeconds((i + 1) * interval), ElapsedSeconds = (i + 1) * interval, Instance = instance, Stream = stream,
                    OperationsPerSecond = ops, AverageBytes = 32768, AverageLatencyMs = ms,
                });
                Add(StreamNames.DatabaseRead, iops(i) * 0.6 / 2 * n, readMs(i) * n);
                Add(StreamNames.DatabaseWrite, iops(i) * 0.4 / 2 * n, readMs(i) * n);
                Add(StreamNames.LogWrite, iops(i) * 0.1 / 2 * n, (logMs?.Invoke(i) ?? 2) * n);
            }
        return r;
    }

    [Fact]
    public void A_throttled_run_names_the_fall_its_time_and_that_it_stayed_and_the_reports_show_it()
    {
        // 480 samples of 15 s (2 hours); the storage falls from 1,000 to 420 IOPS at sample 56, latency triples.
        var r = Run(480, 15, i => i < 56 ? 1000 : 420, i => i < 56 ? 4 : 12);
        var a = SeriesFindings.Of(r)!;
        var iops = Assert.Single(a.Steps, s => s.Series == SeriesFindings.TransactionalIops);
        // Sample 56 is the first at the new level: its interval starts 56 x 15 s = 00:14:00 into the window.
        Assert.InRange(iops.AtSeconds, 55 * 15, 57 * 15);
        Assert.InRange(iops.ChangePercent, -60, -56);
        Assert.True(iops.Adverse);
        Assert.True(iops.Stayed);
        Assert.Contains("Transactional IOPS fell 5", iops.Message);
        Assert.Contains("at 00:14:00 into the measured window and stayed: " + SeriesFindings.AdverseCauses, iops.Message);
        var read = Assert.Single(a.Steps, s => s.Series == SeriesFindings.DatabaseReadLatency);
        Assert.True(read.Adverse);
        Assert.InRange(read.ChangePercent, 190, 210);
        Assert.DoesNotContain(a.Steps, s => s.Series == SeriesFindings.LogWriteLatency);
        // Settled only after the step.
        var settled = Assert.Single(a.Series, s => s.Series == SeriesFindings.TransactionalIops);
        Assert.InRange(settled.SettledAtSeconds!.Value, 50 * 15, 57 * 15);
        Assert.NotNull(settled.Message);

        r.SeriesAnalysis = a;
        string text = TextReport.Render(r);
        Assert.Contains("Time Series", text);
        Assert.Contains(iops.Message, text);
        string html = HtmlReport.Render(r);
        Assert.Contains("<g class=\"mark\"><title>" + System.Net.WebUtility.HtmlEncode(iops.Message) + "</title>", html);
        Assert.Equal(2, CountOf(html, "stroke=\"#b00020\" stroke-width=\"1.5\" stroke-dasharray")); // the IOPS chart's mark and the latency chart's

        // The field survives the results file.
        var back = System.Text.Json.JsonSerializer.Deserialize<TestResults>(System.Text.Json.JsonSerializer.Serialize(r, ResultsFile.Options), ResultsFile.Options)!;
        Assert.Contains("\"seriesAnalysis\":", System.Text.Json.JsonSerializer.Serialize(r, ResultsFile.Options));
        Assert.Equal(iops.Message, back.SeriesAnalysis!.Steps[0].Message);
    }

    [Fact]
    public void A_steady_run_has_no_finding_and_its_charts_no_marks()
    {
        var r = Run(120, 1, _ => 900, _ => 5);
        var a = SeriesFindings.Of(r)!;
        Assert.Empty(a.Steps);
        Assert.Equal(3, a.Series.Count);
        Assert.All(a.Series, s => { Assert.Null(s.Message); Assert.Equal(0, s.SettledAtSeconds); Assert.Equal(0, s.TransientShare); });
        Assert.Empty(SeriesFindings.LogLines(a));
        r.SeriesAnalysis = a;
        Assert.DoesNotContain("class=\"mark\"", HtmlReport.Render(r));
        Assert.Contains("No sustained step and steady from the start", TextReport.Render(r));
    }

    [Fact]
    public void A_run_without_enough_samples_is_not_judged()
    {
        Assert.Null(SeriesFindings.Of(Run(5, 1, _ => 900, _ => 5)));
        Assert.Null(SeriesFindings.Of(new TestResults { TestType = TestType.Capacity }));
    }

    [Fact]
    public void A_rise_in_iops_is_told_but_not_as_the_storage_getting_worse()
    {
        var a = SeriesFindings.Of(Run(60, 1, i => i < 30 ? 500 : 1000, _ => 5))!;
        var step = Assert.Single(a.Steps);
        Assert.False(step.Adverse);
        Assert.Matches(@"^Transactional IOPS rose (9[5-9]|10[0-5])% \(", step.Message);
        Assert.DoesNotContain(SeriesFindings.AdverseCauses, step.Message);
        Assert.DoesNotContain(SeriesFindings.LogLines(a), l => l.Warning);
    }

    /// <summary>
    /// The demo's first line was "Log write latency rose 54% (0.26 to 0.4 ms) ... burst credits, cache exhaustion or
    /// throttling" — a clean, sustained step every statistical test passes, 0.14 ms against a 10 ms rule. Each series is
    /// judged against a tenth of the limit of the rule it concerns; the same step at the floor's size is still found.
    /// </summary>
    [Fact]
    public void A_step_too_small_to_move_a_verdict_is_no_finding_and_one_at_the_rule_s_floor_is()
    {
        var r = Run(120, 1, _ => 900, _ => 5, logMs: i => i < 40 ? 0.26 : 0.4);
        r.Sizing.TargetTransactionalIops = 800;
        var a = SeriesFindings.Of(r)!;
        Assert.Empty(a.Steps);
        Assert.Empty(SeriesFindings.LogLines(a));
        // The floors, from the run's own thresholds and target.
        var t = r.Settings.Thresholds;
        Assert.Equal(RuleFloor.ShareOfLimit * t.AverageLogWriteLatencyMs, a.Series.Single(s => s.Series == SeriesFindings.LogWriteLatency).Floor);
        Assert.Equal(RuleFloor.ShareOfLimit * t.AverageDatabaseReadLatencyMs, a.Series.Single(s => s.Series == SeriesFindings.DatabaseReadLatency).Floor);
        Assert.Equal(RuleFloor.ShareOfLimit * 800, a.Series.Single(s => s.Series == SeriesFindings.TransactionalIops).Floor);

        // The same shape at the floor (1 ms of the 10 ms rule, 0.26 to 1.36 ms) is a finding, and an adverse one.
        double floor = RuleFloor.LatencyMs(StreamNames.LogWrite, t);
        var at = SeriesFindings.Of(Run(120, 1, _ => 900, _ => 5, logMs: i => i < 40 ? 0.26 : 0.26 + 1.1 * floor))!;
        var step = Assert.Single(at.Steps);
        Assert.Equal(SeriesFindings.LogWriteLatency, step.Series);
        Assert.True(step.Adverse);

        // With a tighter rule the floor follows it: 0.14 ms is a tenth of a 1.4 ms limit.
        var tight = Run(120, 1, _ => 900, _ => 5, logMs: i => i < 40 ? 0.26 : 0.4);
        tight.Settings.Thresholds = t.With(new Engine.Planning.ThresholdOverrides { AverageLogWriteLatencyMs = 1.3 });
        Assert.Single(SeriesFindings.Of(tight)!.Steps, s => s.Series == SeriesFindings.LogWriteLatency);

        // IOPS: a fall of under a tenth of the target is no finding (an IOPS fall the relative test alone would report).
        var iops = Run(120, 1, i => i < 60 ? 900 : 700, _ => 5);
        iops.Sizing.TargetTransactionalIops = 2500;
        Assert.DoesNotContain(SeriesFindings.Of(iops)!.Steps, s => s.Series == SeriesFindings.TransactionalIops);
        iops.Sizing.TargetTransactionalIops = 1000;
        Assert.Single(SeriesFindings.Of(iops)!.Steps, s => s.Series == SeriesFindings.TransactionalIops);
    }

    /// <summary>
    /// "the first 40-80% of the window was transient" where the series was flat at 0.15 ms but for one spike. A spike
    /// is not a transient phase, and a wobble under the floor is not one either; a real warm-up still is.
    /// </summary>
    [Fact]
    public void A_flat_series_with_one_spike_or_a_sub_floor_wobble_settled_from_the_start_and_a_warm_up_did_not()
    {
        foreach (int spikeAt in new[] { 10, 48, 95 })
        {
            var a = SeriesFindings.Of(Run(120, 1, _ => 900, _ => 5, logMs: i => i == spikeAt ? 40 : 0.15))!;
            var log = a.Series.Single(s => s.Series == SeriesFindings.LogWriteLatency);
            Assert.True(log.SettledAtSeconds == 0 && log.Message is null, $"spike at {spikeAt}: {log.Message}");
        }
        // 0.3 ms for the first third, then 0.15: twice the level, under the 1 ms floor.
        var wobble = SeriesFindings.Of(Run(120, 1, _ => 900, _ => 5, logMs: i => i < 40 ? 0.3 : 0.15))!;
        Assert.Null(wobble.Series.Single(s => s.Series == SeriesFindings.LogWriteLatency).Message);
        // A warm-up above the floor: 12 ms for the first third, then 3 ms.
        var warm = SeriesFindings.Of(Run(120, 1, _ => 900, _ => 5, logMs: i => i < 40 ? 12 : 3))!;
        var settled = warm.Series.Single(s => s.Series == SeriesFindings.LogWriteLatency);
        Assert.InRange(settled.SettledAtSeconds!.Value, 35, 45);
        Assert.Contains("was transient", settled.Message);
    }

    private static int CountOf(string s, string what)
    {
        int count = 0;
        for (int i = s.IndexOf(what, StringComparison.Ordinal); i >= 0; i = s.IndexOf(what, i + 1, StringComparison.Ordinal)) count++;
        return count;
    }
}
