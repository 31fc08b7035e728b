using System.Numerics;
using System.Runtime.CompilerServices;

namespace ExchStorageTest.Engine.Metrics;

/// <summary>
/// Log-linear latency histogram in nanoseconds (fio/HdrHistogram style): values below 2^SubBits are
/// exact; above, each power of two is split into 2^SubBits equal buckets, so a bucket's midpoint is
/// within 2^-(SubBits+1) (0.39%) of any value in it. Range 1 ns .. 2^42 ns (~73 min). Recording is
/// O(1) with no allocation; merging is exact (bucket-wise add), so percentiles of merged histograms
/// are true percentiles across threads and hosts — never averages of percentiles.
/// </summary>
public sealed class LatencyHistogram
{
    public const int SubBits = 7;
    private const int SubCount = 1 << SubBits;
    public const int MaxExponent = 42;
    /// <summary>Bucket count: one exact group (0..127 ns) plus one group per octave 2^7 .. 2^42.</summary>
    public const int BucketCount = (MaxExponent - SubBits + 2) * SubCount;

    private readonly long[] _counts = new long[BucketCount];

    public long Count { get; private set; }
    public long SumNs { get; private set; }
    public long MinNs { get; private set; } = long.MaxValue;
    public long MaxNs { get; private set; }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Record(long ns)
    {
        if (ns < 0) ns = 0;
        _counts[IndexOf(ns)]++;
        Count++;
        SumNs += ns;
        if (ns < MinNs) MinNs = ns;
        if (ns > MaxNs) MaxNs = ns;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static int IndexOf(long ns)
    {
        ulong v = (ulong)ns;
        if (v < SubCount) return (int)v;
        int msb = 63 - BitOperations.LeadingZeroCount(v);
        if (msb > MaxExponent) return BucketCount - 1;
        int shift = msb - SubBits;
        int sub = (int)(v >> shift) & (SubCount - 1);
        return ((shift + 1) << SubBits) + sub;
    }

    /// <summary>Lowest value that falls into bucket <paramref name="index"/>.</summary>
    public static long LowerBound(int index)
    {
        int group = index >> SubBits;
        int sub = index & (SubCount - 1);
        if (group == 0) return sub;
        int shift = group - 1;
        return (long)(SubCount + sub) << shift;
    }

    /// <summary>Width of bucket <paramref name="index"/> in nanoseconds.</summary>
    public static long Width(int index)
    {
        int group = index >> SubBits;
        return group == 0 ? 1 : 1L << (group - 1);
    }

    /// <summary>The representative value of a bucket: its midpoint (exact for the first group).</summary>
    public static long Midpoint(int index) => LowerBound(index) + (Width(index) - 1) / 2;

    public double MeanNs => Count == 0 ? 0 : (double)SumNs / Count;

    /// <summary>Value at percentile <paramref name="p"/> (0..100), within the bucket error; clamped to min/max.</summary>
    public long Percentile(double p)
    {
        if (Count == 0) return 0;
        if (p >= 100) return MaxNs;
        long rank = (long)Math.Ceiling(p / 100.0 * Count);
        if (rank < 1) rank = 1;
        long seen = 0;
        for (int i = 0; i < _counts.Length; i++)
        {
            seen += _counts[i];
            if (seen >= rank) return Math.Clamp(Midpoint(i), MinNs, MaxNs);
        }
        return MaxNs;
    }

    public void Add(LatencyHistogram other)
    {
        for (int i = 0; i < _counts.Length; i++) _counts[i] += other._counts[i];
        Count += other.Count;
        SumNs += other.SumNs;
        if (other.Count > 0)
        {
            MinNs = Math.Min(MinNs, other.MinNs);
            MaxNs = Math.Max(MaxNs, other.MaxNs);
        }
    }

    public void CopyTo(LatencyHistogram target)
    {
        _counts.CopyTo(target._counts, 0);
        target.Count = Count;
        target.SumNs = SumNs;
        target.MinNs = MinNs;
        target.MaxNs = MaxNs;
    }

    public void Clear()
    {
        Array.Clear(_counts);
        Count = 0;
        SumNs = 0;
        MinNs = long.MaxValue;
        MaxNs = 0;
    }

    /// <summary>The non-zero buckets as (index, count) pairs: what the results file stores.</summary>
    public IEnumerable<(int Index, long Count)> NonZeroBuckets()
    {
        for (int i = 0; i < _counts.Length; i++)
            if (_counts[i] != 0) yield return (i, _counts[i]);
    }

    /// <summary>Rebuilds a histogram from stored buckets (results file, other hosts).</summary>
    public static LatencyHistogram FromBuckets(IEnumerable<(int Index, long Count)> buckets, long sumNs, long minNs, long maxNs)
    {
        var h = new LatencyHistogram();
        foreach (var (index, count) in buckets)
        {
            if ((uint)index >= BucketCount) throw new ArgumentOutOfRangeException(nameof(buckets), $"Bucket index {index} is outside 0..{BucketCount - 1}.");
            h._counts[index] += count;
            h.Count += count;
        }
        h.SumNs = sumNs;
        if (h.Count > 0)
        {
            h.MinNs = minNs;
            h.MaxNs = maxNs;
        }
        return h;
    }
}
