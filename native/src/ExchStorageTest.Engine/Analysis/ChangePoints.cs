namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// Sustained steps in one per-sample series (IOPS, a latency): where its level changed and stayed
/// changed for a long stretch — burst credits spent, a write cache full, throttling. Pure.
/// </summary>
/// <para>How: binary segmentation (the two-segment mean split, each segment split again) proposes
/// boundaries; then each boundary is judged against its neighbours only, and the weakest one that fails
/// is dropped (its segments merge) until every remaining boundary passes. A boundary passes when the
/// levels either side differ by at least <see cref="MinimumRelativeChange"/> of the level before, by
/// <see cref="MinimumTScore"/> standard errors of the series' own sample-to-sample noise, abruptly
/// (the few samples either side differ by most of the step: a slow drift has no such edge), and
/// consistently (most samples of each side lie on their side of the midpoint: a one-sample spike does not), and by at least
/// the caller's absolute floor (<see cref="RuleFloor"/>: a step too small to move a verdict is not a finding).
/// Each side is at least <see cref="MinimumSegment"/> samples long: a tenth of the series (at most ten minutes), at least 3.</para>
public static class ChangePoints
{
    /// <summary>Below this many samples a series is not judged: too short to tell a step from a drift.</summary>
    public const int MinimumSamples = 10;
    /// <summary>The smallest step reported, relative to the level before it (0.2: 20%).</summary>
    public const double MinimumRelativeChange = 0.2;
    /// <summary>The step over its standard error (noise x sqrt(1/before + 1/after samples)).</summary>
    public const double MinimumTScore = 6;
    /// <summary>The share of the step the few samples either side of it must show (a drift shows little).</summary>
    public const double MinimumAbruptness = 0.5;
    /// <summary>The share of each side's samples that must lie on its side of the midpoint between the levels.</summary>
    public const double MinimumConsistency = 0.75;
    /// <summary>The most boundaries proposed; a run's series has a few real steps at most.</summary>
    private const int MaximumCandidates = 8;

    /// <summary>One sustained step: samples [<see cref="Index"/>, <see cref="End"/>) sit at <see cref="After"/>, the samples before at <see cref="Before"/>.</summary>
    public readonly record struct Step(int Index, int End, double Before, double After)
    {
        /// <summary>The change relative to the level before (-0.58: fell 58%).</summary>
        public double RelativeChange => Before == 0 ? (After == 0 ? 0 : double.PositiveInfinity) : (After - Before) / Math.Abs(Before);
    }

    /// <summary>The longest a step must last to count, when the sample interval is known: ten minutes.</summary>
    public const double LongStretchSeconds = 600;

    /// <summary>
    /// A tenth of the series, at most <see cref="LongStretchSeconds"/> of samples when <paramref name="intervalSeconds"/>
    /// is given, at least 3 samples: a "sustained" step lasts at least this long. The cap lets a 24-hour run show the
    /// fall at minute 14 that a 2-hour run shows.
    /// </summary>
    public static int MinimumSegment(int samples, double intervalSeconds = 0)
    {
        int tenth = samples / 10;
        if (intervalSeconds > 0) tenth = Math.Min(tenth, (int)Math.Ceiling(LongStretchSeconds / intervalSeconds));
        return Math.Max(3, tenth);
    }

    /// <summary>
    /// The series' sample-to-sample noise as a standard deviation, robust to its steps and spikes:
    /// 1.4826 x the median absolute first difference / sqrt(2) (a step is one large difference among many).
    /// </summary>
    public static double Noise(IReadOnlyList<double> x)
    {
        if (x.Count < 2) return 0;
        var d = new double[x.Count - 1];
        for (int i = 1; i < x.Count; i++) d[i - 1] = Math.Abs(x[i] - x[i - 1]);
        Array.Sort(d);
        double median = d.Length % 2 == 1 ? d[d.Length / 2] : (d[d.Length / 2 - 1] + d[d.Length / 2]) / 2;
        return 1.4826 * median / Math.Sqrt(2);
    }

