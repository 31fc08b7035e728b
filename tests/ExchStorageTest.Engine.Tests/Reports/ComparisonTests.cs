using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Analysis;
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
        Assert.Equal(Change.Worse, mean.Changes[1]);
        Assert.Equal(Change.None, mean.Changes[0]);
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
        Assert.Equal(Change.None, target.Changes[1]);
        Assert.Equal(new[] { "Database Sizing and Throughput", "ESRP Aggregate Performance" }, cmp.Sections().Select(s => s.Key).Take(2));
    }

    /// <summary>
    /// A comparison coloured +0.007 ms of log write latency red, against a 10 ms rule. A change must reach a tenth of
    /// the limit of the rule it concerns (the first run's thresholds); one past it is still marked, and the page says the floor.
    /// </summary>
    [Fact]
    public void A_change_too_small_to_move_a_verdict_is_not_marked_and_one_past_the_rule_s_floor_is()
    {
        var a = ReportFixtures.Small();
        var b = ReportFixtures.Small();
        b.TestId = "golden-0003";
        double logMean = ResultsMerge.MergeStreamsByName(a.Instances.SelectMany(i => i.Streams)).Single(s => s.Stream == StreamNames.LogWrite).LatencyMs.Mean;
        double logFloor = RuleFloor.LatencyMs(StreamNames.LogWrite, a.Settings.Thresholds);
        // 5% slower log writes: past the 1% that once coloured it, far under the floor.
        double small = 0.05 * logMean;
        Assert.True(small < logFloor, $"the fixture's log writes ({logMean} ms) are too slow for this test");
        // The merged mean comes from the histograms' sums: every I/O that much slower.
        static void Slower(StreamResult s, double ms) => s.Histogram.SumNs += (long)(ms * 1e6 * s.Histogram.Count);
        foreach (var i in b.Instances)
        {
            Slower(i.Stream(StreamNames.LogWrite)!, small);
            Slower(i.Stream(StreamNames.DatabaseRead)!, 1.5 * RuleFloor.LatencyMs(StreamNames.DatabaseRead, a.Settings.Thresholds));
        }
        var cmp = RunComparison.Compare(new[] { a, b }, new[] { "A", "B" });
        var log = cmp.Rows.Single(r => r.Metric == "LogWrite mean latency (ms)");
        Assert.True(log.DeltaPercent[1] > RunComparison.NoChangePercent, $"{log.DeltaPercent[1]}%");
        Assert.Equal(logFloor, log.Floor);
        Assert.Equal(Change.None, log.Changes[1]);
        var esrpLog = cmp.Rows.Single(r => r.Metric == "Average Log Disk Write Latency (ms)");
        Assert.Equal(Change.None, esrpLog.Changes[1]);
        var read = cmp.Rows.Single(r => r.Metric == "DatabaseRead mean latency (ms)");
        Assert.Equal(RuleFloor.LatencyMs(StreamNames.DatabaseRead, a.Settings.Thresholds), read.Floor);
        Assert.Equal(Change.Worse, read.Changes[1]);
        // A metric no rule concerns keeps the 1% alone; the target itself is never judged.
        Assert.True(double.IsNaN(cmp.Rows.Single(r => r.Metric == "I/O errors").Floor));
        Assert.Equal(RuleFloor.Iops(a.Sizing.TargetTransactionalIops), cmp.Rows.Single(r => r.Metric == "Achieved Transactional I/O per Second").Floor);

        string html = ComparisonHtml.Render(cmp);
        var logRow = Regex.Match(html, "<tr><td class=\"grid_row_header\">LogWrite mean latency \\(ms\\)</td>.*?</tr>").Value;
        Assert.Contains("</td><td class=\"grid_data \">", logRow); // its delta cells, uncoloured
        Assert.DoesNotContain("worse", logRow);
        var readRow = Regex.Match(html, "<tr><td class=\"grid_row_header\">DatabaseRead mean latency \\(ms\\)</td>.*?</tr>").Value;
        Assert.Contains("grid_data worse", readRow);
        Assert.Contains("a change that cannot move a verdict is not marked", html);
        Assert.Contains("(2 ms for database latencies, 1 ms for log latencies", html);
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
