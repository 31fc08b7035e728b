using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// Conversions between the stored histogram (<see cref="HistogramData"/>) and the live
/// <see cref="LatencyHistogram"/>, and percentile summaries computed from buckets. Merges add
/// buckets, so a merged percentile is the percentile of the union of the raw values (within the
/// bucket error), never an average of percentiles.
/// </summary>
public static class HistogramMath
{
    public const string Layout = "log-linear-ns-sub7";
    private const double NsPerMs = 1_000_000.0;

    public static LatencyHistogram ToHistogram(HistogramData data)
    {
        if (data.Count > 0 && data.Layout != Layout)
            throw new EngineException("HistogramLayoutMismatch", ErrorCategories.InvalidData,
                $"Histogram layout '{data.Layout}' is not '{Layout}'; it cannot be merged.");
        return LatencyHistogram.FromBuckets(data.Buckets.Select(b => ((int)b[0], b[1])), data.SumNs, data.MinNs, data.MaxNs);
    }

    public static HistogramData ToData(LatencyHistogram h) => new()
    {
        Layout = Layout,
        Count = h.Count,
        SumNs = h.SumNs,
        MinNs = h.Count == 0 ? 0 : h.MinNs,
        MaxNs = h.MaxNs,
        Buckets = h.NonZeroBuckets().Select(b => new long[] { b.Index, b.Count }).ToList(),
    };

    /// <summary>Bucket-wise sum of stored histograms.</summary>
    public static HistogramData Merge(IEnumerable<HistogramData> parts)
    {
        var total = new LatencyHistogram();
        foreach (var p in parts)
            if (p.Count > 0) total.Add(ToHistogram(p));
        return ToData(total);
    }

    /// <summary>Mean, min, percentiles and max in milliseconds.</summary>
    public static LatencySummary Summary(LatencyHistogram h) => new()
    {
        Mean = h.MeanNs / NsPerMs,
        Min = h.Count == 0 ? 0 : h.MinNs / NsPerMs,
        P50 = h.Percentile(50) / NsPerMs,
        P90 = h.Percentile(90) / NsPerMs,
        P99 = h.Percentile(99) / NsPerMs,
        P999 = h.Percentile(99.9) / NsPerMs,
        Max = h.MaxNs / NsPerMs,
    };

    public static LatencySummary Summary(HistogramData data) => Summary(ToHistogram(data));

    /// <summary>Non-empty buckets as (lower ms, upper ms, count) for charts.</summary>
    public static IReadOnlyList<(double LowerMs, double UpperMs, long Count)> Buckets(HistogramData data) =>
        data.Buckets
            .Where(b => b[1] > 0)
            .OrderBy(b => b[0])
            .Select(b => ((int)b[0], b[1]))
            .Select(b => (LatencyHistogram.LowerBound(b.Item1) / NsPerMs,
                         (LatencyHistogram.LowerBound(b.Item1) + LatencyHistogram.Width(b.Item1)) / NsPerMs,
                         b.Item2))
            .ToList();
}
