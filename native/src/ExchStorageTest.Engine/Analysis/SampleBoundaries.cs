using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// The stored interval samples' edges, seconds into the measured window: a sample covers (the previous sample's
/// <see cref="SamplePoint.ElapsedSeconds"/>, its own]. The steady state is judged from whole samples, so a span left out
/// of it (a fault window, the seconds outside a judged sub-window) is widened outward to these edges: a live run's
/// forced samples fall on the window's edges and nothing is widened; a re-judgement's window between two samples leaves
/// both samples it touches out. One rule for the live judgement and the re-judgement.
/// </summary>
public static class SampleBoundaries
{
    /// <summary>
    /// An edge this close to a span's end is on it: the engine takes its forced samples when its sampler reaches the
    /// instant, milliseconds after it, and a sample edge 120.004 s is the window's 120 s, not the start of another sample.
    /// </summary>
    public const double EdgeToleranceSeconds = 0.1;

    /// <summary>The edges in order: 0, then every distinct sample end of the interval series (to the millisecond).</summary>
    public static IReadOnlyList<double> Of(TestResults r)
    {
        var edges = new SortedSet<double> { 0 };
        foreach (var p in r.TimeSeries) edges.Add(Math.Round(p.ElapsedSeconds, 3));
        return edges.ToList();
    }

    /// <summary>[<paramref name="from"/>, <paramref name="to"/>) widened outward to the nearest sample edges (kept where no edge lies beyond).</summary>
    public static (double From, double To) Widen(IReadOnlyList<double> edges, double from, double to)
    {
        double wideFrom = from, wideTo = to;
        foreach (double e in edges)
        {
            if (e <= from + EdgeToleranceSeconds) wideFrom = e;
            if (e >= to - EdgeToleranceSeconds) { wideTo = e; break; }
        }
        return (wideFrom, wideTo);
    }

    public static (double From, double To) Widen(TestResults r, double from, double to) => Widen(Of(r), from, to);

    /// <summary>
    /// [<paramref name="from"/>, <paramref name="to"/>) narrowed inward to the nearest sample edges: the whole samples a
    /// judged sub-window holds (what lies outside it is left out, widened outward like any span left out).
    /// </summary>
    public static (double From, double To) Narrow(IReadOnlyList<double> edges, double from, double to)
    {
        double narrowFrom = from, narrowTo = to;
        foreach (double e in edges)
            if (e >= from - EdgeToleranceSeconds) { narrowFrom = e; break; }
        foreach (double e in edges)
            if (e <= to + EdgeToleranceSeconds) narrowTo = e;
        return (narrowFrom, Math.Max(narrowFrom, narrowTo));
    }
}
