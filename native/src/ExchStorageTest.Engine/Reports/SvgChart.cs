using System.Text;
using static ExchStorageTest.Engine.Reports.HtmlPage;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Inline SVG charts for the HTML report: no scripts, no fonts to fetch, prints as vectors.
/// Long series are reduced to at most <see cref="MaxPoints"/> per line by averaging consecutive
/// points, so a 24 h run at 1 s stays a small file.
/// </summary>
public static class SvgChart
{
    public const int MaxPoints = 480;
    public static readonly string[] Palette = { "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22" };

    /// <summary>
    /// One line. <paramref name="ClipAt"/> (NaN: none) is the stream's per-I/O p99.9 latency: the axis
    /// does not stretch past it for this line, so one spike cannot flatten the rest.
    /// </summary>
    public sealed record Series(string Name, IReadOnlyList<(double X, double Y)> Points, double ClipAt = double.NaN);

    /// <summary>A vertical mark at <paramref name="X"/> (a series' step or the time it settled) with its caption; <paramref name="Alert"/> draws it in the warning colour.</summary>
    public sealed record Marker(double X, string Caption, bool Alert);

    /// <summary>
    /// A shaded span of the x axis from <paramref name="From"/> to <paramref name="To"/> (a fault window), drawn under the
    /// lines; <paramref name="Label"/> names it in the legend, <paramref name="Caption"/> is its tooltip.
    /// </summary>
    public sealed record Band(double From, double To, string Label, string Caption);

    /// <summary>The fill of a <see cref="Band"/>: light enough that the lines over it read, inline so every page's style sheet stays as it is.</summary>
    private const string BandFill = "fill=\"#d62728\" fill-opacity=\"0.12\"";

