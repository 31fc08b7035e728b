using ExchStorageTest.Engine.Metrics;

namespace ExchStorageTest.Engine.Tests.Metrics;

public class LatencyHistogramTests
{
    [Fact]
    public void Bucket_midpoint_is_within_one_percent_of_every_value_from_1ns_to_60s()
    {
        var rng = new Random(42);
        for (int i = 0; i < 200_000; i++)
        {
            long v = (long)Math.Exp(rng.NextDouble() * Math.Log(60e9));
            int idx = LatencyHistogram.IndexOf(v);
            Assert.InRange(v, LatencyHistogram.LowerBound(idx), LatencyHistogram.LowerBound(idx) + LatencyHistogram.Width(idx) - 1);
            double mid = LatencyHistogram.Midpoint(idx);
            Assert.True(Math.Abs(mid - v) <= 0.01 * v + 1, $"value {v} bucket {idx} midpoint {mid}");
        }
    }

    [Fact]
    public void Buckets_are_contiguous_and_cover_the_range()
    {
        for (int i = 1; i < LatencyHistogram.BucketCount; i++)
            Assert.Equal(LatencyHistogram.LowerBound(i - 1) + LatencyHistogram.Width(i - 1), LatencyHistogram.LowerBound(i));
        Assert.True(LatencyHistogram.LowerBound(LatencyHistogram.BucketCount - 1) > 60_000_000_000L);
    }

    [Fact]
    public void Percentiles_match_exact_percentiles_within_one_percent()
    {
        var rng = new Random(7);
        var values = Enumerable.Range(0, 50_000).Select(_ => (long)(1e5 + rng.NextDouble() * rng.NextDouble() * 5e7)).ToArray();
        var h = new LatencyHistogram();
        foreach (var v in values) h.Record(v);
        Array.Sort(values);
        foreach (double p in new[] { 50, 90, 99, 99.9 })
        {
            long exact = values[(int)Math.Ceiling(p / 100 * values.Length) - 1];
            Assert.InRange(h.Percentile(p), exact * 0.99, exact * 1.01);
        }
        Assert.Equal(values[^1], h.Percentile(100));
        Assert.Equal(values[0], h.MinNs);
    }

    [Fact]
    public void Merge_is_exact_the_union_of_the_parts()
    {
        var rng = new Random(3);
        var a = new LatencyHistogram();
        var b = new LatencyHistogram();
        var all = new LatencyHistogram();
        for (int i = 0; i < 10_000; i++)
        {
            long v = rng.Next(1, 100_000_000);
            (i % 3 == 0 ? a : b).Record(v);
            all.Record(v);
        }
        a.Add(b);
        Assert.Equal(all.Count, a.Count);
        Assert.Equal(all.SumNs, a.SumNs);
        Assert.Equal(all.NonZeroBuckets(), a.NonZeroBuckets());
        foreach (double p in new[] { 50, 99, 99.9 }) Assert.Equal(all.Percentile(p), a.Percentile(p));
    }

    [Fact]
    public void Stored_buckets_rebuild_the_same_histogram()
    {
        var h = new LatencyHistogram();
        foreach (var v in new long[] { 5, 500, 50_000, 5_000_000, 500_000_000 }) h.Record(v);
        var copy = LatencyHistogram.FromBuckets(h.NonZeroBuckets(), h.SumNs, h.MinNs, h.MaxNs);
        Assert.Equal(h.Percentile(50), copy.Percentile(50));
        Assert.Equal(h.MaxNs, copy.MaxNs);
        Assert.Throws<ArgumentOutOfRangeException>(() => LatencyHistogram.FromBuckets(new[] { (LatencyHistogram.BucketCount, 1L) }, 0, 0, 0));
    }
}
