using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

public class MergeTests
{
    private static TestResults HostWith(string machine, IEnumerable<long> latenciesNs, double rate, DateTime sampleTime)
    {
        var h = new LatencyHistogram();
        long n = 0;
        foreach (var ns in latenciesNs) { h.Record(ns); n++; }
        var data = HistogramMath.ToData(h);
        var r = ReportFixtures.Host(machine, 100);
        r.Instances.Clear();
        var inst = new InstanceResult { Index = 1, Name = "Instance.1" };
        inst.Streams.Add(new StreamResult
        {
            Stream = StreamNames.DatabaseRead, Operations = n, Bytes = n * 32768, OperationsPerSecond = rate, AverageBytes = 32768,
            LatencyMs = HistogramMath.Summary(data), Histogram = data,
        });
        r.Instances.Add(inst);
        r.TimeSeries.Add(new SamplePoint { TimeUtc = sampleTime, Instance = 1, Stream = StreamNames.DatabaseRead, OperationsPerSecond = rate, AverageBytes = 32768, AverageLatencyMs = data.SumNs / (double)data.Count / 1e6, P99LatencyMs = 1, MaxLatencyMs = 2 });
        return r;
    }

    [Fact]
    public void The_merge_states_the_largest_skew_between_the_hosts_measuring_starts()
    {
        var agreed = new DateTime(2024, 1, 1, 0, 0, 30, DateTimeKind.Utc);
        var hosts = new[] { 0.25, -0.15, 0.05 }.Select((offset, i) =>
        {
            var r = ReportFixtures.Host("HOST" + i, 100);
            r.Settings.MeasureAtUtc = agreed;
            r.Timeline.CollectionStartUtc = agreed.AddSeconds(offset);
            return r;
        }).ToList();

        var merged = ResultsMerge.Merge(hosts);

        Assert.Equal(0.4, merged.MeasuringStartSkewSeconds);
        string text = TextReport.Render(merged);
        Assert.True(text.Contains("Agreed measuring start: 2024-01-01 00:00:30.000 UTC; their measuring starts differ by at most 0.400 s.", StringComparison.Ordinal), text);
        // One host measured nothing: no skew to state.
        hosts[1].Timeline.CollectionStartUtc = null;
        hosts[2].Timeline.CollectionStartUtc = null;
        Assert.Null(ResultsMerge.Merge(hosts).MeasuringStartSkewSeconds);
    }

    [Fact]
    public void Merged_percentiles_equal_percentiles_of_the_union_of_raw_values()
    {
        var rng = new Random(7);
        // Three hosts with very different distributions: averaging their percentiles would be badly wrong.
        var a = Enumerable.Range(0, 20_000).Select(_ => (long)(200_000 + rng.NextDouble() * 800_000)).ToList();      // 0.2-1 ms
        var b = Enumerable.Range(0, 5_000).Select(_ => (long)(5_000_000 + rng.NextDouble() * 20_000_000)).ToList();  // 5-25 ms
        var c = Enumerable.Range(0, 1_000).Select(_ => (long)(80_000_000 + rng.NextDouble() * 400_000_000)).ToList(); // 80-480 ms
        var t0 = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var merged = ResultsMerge.Merge(new[] { HostWith("A", a, 100, t0), HostWith("B", b, 50, t0.AddSeconds(2)), HostWith("C", c, 10, t0.AddSeconds(-3)) });

        var union = new LatencyHistogram();
        foreach (var v in a.Concat(b).Concat(c)) union.Record(v);
        var sorted = a.Concat(b).Concat(c).OrderBy(v => v).ToArray();

        var s = merged.Stream(StreamNames.DatabaseRead)!;
        Assert.Equal(26_000, s.Histogram.Count);
        Assert.Equal(160, s.OperationsPerSecond, 9);
        foreach (var (p, value) in new[] { (50.0, s.LatencyMs.P50), (90.0, s.LatencyMs.P90), (99.0, s.LatencyMs.P99), (99.9, s.LatencyMs.P999) })
        {
            // Exactly the percentile of one histogram fed every raw value ...
            Assert.Equal(union.Percentile(p) / 1e6, value, 12);
            // ... and within the bucket error (0.4%) of the exact order statistic.
            long exact = sorted[(int)Math.Ceiling(p / 100 * sorted.Length) - 1];
            Assert.InRange(value * 1e6, exact * 0.995, exact * 1.005);
        }
        Assert.Equal(sorted[^1] / 1e6, s.LatencyMs.Max, 9);
        Assert.Equal(sorted.Average() / 1e6, s.LatencyMs.Mean, 6);

        // Samples 2 s and 3 s off the 15 s grid align into one point whose rate is the sum, stamped
        // with the mean time of its samples ((0 + 2 - 3) / 3 s from t0).
        Assert.Single(merged.TimeSeries);
        Assert.Equal(160, merged.TimeSeries[0].OperationsPerSecond, 9);
        Assert.Equal(t0.AddTicks(-TimeSpan.TicksPerSecond / 3), merged.TimeSeries[0].TimeUtc);
    }

    [Fact]
    public void Merge_sums_rates_and_fails_when_any_host_fails()
    {
        var js13 = ReportFixtures.Js13();
        var js14 = ReportFixtures.Js14();
        js14.Verdict.Result = "Fail";
        js14.Verdict.Reasons.Add(new VerdictReason { Code = "TargetNotMet", Message = "Achieved 259.878 IOPS is below the target 270." });
        var m = ResultsMerge.Merge(new[] { js13, js14 });
        Assert.Equal("Fail", m.Result);
        Assert.Equal("JS14: Achieved 259.878 IOPS is below the target 270.", Assert.Single(m.Reasons).Message);
        Assert.Equal(540, m.TargetTransactionalIops, 9);
        Assert.Equal(45.795 + 45.933 + 45.680 + 45.826 + 41.830 + 41.680 + 41.745 + 41.777, m.Stream(StreamNames.DatabaseRead)!.OperationsPerSecond, 9);
        // Without histograms no percentile is invented.
        Assert.True(double.IsNaN(m.Stream(StreamNames.DatabaseRead)!.LatencyMs.P99));
    }

    [Fact]
    public void Comparison_reports_absolute_and_percent_deltas()
    {
        var cmp = RunComparison.Compare(new[] { ReportFixtures.Js13(), ReportFixtures.Js14() }, new[] { "JS13", "JS14" });
        var row = cmp.Rows.Single(r => r.Metric == "Achieved Transactional I/O per Second");
        Assert.Equal(row.Values[1] - row.Values[0], row.DeltaAbsolute[1], 9);
        Assert.Equal((row.Values[1] - row.Values[0]) / row.Values[0] * 100, row.DeltaPercent[1], 9);
        Assert.Equal(0, row.DeltaAbsolute[0]);
    }
}
