namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// When a per-sample series settled: Jetstress's "transient phase" (its tuning waits until the read
/// latency's slope settles) applied to the whole measured window, whose first part may still be transient
/// (a cache warming, a ramp, a step down). Pure.
/// </summary>
/// <para>The settled level is the median of the series' last third. A window of a tenth of the series
/// (at most ten minutes, at least 3 samples) is within tolerance when its mean, without its samples farthest from the
/// level (<see cref="SpikeShare"/> of them, at least one), is within <see cref="RelativeTolerance"/> of that level, or within
/// 3 standard errors of the series' own noise when that is wider, or within the caller's absolute floor
/// (<see cref="RuleFloor"/>) when that is wider still: a level a change too small to move a verdict away is not transient.
/// Without the farthest samples: one spike (a sample far off, then the level again) moves a window's mean, and read as
/// the whole window up to it being transient; a warm-up or a ramp moves the rest of the window too. The series settled at
/// the start of the first window from which every later window is within tolerance.</para>
public static class SteadyState
{
    /// <summary>How far a window's mean may sit from the settled level (0.1: 10%).</summary>
    public const double RelativeTolerance = 0.1;

    /// <summary>The share of a window's samples, those farthest from the level, left out of its mean (at least one): spikes, not a phase.</summary>
    public const double SpikeShare = 0.1;

    /// <summary>The result: <see cref="SettledIndex"/> is the first settled sample (0: steady from the start; null: it never settled); <see cref="Tolerance"/> how far from <see cref="Level"/> a window could sit.</summary>
    public readonly record struct Settling(int? SettledIndex, double Level, double Tolerance = 0);

    /// <param name="x">The series, one value per sample interval, in time order.</param>
    /// <param name="intervalSeconds">The sample interval, when known: the window is then at most ten minutes (<see cref="ChangePoints.MinimumSegment"/>).</param>
    /// <param name="minimumTolerance">The tolerance's absolute floor, in the series' unit (<see cref="RuleFloor"/>); 0: none.</param>
    public static Settling Of(IReadOnlyList<double> x, double intervalSeconds = 0, double minimumTolerance = 0)
    {
        int n = x.Count;
        if (n < ChangePoints.MinimumSamples) return new Settling(0, n == 0 ? 0 : Median(x, 0, n));
        int w = ChangePoints.MinimumSegment(n, intervalSeconds);
        int spikes = Math.Max(1, (int)(w * SpikeShare));
        double level = Median(x, n - n / 3, n);
        double tolerance = Math.Max(Math.Max(RelativeTolerance * Math.Abs(level), 3 * ChangePoints.Noise(x) / Math.Sqrt(w)), minimumTolerance);
        // The window's values kept sorted as it slides (one removal and one insert a step): its farthest from the level are at its ends.
        var window = new List<double>(w + 1);
        double sum = 0;
        for (int i = n - w; i < n; i++) { window.Add(x[i]); sum += x[i]; }
        window.Sort();
        // Walk the windows backwards: the latest one out of tolerance ends the transient.
        for (int start = n - w; start >= 0; start--)
        {
            if (start < n - w)
            {
                window.RemoveAt(window.BinarySearch(x[start + w])); // one of equal values: any will do
                int at = window.BinarySearch(x[start]);
                window.Insert(at < 0 ? ~at : at, x[start]);
                sum += x[start] - x[start + w];
            }
            if (Math.Abs(MeanWithoutFarthest(window, sum, spikes, level) - level) <= tolerance) continue;
            return new Settling(start + 1 > n - w ? null : start + 1, level, tolerance);
        }
        return new Settling(0, level, tolerance);
    }

    /// <summary>The mean of the sorted <paramref name="window"/> (whose values sum to <paramref name="sum"/>) without its <paramref name="count"/> values farthest from <paramref name="level"/>.</summary>
    private static double MeanWithoutFarthest(List<double> window, double sum, int count, double level)
    {
        int low = 0, high = window.Count - 1;
        for (int k = 0; k < count; k++)
            sum -= level - window[low] >= window[high] - level ? window[low++] : window[high--];
        return sum / (window.Count - count);
    }

    private static double Median(IReadOnlyList<double> x, int lo, int hi)
    {
        var part = new double[hi - lo];
        for (int i = lo; i < hi; i++) part[i - lo] = x[i];
        Array.Sort(part);
        int m = part.Length / 2;
        return part.Length % 2 == 1 ? part[m] : (part[m - 1] + part[m]) / 2;
    }
}
