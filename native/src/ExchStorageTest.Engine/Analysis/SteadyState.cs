namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// When a per-sample series settled: Jetstress's "transient phase" (its tuning waits until the read
/// latency's slope settles) applied to the whole measured window, whose first part may still be transient
/// (a cache warming, a ramp, a step down). Pure.
/// </summary>
/// <para>The settled level is the median of the series' last third. A window of a tenth of the series
/// (at most ten minutes, at least 3 samples) is within tolerance when its mean is within <see cref="RelativeTolerance"/> of that
/// level, or within 3 standard errors of the series' own noise when that is wider. The series settled at
/// the start of the first window from which every later window is within tolerance.</para>
public static class SteadyState
{
    /// <summary>How far a window's mean may sit from the settled level (0.1: 10%).</summary>
    public const double RelativeTolerance = 0.1;

    /// <summary>The result: <see cref="SettledIndex"/> is the first settled sample (0: steady from the start; null: it never settled).</summary>
    public readonly record struct Settling(int? SettledIndex, double Level);

    /// <param name="x">The series, one value per sample interval, in time order.</param>
    /// <param name="intervalSeconds">The sample interval, when known: the window is then at most ten minutes (<see cref="ChangePoints.MinimumSegment"/>).</param>
    public static Settling Of(IReadOnlyList<double> x, double intervalSeconds = 0)
    {
        int n = x.Count;
        if (n < ChangePoints.MinimumSamples) return new Settling(0, n == 0 ? 0 : Median(x, 0, n));
        int w = ChangePoints.MinimumSegment(n, intervalSeconds);
        double level = Median(x, n - n / 3, n);
        double tolerance = Math.Max(RelativeTolerance * Math.Abs(level), 3 * ChangePoints.Noise(x) / Math.Sqrt(w));
        double sum = 0;
        for (int i = n - w; i < n; i++) sum += x[i];
        // Walk the windows backwards: the latest one out of tolerance ends the transient.
        for (int start = n - w; start >= 0; start--)
        {
            if (start < n - w) sum += x[start] - x[start + w];
            if (Math.Abs(sum / w - level) <= tolerance) continue;
            return new Settling(start + 1 > n - w ? null : start + 1, level);
        }
        return new Settling(0, level);
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