    /// <summary>
    /// A line chart; x in seconds since <paramref name="xRange"/>'s start (printed as h:mm or m:ss), y in
    /// <paramref name="yUnit"/>. Charts of one run pass the same <paramref name="xRange"/> so their time
    /// axes agree. The y axis reaches the highest point of each line not above its <see cref="Series.ClipAt"/>;
    /// points beyond it are drawn on the top edge and marked with a triangle whose tooltip gives the value.
    /// </summary>
    /// <para>An x axis other than time (a capacity search's mailboxes) gives <paramref name="xLabel"/>, which prints an x
    /// value, and <paramref name="xTitle"/>, the axis' name.</para>
    public static string Line(string title, string yUnit, IReadOnlyList<Series> series, (double Start, double End)? xRange = null, int width = 1000, int height = 240,
        Func<double, string>? xLabel = null, string? xTitle = null, IReadOnlyList<Marker>? markers = null, IReadOnlyList<Band>? bands = null)
    {
        const int left = 64, right = 150, top = 24, bottom = 34;
        int plotW = width - left - right, plotH = height - top - bottom;
        var reduced = series.Select(s => new Series(s.Name, Reduce(s.Points), s.ClipAt)).ToList();
        var all = reduced.SelectMany(s => s.Points).ToList();
        double xMin = xRange?.Start ?? (all.Count == 0 ? 0 : all.Min(p => p.X));
        double xMax = xRange?.End ?? (all.Count == 0 ? 1 : all.Max(p => p.X));
        if (xMax <= xMin) xMax = xMin + 1;
        // Each line reaches the axis with its highest point not above its clip (the clip itself when
        // every point is above it); points beyond the axis are the marked ones.
        double highest = 0;
        foreach (var s in reduced)
        {
            if (s.Points.Count == 0) continue;
            double clip = s.ClipAt > 0 ? s.ClipAt : double.PositiveInfinity;
            double peak = double.NegativeInfinity;
            foreach (var (_, y) in s.Points) if (y <= clip && y > peak) peak = y;
            highest = Math.Max(highest, double.IsNegativeInfinity(peak) ? clip : peak);
        }
        double yMax = NiceCeiling(all.Count == 0 ? 1 : highest);
        int clipped = all.Count(p => p.Y > yMax);

        var sb = new StringBuilder();
        sb.Append($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{E(title)}\">");
        sb.Append($"<text x=\"{left}\" y=\"15\" class=\"ct\">{E(title)}</text>");
        if (clipped > 0)
            sb.Append($"<text x=\"{left + plotW}\" y=\"15\" class=\"ax\" text-anchor=\"end\">&#9650; {Wording.Count(clipped, "sample")} above the axis (clipped at p99.9)</text>");
        // Y grid and labels.
        for (int i = 0; i <= 4; i++)
        {
            double v = yMax * i / 4;
            double y = top + plotH - plotH * i / 4.0;
            sb.Append($"<line x1=\"{left}\" y1=\"{F(y)}\" x2=\"{left + plotW}\" y2=\"{F(y)}\" class=\"grid\"/>");
            sb.Append($"<text x=\"{left - 6}\" y=\"{F(y + 4)}\" class=\"ax\" text-anchor=\"end\">{E(Short(v))}</text>");
        }
        sb.Append($"<text x=\"14\" y=\"{F(top + plotH / 2.0)}\" class=\"ax\" transform=\"rotate(-90 14 {F(top + plotH / 2.0)})\" text-anchor=\"middle\">{E(yUnit)}</text>");
        // X labels: elapsed time.
        bool shortRun = xMax - xMin < 600;
        string X(double offset) => xLabel is null ? Elapsed(offset, shortRun) : E(xLabel(xMin + offset));
        for (int i = 0; i <= 5; i++)
        {
            double v = (xMax - xMin) * i / 5;
            double x = left + plotW * i / 5.0;
            sb.Append($"<text x=\"{F(x)}\" y=\"{height - 14}\" class=\"ax\" text-anchor=\"middle\">{X(v)}</text>");
        }
        sb.Append($"<rect x=\"{left}\" y=\"{top}\" width=\"{plotW}\" height=\"{plotH}\" class=\"frame\"/>");
        Bands(sb, bands, left, top, plotW, plotH, xMin, xMax, legendY: top + 10 + reduced.Count * 16);
        for (int s = 0; s < reduced.Count; s++)
        {
            string color = Palette[s % Palette.Length];
            var pts = reduced[s].Points;
            double Px(double x) => left + Math.Clamp((x - xMin) / (xMax - xMin), 0, 1) * plotW;
            if (pts.Count > 0)
            {
                sb.Append($"<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"");
                foreach (var (x, y) in pts)
                {
                    double py = top + plotH - Math.Clamp(y / yMax, 0, 1) * plotH;
                    sb.Append(F(Px(x))).Append(',').Append(F(py)).Append(' ');
                }
                sb.Length--;
                sb.Append("\"/>");
                foreach (var (x, y) in pts)
                {
                    if (y <= yMax) continue;
                    double px = Px(x);
                    sb.Append($"<path class=\"clipped\" d=\"M{F(px - 5)},{top + 9} L{F(px + 5)},{top + 9} L{F(px)},{top + 1} Z\" fill=\"{color}\">")
                      .Append($"<title>{E(reduced[s].Name)} at {X(x - xMin)}: {E(JetFormat.Number(y))} {E(yUnit)}, above the axis</title></path>");
                }
            }
            int ly = top + 10 + s * 16;
            sb.Append($"<rect x=\"{left + plotW + 10}\" y=\"{ly - 8}\" width=\"12\" height=\"3\" fill=\"{color}\"/>");
            sb.Append($"<text x=\"{left + plotW + 26}\" y=\"{ly}\" class=\"ax\">{E(reduced[s].Name)}</text>");
        }
        // Marks last, over the lines: a dashed vertical line, its caption beside it, the whole caption in its tooltip.
        foreach (var m in markers ?? Array.Empty<Marker>())
        {
            double px = left + Math.Clamp((m.X - xMin) / (xMax - xMin), 0, 1) * plotW;
            string colour = m.Alert ? "#b00020" : "#555";
            bool leftOfLine = px > left + plotW * 0.6;
            sb.Append($"<g class=\"mark\"><title>{E(m.Caption)}</title>")
              .Append($"<line x1=\"{F(px)}\" y1=\"{top}\" x2=\"{F(px)}\" y2=\"{top + plotH}\" stroke=\"{colour}\" stroke-width=\"1.5\" stroke-dasharray=\"5,3\"/>")
              .Append($"<text x=\"{F(leftOfLine ? px - 4 : px + 4)}\" y=\"{top + plotH - 6}\" class=\"ax\" fill=\"{colour}\" text-anchor=\"{(leftOfLine ? "end" : "start")}\">{E(Clip(m.Caption, 90))}</text></g>");
        }
        sb.Append($"<text x=\"{left + plotW}\" y=\"{height - 2}\" class=\"ax\" text-anchor=\"end\">{E(xTitle ?? $"elapsed ({(shortRun ? "m:ss" : "h:mm")})")}</text>");
        sb.Append("</svg>");
        return sb.ToString();
    }

    /// <summary>Each band shaded over the plot from its start to its end (clamped to the axis), under the lines, and named in the legend from <paramref name="legendY"/> down.</summary>
    private static void Bands(StringBuilder sb, IReadOnlyList<Band>? bands, int left, int top, int plotW, int plotH, double xMin, double xMax, int legendY)
    {
        if (bands is null) return;
        for (int b = 0; b < bands.Count; b++)
        {
            var band = bands[b];
            double x0 = left + Math.Clamp((band.From - xMin) / (xMax - xMin), 0, 1) * plotW;
            double x1 = left + Math.Clamp((band.To - xMin) / (xMax - xMin), 0, 1) * plotW;
            sb.Append($"<rect class=\"band\" x=\"{F(x0)}\" y=\"{top}\" width=\"{F(Math.Max(x1 - x0, 1))}\" height=\"{plotH}\" {BandFill}><title>{E(band.Caption)}</title></rect>");
            int ly = legendY + b * 16;
            sb.Append($"<rect x=\"{left + plotW + 10}\" y=\"{ly - 9}\" width=\"12\" height=\"10\" {BandFill}/>");
            sb.Append($"<text x=\"{left + plotW + 26}\" y=\"{ly}\" class=\"ax\">{E(band.Label)}</text>");
        }
    }

    /// <summary>One stall of a <see cref="StallStrip"/>: from <paramref name="From"/> for <paramref name="Length"/> seconds, its tooltip <paramref name="Caption"/>.</summary>
    public sealed record StallBar(double From, double Length, string Caption);

    /// <summary>
    /// A volume's stall timeline: a strip over the measured window's time axis (<paramref name="xRange"/>, as the run's
    /// charts), each stall a red bar at its instant and length (at least a pixel wide, so a short one shows), the bands
    /// (the fault window) shaded, and the volume's I/O per second as a line over it. <paramref name="iops"/> is one or more
    /// runs of points: a gap between runs is seconds the results do not hold, drawn as no line rather than as zero.
    /// </summary>
    public static string StallStrip(string title, (double Start, double End) xRange, IReadOnlyList<StallBar> stalls, IReadOnlyList<IReadOnlyList<(double X, double Y)>> iops,
        IReadOnlyList<Band>? bands = null, int width = 1000, int height = 110)
    {
        const int left = 64, right = 150, top = 24, bottom = 30;
        int plotW = width - left - right, plotH = height - top - bottom;
        double xMin = xRange.Start, xMax = xRange.End > xRange.Start ? xRange.End : xRange.Start + 1;
        var runs = iops.Select(Reduce).Where(p => p.Count > 0).ToList();
        double yMax = NiceCeiling(runs.Count == 0 ? 1 : runs.Max(p => p.Max(q => q.Y)));
        double Px(double x) => left + Math.Clamp((x - xMin) / (xMax - xMin), 0, 1) * plotW;
        var sb = new StringBuilder();
        sb.Append($"<svg class=\"chart stalls\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{E(title)}\">");
        sb.Append($"<text x=\"{left}\" y=\"15\" class=\"ct\">{E(title)}</text>");
        sb.Append($"<line x1=\"{left}\" y1=\"{top}\" x2=\"{left + plotW}\" y2=\"{top}\" class=\"grid\"/>");
        sb.Append($"<text x=\"{left - 6}\" y=\"{top + 4}\" class=\"ax\" text-anchor=\"end\">{E(Short(yMax))}</text>");
        sb.Append($"<text x=\"{left - 6}\" y=\"{top + plotH + 4}\" class=\"ax\" text-anchor=\"end\">0</text>");
        bool shortRun = xMax - xMin < 600;
        for (int i = 0; i <= 5; i++)
            sb.Append($"<text x=\"{F(left + plotW * i / 5.0)}\" y=\"{height - 12}\" class=\"ax\" text-anchor=\"middle\">{Elapsed((xMax - xMin) * i / 5, shortRun)}</text>");
        sb.Append($"<rect x=\"{left}\" y=\"{top}\" width=\"{plotW}\" height=\"{plotH}\" class=\"frame\"/>");
        Bands(sb, bands, left, top, plotW, plotH, xMin, xMax, legendY: top + 42);
        foreach (var stall in stalls)
        {
            double x0 = Px(stall.From), x1 = Px(stall.From + stall.Length);
            sb.Append($"<rect class=\"stall\" x=\"{F(x0)}\" y=\"{top}\" width=\"{F(Math.Max(x1 - x0, 1))}\" height=\"{plotH}\" fill=\"#d62728\" fill-opacity=\"0.7\"><title>{E(stall.Caption)}</title></rect>");
        }
        foreach (var run in runs)
        {
            sb.Append("<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.5\" points=\"");
            foreach (var (x, y) in run) sb.Append(F(Px(x))).Append(',').Append(F(top + plotH - Math.Clamp(y / yMax, 0, 1) * plotH)).Append(' ');
            sb.Length--;
            sb.Append("\"/>");
        }
        sb.Append($"<rect x=\"{left + plotW + 10}\" y=\"{top + 2}\" width=\"12\" height=\"3\" fill=\"#1f77b4\"/>");
        sb.Append($"<text x=\"{left + plotW + 26}\" y=\"{top + 10}\" class=\"ax\">I/O per second</text>");
        sb.Append($"<rect x=\"{left + plotW + 10}\" y=\"{top + 17}\" width=\"12\" height=\"10\" fill=\"#d62728\" fill-opacity=\"0.7\"/>");
        sb.Append($"<text x=\"{left + plotW + 26}\" y=\"{top + 26}\" class=\"ax\">stall</text>");
        sb.Append($"<text x=\"{left + plotW}\" y=\"{height - 1}\" class=\"ax\" text-anchor=\"end\">{E($"elapsed ({(shortRun ? "m:ss" : "h:mm")})")}</text>");
        sb.Append("</svg>");
        return sb.ToString();
    }

    private static string Clip(string s, int max) => s.Length <= max ? s : s.Substring(0, max - 1) + "\u2026";

    /// <summary>Horizontal bars (label, value), e.g. target vs achieved; <paramref name="colours"/> gives one fill per bar (null: the palette in order).</summary>
    public static string Bars(string title, string unit, IReadOnlyList<(string Label, double Value)> bars, int width = 700, IReadOnlyList<string>? colours = null)
    {
        const int left = 230, right = 110, rowH = 26, top = 24;
        int height = top + bars.Count * rowH + 10;
        int plotW = width - left - right;
        double max = NiceCeiling(bars.Count == 0 ? 1 : bars.Max(b => b.Value));
        var sb = new StringBuilder();
        sb.Append($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{E(title)}\">");
        sb.Append($"<text x=\"8\" y=\"15\" class=\"ct\">{E(title)}</text>");
        for (int i = 0; i < bars.Count; i++)
        {
            double y = top + i * rowH;
            double w = max <= 0 ? 0 : Math.Clamp(bars[i].Value / max, 0, 1) * plotW;
            sb.Append($"<text x=\"{left - 8}\" y=\"{F(y + 16)}\" class=\"ax\" text-anchor=\"end\">{E(bars[i].Label)}</text>");
            sb.Append($"<rect x=\"{left}\" y=\"{F(y + 4)}\" width=\"{F(w)}\" height=\"16\" fill=\"{(colours is null ? Palette[i % Palette.Length] : colours[i])}\"/>");
            sb.Append($"<text x=\"{F(left + w + 6)}\" y=\"{F(y + 16)}\" class=\"ax\">{E(JetFormat.Number(bars[i].Value))} {E(unit)}</text>");
        }
        sb.Append("</svg>");
        return sb.ToString();
    }

    /// <summary>
    /// A latency histogram: bins of a quarter octave on a log axis, bar height = share of I/Os.
    /// </summary>
    public static string Histogram(string title, IReadOnlyList<(double LowerMs, double UpperMs, long Count)> buckets, int width = 1000, int height = 200)
    {
        const int left = 64, right = 20, top = 24, bottom = 34;
        int plotW = width - left - right, plotH = height - top - bottom;
        var sb = new StringBuilder();
        sb.Append($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{E(title)}\">");
        sb.Append($"<text x=\"{left}\" y=\"15\" class=\"ct\">{E(title)}</text>");
        long total = buckets.Sum(b => b.Count);
        if (total == 0)
        {
            sb.Append($"<text x=\"{left}\" y=\"{top + 20}\" class=\"ax\">no I/O recorded</text></svg>");
            return sb.ToString();
        }
        var bins = QuarterOctaves(buckets);
        int first = bins.Keys.First(), last = bins.Keys.Last();
        int n = last - first + 1;
        double maxShare = bins.Values.Max() / (double)total;
        double yMax = NiceCeiling(maxShare * 100);
        ShareGrid(sb, left, top, plotW, plotH, yMax);
        double bw = plotW / (double)n;
        foreach (var (bin, count) in bins)
        {
            double share = count * 100.0 / total;
            double h = share / yMax * plotH;
            double x = left + (bin - first) * bw;
            sb.Append($"<rect x=\"{F(x + 0.5)}\" y=\"{F(top + plotH - h)}\" width=\"{F(Math.Max(bw - 1, 0.5))}\" height=\"{F(h)}\" fill=\"#1f77b4\"><title>{E(JetFormat.Number(Math.Pow(2, bin / 4.0)))}-{E(JetFormat.Number(Math.Pow(2, (bin + 1) / 4.0)))} ms: {count}</title></rect>");
        }
        OctaveLabels(sb, left, height, first, last, bw);
        sb.Append($"<rect x=\"{left}\" y=\"{top}\" width=\"{plotW}\" height=\"{plotH}\" class=\"frame\"/>");
        sb.Append($"<text x=\"{left + plotW}\" y=\"{height - 2}\" class=\"ax\" text-anchor=\"end\">latency (ms, log scale)</text>");
        sb.Append("</svg>");
        return sb.ToString();
    }

    /// <summary>Re-bins histogram buckets into quarter octaves of milliseconds (bin b spans 2^(b/4) to 2^((b+1)/4) ms).</summary>
    private static SortedDictionary<int, long> QuarterOctaves(IReadOnlyList<(double LowerMs, double UpperMs, long Count)> buckets)
    {
        var bins = new SortedDictionary<int, long>();
        foreach (var (lo, hi, count) in buckets)
        {
            double mid = Math.Max((lo + hi) / 2, 1e-6);
            int bin = (int)Math.Floor(4 * Math.Log2(mid));
            bins[bin] = bins.GetValueOrDefault(bin) + count;
        }
        return bins;
    }

    /// <summary>The y grid of a histogram: five lines from 0 to <paramref name="yMax"/> per cent of the I/Os.</summary>
    private static void ShareGrid(StringBuilder sb, int left, int top, int plotW, int plotH, double yMax)
    {
        for (int i = 0; i <= 4; i++)
        {
            double y = top + plotH - plotH * i / 4.0;
            sb.Append($"<line x1=\"{left}\" y1=\"{F(y)}\" x2=\"{left + plotW}\" y2=\"{F(y)}\" class=\"grid\"/>");
            sb.Append($"<text x=\"{left - 6}\" y=\"{F(y + 4)}\" class=\"ax\" text-anchor=\"end\">{E(Short(yMax * i / 4))}%</text>");
        }
    }

    /// <summary>The x labels of a histogram: every octave of milliseconds over quarter-octave bins <paramref name="first"/> to <paramref name="last"/>.</summary>
    private static void OctaveLabels(StringBuilder sb, int left, int height, int first, int last, double bw)
    {
        for (int bin = first; bin <= last + 1; bin++)
        {
            if (bin % 4 != 0) continue;
            double x = left + (bin - first) * bw;
            sb.Append($"<text x=\"{F(x)}\" y=\"{height - 14}\" class=\"ax\" text-anchor=\"middle\">{E(Short(Math.Pow(2, bin / 4.0)))}</text>");
        }
    }

    /// <summary>One distribution of <see cref="HistogramOverlay"/>: a run's buckets and its p99 (NaN: no marker).</summary>
    public sealed record Distribution(string Name, IReadOnlyList<(double LowerMs, double UpperMs, long Count)> Buckets, double P99Ms = double.NaN);

    /// <summary>
    /// Several latency histograms on one pair of axes: quarter-octave bins on a log axis, each
    /// distribution a step line of its share of I/Os in its own colour (so shapes compare even when the
    /// runs did different numbers of I/Os), with a dashed line at its p99.
    /// </summary>
    public static string HistogramOverlay(string title, IReadOnlyList<Distribution> distributions, int width = 1000, int height = 240)
    {
        const int left = 64, right = 150, top = 24, bottom = 34;
        int plotW = width - left - right, plotH = height - top - bottom;
        var sb = new StringBuilder();
        sb.Append($"<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-label=\"{E(title)}\">");
        sb.Append($"<text x=\"{left}\" y=\"15\" class=\"ct\">{E(title)}</text>");
        var binned = distributions.Select(d => (d, Bins: QuarterOctaves(d.Buckets), Total: d.Buckets.Sum(b => b.Count))).ToList();
        var present = binned.Where(b => b.Total > 0).ToList();
        if (present.Count == 0)
        {
            sb.Append($"<text x=\"{left}\" y=\"{top + 20}\" class=\"ax\">no I/O recorded</text></svg>");
            return sb.ToString();
        }
        int first = present.Min(b => b.Bins.Keys.First()), last = present.Max(b => b.Bins.Keys.Last());
        int n = last - first + 1;
        double maxShare = present.Max(b => b.Bins.Values.Max() / (double)b.Total);
        double yMax = NiceCeiling(maxShare * 100);
        ShareGrid(sb, left, top, plotW, plotH, yMax);
        double bw = plotW / (double)n;
        OctaveLabels(sb, left, height, first, last, bw);
        for (int s = 0; s < binned.Count; s++)
        {
            var (d, bins, total) = binned[s];
            string color = Palette[s % Palette.Length];
            int ly = top + 10 + s * 16;
            sb.Append($"<rect x=\"{left + plotW + 10}\" y=\"{ly - 8}\" width=\"12\" height=\"3\" fill=\"{color}\"/>");
            sb.Append($"<text x=\"{left + plotW + 26}\" y=\"{ly}\" class=\"ax\">{E(d.Name)}</text>");
            if (total == 0) continue;
            // A step outline over every bin of the common range (empty bins at zero), so lines do not cross-hatch.
            sb.Append($"<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"1.5\" points=\"");
            double baseY = top + plotH;
            sb.Append(F(left)).Append(',').Append(F(baseY));
            for (int bin = first; bin <= last; bin++)
            {
                double share = bins.GetValueOrDefault(bin) * 100.0 / total;
                double y = baseY - Math.Clamp(share / yMax, 0, 1) * plotH;
                double x0 = left + (bin - first) * bw, x1 = x0 + bw;
                sb.Append(' ').Append(F(x0)).Append(',').Append(F(y)).Append(' ').Append(F(x1)).Append(',').Append(F(y));
            }
            sb.Append(' ').Append(F(left + plotW)).Append(',').Append(F(baseY)).Append("\">");
            sb.Append($"<title>{E(d.Name)}: {total} I/Os</title></polyline>");
            if (d.P99Ms > 0)
            {
                double pos = (4 * Math.Log2(d.P99Ms) - first) * bw;
                double x = left + Math.Clamp(pos, 0, plotW);
                sb.Append($"<line x1=\"{F(x)}\" y1=\"{top}\" x2=\"{F(x)}\" y2=\"{top + plotH}\" stroke=\"{color}\" stroke-dasharray=\"4 3\"><title>{E(d.Name)} p99: {E(JetFormat.Number(d.P99Ms))} ms</title></line>");
            }
        }
        sb.Append($"<rect x=\"{left}\" y=\"{top}\" width=\"{plotW}\" height=\"{plotH}\" class=\"frame\"/>");
        sb.Append($"<text x=\"{left + plotW}\" y=\"{height - 2}\" class=\"ax\" text-anchor=\"end\">latency (ms, log scale); dashed: p99 of each run</text>");
        sb.Append("</svg>");
        return sb.ToString();
    }

    /// <summary>Averages consecutive points so a line has at most <see cref="MaxPoints"/> vertices.</summary>
    public static IReadOnlyList<(double X, double Y)> Reduce(IReadOnlyList<(double X, double Y)> points)
    {
        if (points.Count <= MaxPoints) return points;
        var result = new List<(double, double)>(MaxPoints);
        for (int b = 0; b < MaxPoints; b++)
        {
            int start = (int)((long)b * points.Count / MaxPoints), end = (int)((long)(b + 1) * points.Count / MaxPoints);
            double sx = 0, sy = 0;
            for (int i = start; i < end; i++) { sx += points[i].X; sy += points[i].Y; }
            int n = end - start;
            if (n > 0) result.Add((sx / n, sy / n));
        }
        return result;
    }

    /// <summary>1, 2, 2.5, 5 x 10^k at or above the value, so axes get round labels.</summary>
    public static double NiceCeiling(double v)
    {
        if (!(v > 0) || double.IsInfinity(v)) return 1;
        double exp = Math.Pow(10, Math.Floor(Math.Log10(v)));
        foreach (double m in new[] { 1, 2, 2.5, 5, 10 })
            if (m * exp >= v * 0.999999) return m * exp;
        return 10 * exp;
    }

    private static string Short(double v)
    {
        if (v == 0) return "0";
        double a = Math.Abs(v);
        string s = a >= 100 ? JetFormat.Number(v, 0) : a >= 10 ? JetFormat.Number(v, 1) : a >= 1 ? JetFormat.Number(v, 2) : JetFormat.Number(v, 3);
        return s.Contains('.') ? s.TrimEnd('0').TrimEnd('.') : s;
    }

    /// <summary>"h:mm" for long runs, "m:ss" for runs under ten minutes.</summary>
    private static string Elapsed(double seconds, bool shortRun)
    {
        long s = (long)Math.Round(Math.Max(0, seconds));
        return shortRun
            ? string.Create(JetFormat.Culture, $"{s / 60}:{s % 60:00}")
            : string.Create(JetFormat.Culture, $"{s / 3600}:{s / 60 % 60:00}");
    }

    private static string F(double v) => JetFormat.Number(v, 1);
}