    /// <summary>The sustained steps of <paramref name="x"/> in time order; empty for a steady, drifting or spiky series.</summary>
    /// <param name="x">The series, one value per sample interval, in time order.</param>
    /// <param name="intervalSeconds">The sample interval, when known: caps the shortest step at <see cref="LongStretchSeconds"/>.</param>
    /// <param name="minimumStep">The smallest step reported, in the series' unit (<see cref="RuleFloor"/>); 0: no absolute floor.</param>
    public static IReadOnlyList<Step> Find(IReadOnlyList<double> x, double intervalSeconds = 0, double minimumStep = 0)
    {
        int n = x.Count;
        if (n < MinimumSamples) return Array.Empty<Step>();
        var prefix = new double[n + 1];
        for (int i = 0; i < n; i++) prefix[i + 1] = prefix[i] + x[i];
        int minSegment = MinimumSegment(n, intervalSeconds);
        double noise = Noise(x);

        var boundaries = new List<int>();
        Propose(prefix, 0, n, minSegment, noise, boundaries);
        boundaries.Sort();

        // Drop the weakest failing boundary until every one passes against its neighbours.
        while (boundaries.Count > 0)
        {
            int weakest = -1;
            double weakestScore = double.PositiveInfinity;
            for (int b = 0; b < boundaries.Count; b++)
            {
                int lo = b == 0 ? 0 : boundaries[b - 1], hi = b == boundaries.Count - 1 ? n : boundaries[b + 1];
                if (Passes(x, prefix, lo, boundaries[b], hi, minSegment, noise, minimumStep, out double score)) continue;
                if (weakest < 0 || score < weakestScore) { weakestScore = score; weakest = b; }
            }
            if (weakest < 0) break;
            boundaries.RemoveAt(weakest);
            // The merged neighbours may place their own edges better now.
            Relocate(prefix, boundaries, n, minSegment);
        }

        var steps = new List<Step>(boundaries.Count);
        for (int b = 0; b < boundaries.Count; b++)
        {
            int lo = b == 0 ? 0 : boundaries[b - 1], hi = b == boundaries.Count - 1 ? n : boundaries[b + 1];
            int k = boundaries[b];
            steps.Add(new Step(k, hi, Mean(prefix, lo, k), Mean(prefix, k, hi)));
        }
        return steps;
    }

    private static void Propose(double[] prefix, int lo, int hi, int minSegment, double noise, List<int> boundaries)
    {
        if (boundaries.Count >= MaximumCandidates || hi - lo < 2 * minSegment) return;
        int k = BestSplit(prefix, lo, hi, minSegment);
        double m1 = Mean(prefix, lo, k), m2 = Mean(prefix, k, hi);
        double se = noise * Math.Sqrt(1.0 / (k - lo) + 1.0 / (hi - k));
        if (Math.Abs(m2 - m1) <= MinimumTScore * se) return;
        boundaries.Add(k);
        Propose(prefix, lo, k, minSegment, noise, boundaries);
        Propose(prefix, k, hi, minSegment, noise, boundaries);
    }

    /// <summary>The split of [lo, hi) with the largest between-segment sum of squares, each side at least <paramref name="minSegment"/> long.</summary>
    private static int BestSplit(double[] prefix, int lo, int hi, int minSegment)
    {
        int best = lo + minSegment;
        double bestGain = -1;
        double total = prefix[hi] - prefix[lo];
        int n = hi - lo;
        for (int k = lo + minSegment; k <= hi - minSegment; k++)
        {
            int a = k - lo, b = hi - k;
            double left = prefix[k] - prefix[lo];
            double diff = left / a - (total - left) / b;
            double gain = (double)a * b / n * diff * diff;
            if (gain > bestGain) { bestGain = gain; best = k; }
        }
        return best;
    }

    private static void Relocate(double[] prefix, List<int> boundaries, int n, int minSegment)
    {
        for (int b = 0; b < boundaries.Count; b++)
        {
            int lo = b == 0 ? 0 : boundaries[b - 1], hi = b == boundaries.Count - 1 ? n : boundaries[b + 1];
            if (hi - lo >= 2 * minSegment) boundaries[b] = BestSplit(prefix, lo, hi, minSegment);
        }
    }

    /// <summary>Whether the boundary at <paramref name="k"/> between [lo, k) and [k, hi) is a sustained step; <paramref name="score"/> ranks failures (lower: weaker).</summary>
    private static bool Passes(IReadOnlyList<double> x, double[] prefix, int lo, int k, int hi, int minSegment, double noise, double minimumStep, out double score)
    {
        double before = Mean(prefix, lo, k), after = Mean(prefix, k, hi);
        double step = after - before;
        double size = Math.Abs(step);
        double se = noise * Math.Sqrt(1.0 / (k - lo) + 1.0 / (hi - k));
        double relative = before == 0 ? (size == 0 ? 0 : double.PositiveInfinity) : size / Math.Abs(before);
        score = se > 0 ? size / se : double.PositiveInfinity;
        if (k - lo < minSegment || hi - k < minSegment || size == 0) { score = 0; return false; }
        if (relative < MinimumRelativeChange || size <= MinimumTScore * se || size < minimumStep) return false;

        // Abrupt: the samples just either side show most of the step.
        int w = Math.Min(minSegment, 5);
        double local = Mean(prefix, k, k + w) - Mean(prefix, k - w, k);
        if (local * Math.Sign(step) < MinimumAbruptness * size) return false;

        // Consistent: each side lies mostly on its side of the midpoint.
        double mid = (before + after) / 2;
        int beforeOnSide = 0, afterOnSide = 0;
        for (int i = lo; i < k; i++) if ((x[i] - mid) * Math.Sign(step) < 0) beforeOnSide++;
        for (int i = k; i < hi; i++) if ((x[i] - mid) * Math.Sign(step) > 0) afterOnSide++;
        return beforeOnSide >= MinimumConsistency * (k - lo) && afterOnSide >= MinimumConsistency * (hi - k);
    }

    private static double Mean(double[] prefix, int lo, int hi) => hi > lo ? (prefix[hi] - prefix[lo]) / (hi - lo) : 0;
}
