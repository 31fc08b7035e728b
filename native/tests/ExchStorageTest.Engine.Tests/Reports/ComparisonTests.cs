using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>Runs side by side: sections, deltas, labels and charts with every run on the same axes (fixtures; real runs in Runs/ComparisonRunTests).</summary>
public class ComparisonTests
{
    /// <summary>The golden fixture again, measured a day later on storage whose reads take twice as long and with no log replication.</summary>
    private static TestResults Slower()
    {
        var r = ReportFixtures.Small();
        r.TestId = "golden-0002";
        r.Timeline.TestStartUtc = r.Timeline.TestStartUtc.AddDays(1);
        r.Timeline.TestEndUtc = r.Timeline.TestEndUtc.AddDays(1);
        r.Timeline.CollectionStartUtc = r.Timeline.CollectionStartUtc!.Value.AddDays(1);
        r.Timeline.CollectionEndUtc = r.Timeline.CollectionEndUtc!.Value.AddDays(1);
        foreach (var p in r.TimeSeries)
        {
            p.TimeUtc = p.TimeUtc.AddDays(1);
            if (p.Stream == StreamNames.DatabaseRead) p.AverageLatencyMs *= 2;
        }
        foreach (var i in r.Instances)
        {
            i.Streams.RemoveAll(s => s.Stream == StreamNames.LogReplicationRead);
            var read = i.Stream(StreamNames.DatabaseRead)!;
            read.LatencyMs.Mean *= 2;
            read.Histogram = Doubled(read.Histogram);
        }
        return r;
    }

    /// <summary>Every recorded latency twice as long: each value moves up one octave of the log-linear layout.</summary>
    private static HistogramData Doubled(HistogramData h)
    {
        var live = HistogramMath.ToHistogram(h);
        var doubled = new Engine.Metrics.LatencyHistogram();
        foreach (var (index, count) in live.NonZeroBuckets())
            for (long k = 0; k < count; k++) doubled.Record(2 * Engine.Metrics.LatencyHistogram.LowerBound(index) + 1);
        return HistogramMath.ToData(doubled);
    }

    [Fact]
    public void Each_section_has_every_run_as_a_column_with_deltas_from_the_first()
    {
        var a = ReportFixtures.Small();
        var b = Slower();
        var cmp = RunComparison.Compare(new[] { a, b }, new[] { "Array A", "Array B" });
        Assert.Equal(new[] { "Array A", "Array B" }, cmp.Runs.Select(r => r.Label));
        var mean = cmp.Rows.Single(r => r.Metric == "DatabaseRead mean latency (ms)");
        Assert.Equal("DatabaseRead (per I/O, all instances)", mean.Section);
        double before = ResultsMerge.MergeStreamsByName(a.Instances.SelectMany(i => i.Streams)).Single(s => s.Stream == StreamNames.DatabaseRead).LatencyMs.Mean;
        Assert.Equal(before, mean.Values[0], 9);
        Assert.Equal(mean.Values[1] - mean.Values[0], mean.DeltaAbsolute[1], 9);
        Assert.Equal((mean.Values[1] - mean.Values[0]) / mean.Values[0] * 100, mean.DeltaPercent[1], 9);
        Assert.True(mean.DeltaPercent[1] > 50, $"the reads took twice as long, the delta says {mean.DeltaPercent[1]}%");
        Assert.Equal("worse", ComparisonHtml.Judge(mean, 1));
        // p99 comes from the merged histograms: doubling every value doubles it (within the bucket width).
        var p99 = cmp.Rows.Single(r => r.Metric == "DatabaseRead p99 latency (ms)");
        Assert.InRange(p99.Values[1] / p99.Values[0], 1.7, 2.3);
        // A stream one run does not have is n/a there, never zero.
        var replication = cmp.Rows.Single(r => r.Metric == "LogReplicationRead operations/sec");
        Assert.True(replication.Values[0] > 0);
        Assert.True(double.IsNaN(replication.Values[1]));
        Assert.True(double.IsNaN(replication.DeltaPercent[1]));
        // A metric without a better direction is never coloured; an unchanged one neither.
        var target = cmp.Rows.Single(r => r.Metric == "Target Transactional I/O per Second");
        Assert.Equal("", ComparisonHtml.Judge(target, 1));
        Assert.Equal(new[] { "Database Sizing and Throughput", "ESRP Aggregate Performance" }, cmp.Sections().Select(s => s.Key).Take(2));
    }

    [Fact]
    public void Unlabelled_runs_are_named_by_their_descriptions_then_profile_names_then_time()
    {
        var a = ReportFixtures.Small();
        var b = Slower();
        a.Profile.Description = "all HDD";
        b.Profile.Description = "SSD read cache";
        Assert.Equal(new[] { "all HDD", "SSD read cache" }, RunComparison.Compare(new[] { a, b }).Labels);
        b.Profile.Description = "all HDD";
        b.Profile.Name = "Golden after firmware 6.2";
        Assert.Equal(new[] { "Golden", "Golden after firmware 6.2" }, RunComparison.Compare(new[] { a, b }).Labels);
        b.Profile.Name = "Golden";
        Assert.Equal(new[] { "Performance 2014-03-03T13:44:08.000Z", "Performance 2014-03-04T13:44:08.000Z" }, RunComparison.Compare(new[] { a, b }).Labels);
    }

    [Fact]
    public void Every_chart_of_the_page_has_every_run_on_it()
    {
        var cmp = RunComparison.Compare(new[] { ReportFixtures.Small(), Slower() }, new[] { "Array A", "Array B" });
        string html = ComparisonHtml.Render(cmp);
        var charts = Regex.Matches(html, "<svg class=\"chart\".*?</svg>", RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.True(charts.Count >= 5, $"{charts.Count} charts");
        foreach (var chart in charts.Where(c => !c.Contains("LogReplicationRead", StringComparison.Ordinal)))
        {
            Assert.Equal(2, Regex.Matches(chart, "<polyline").Count);
            Assert.Contains(">Array A</text>", chart);
            Assert.Contains(">Array B</text>", chart);
        }
        // A stream only one run has: its line, and the other run named as having none.
        string replication = Assert.Single(charts, c => c.Contains("LogReplicationRead", StringComparison.Ordinal));
        Assert.Single(Regex.Matches(replication, "<polyline"));
        Assert.Contains(">Array B (none)</text>", replication);
        Assert.Contains("Transactional I/O per second (database reads + writes, all hosts)", html);
        Assert.Contains("DatabaseRead: share of I/Os by latency", html);
        // Both runs start at zero on the time axis although they ran a day apart.
        Assert.Contains(">0:00</text>", charts[0]);
    }

    [Fact]
    public void The_overlay_puts_each_run_s_p99_where_its_histogram_says()
    {
        var r = ReportFixtures.Small();
        var read = ResultsMerge.MergeStreamsByName(r.Instances.SelectMany(i => i.Streams)).Single(s => s.Stream == StreamNames.DatabaseRead);
        string svg = SvgChart.HistogramOverlay("t", new[] { new SvgChart.Distribution("A", HistogramMath.Buckets(read.Histogram), read.LatencyMs.P99) });
        Assert.Contains($"A p99: {JetFormat.Number(read.LatencyMs.P99)} ms", svg);
    }
}
