using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>Who is measured: our engine (and, on request, its unregistered plain path), fio's defaults, fio with registration.</summary>
public enum Side { Ours, OursPlain, Fio, FioFixed }

/// <summary>Every run of one scenario, per side, in the order they ran.</summary>
public sealed record ScenarioRuns(Scenario Scenario, string Backend, IReadOnlyDictionary<Side, List<Measurement>> Runs)
{
    public double Median(Side side, Func<Measurement, double> f) => Stats.Median(Runs[side].Select(f));

    /// <summary>The median of the pairwise ratios (run i of <paramref name="a"/> against run i of <paramref name="b"/>) and their range.</summary>
    public (double Median, double Min, double Max) Ratio(Side a, Side b, Func<Measurement, double> f)
    {
        var ratios = Runs[a].Zip(Runs[b], (x, y) => f(y) > 0 ? f(x) / f(y) : double.NaN).Where(r => !double.IsNaN(r)).ToList();
        return ratios.Count == 0 ? (double.NaN, double.NaN, double.NaN) : (Stats.Median(ratios), ratios.Min(), ratios.Max());
    }
}

/// <summary>
/// Our engine against fio on one file, scenario by scenario: fio as admins run it (its defaults:
/// io_uring, or psync at QD1) and fio with --fixedbufs --registerfiles (registration, as our engine
/// does: the like-for-like). Each scenario runs <c>repeats</c> times per side, the sides in a rotating
/// order (a cloud disk's burst credit or a host cache favours whoever goes first).
/// </summary>
public static class ScenarioComparison
{
    public static IReadOnlyList<ScenarioRuns> Run(string file, IEnumerable<Scenario> scenarios, double seconds, int repeats, bool pin, bool plain)
    {
        int cpu = pin ? EngineRunner.PinnedCpu() : -1;
        var sides = new List<Side> { Side.Ours, Side.Fio, Side.FioFixed };
        if (plain) sides.Insert(1, Side.OursPlain);
        var all = new List<ScenarioRuns>();
        foreach (var s in scenarios)
        {
            var runs = sides.ToDictionary(x => x, _ => new List<Measurement>());
            string backend = "";
            for (int i = 0; i < repeats; i++)
            {
                for (int k = 0; k < sides.Count; k++)
                {
                    var side = sides[(i + k) % sides.Count];
                    switch (side)
                    {
                        case Side.Ours:
                            var (m, b) = EngineRunner.Run(file, s, seconds, pin);
                            runs[side].Add(m);
                            backend = b;
                            break;
                        case Side.OursPlain: runs[side].Add(EngineRunner.Run(file, s, seconds, pin, plain: true).Result); break;
                        case Side.Fio: runs[side].Add(FioRunner.Run(file, s, seconds, cpu)); break;
                        case Side.FioFixed: runs[side].Add(FioRunner.Run(file, s, seconds, cpu, registered: true)); break;
                    }
                }
            }
            all.Add(new ScenarioRuns(s, backend, runs));
            Console.Error.WriteLine($"done: {s.Name}");
        }
        return all;
    }

    /// <summary>Scenarios whose name has <paramref name="only"/> as a whole word or phrase ("QD1" is not "QD16"); all when null.</summary>
    public static IEnumerable<Scenario> Select(string? only) =>
        Scenario.Standard.Where(x => only is null || Regex.IsMatch(x.Name, $@"\b{Regex.Escape(only)}\b", RegexOptions.IgnoreCase));

    /// <summary>Two markdown tables: throughput and latency, then CPU per I/O (with the unregistered path when measured).</summary>
    public static string Table(IReadOnlyList<ScenarioRuns> rows)
    {
        var t = new StringBuilder();
        t.AppendLine("| scenario | backend | IOPS ours | IOPS fio | IOPS fio fixed | IOPS ours/fio | IOPS ours/fio fixed | mean µs ours | mean µs fio | mean µs fio fixed | p99 µs ours | p99 µs fio | p99 µs fio fixed |");
        t.AppendLine("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        foreach (var r in rows)
        {
            t.AppendLine(Invariant($"| {r.Scenario.Name} | {r.Backend} | {r.Median(Side.Ours, m => m.Iops):F0} | {r.Median(Side.Fio, m => m.Iops):F0} | {r.Median(Side.FioFixed, m => m.Iops):F0} | {Cell(r.Ratio(Side.Ours, Side.Fio, m => m.Iops))} | {Cell(r.Ratio(Side.Ours, Side.FioFixed, m => m.Iops))} | ")
                + Invariant($"{r.Median(Side.Ours, m => m.MeanLatencyUs):F1} | {r.Median(Side.Fio, m => m.MeanLatencyUs):F1} | {r.Median(Side.FioFixed, m => m.MeanLatencyUs):F1} | {r.Median(Side.Ours, m => m.P99LatencyUs):F1} | {r.Median(Side.Fio, m => m.P99LatencyUs):F1} | {r.Median(Side.FioFixed, m => m.P99LatencyUs):F1} |"));
        }
        bool plain = rows.Any(r => r.Runs.ContainsKey(Side.OursPlain));
        t.AppendLine();
        t.AppendLine(plain
            ? "| scenario | CPU µs/IO ours | CPU µs/IO ours unregistered | CPU µs/IO fio | CPU µs/IO fio fixed | CPU ours/fio | CPU ours/fio fixed | CPU ours/ours unregistered | IOPS ours unregistered |"
            : "| scenario | CPU µs/IO ours | CPU µs/IO fio | CPU µs/IO fio fixed | CPU ours/fio | CPU ours/fio fixed |");
        t.AppendLine(plain ? "|---|---:|---:|---:|---:|---:|---:|---:|---:|" : "|---|---:|---:|---:|---:|---:|");
        foreach (var r in rows)
        {
            string ours = Invariant($"{r.Median(Side.Ours, m => m.CpuUsPerIo):F2}");
            string fio = Invariant($"{r.Median(Side.Fio, m => m.CpuUsPerIo):F2} | {r.Median(Side.FioFixed, m => m.CpuUsPerIo):F2} | {Cell(r.Ratio(Side.Ours, Side.Fio, m => m.CpuUsPerIo))} | {Cell(r.Ratio(Side.Ours, Side.FioFixed, m => m.CpuUsPerIo))}");
            t.AppendLine(plain
                ? Invariant($"| {r.Scenario.Name} | {ours} | {r.Median(Side.OursPlain, m => m.CpuUsPerIo):F2} | {fio} | {Cell(r.Ratio(Side.Ours, Side.OursPlain, m => m.CpuUsPerIo))} | {r.Median(Side.OursPlain, m => m.Iops):F0} |")
                : $"| {r.Scenario.Name} | {ours} | {fio} |");
        }
        return t.ToString();
    }

    public static string Cell((double Median, double Min, double Max) r) =>
        double.IsNaN(r.Median) ? "n/a" : Invariant($"{r.Median:F3} ({r.Min:F2}–{r.Max:F2})");

    private static string Invariant(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}

/// <summary>Medians for the tables.</summary>
public static class Stats
{
    public static double Median(IEnumerable<double> values)
    {
        var v = values.OrderBy(x => x).ToArray();
        return v.Length == 0 ? 0 : v.Length % 2 == 1 ? v[v.Length / 2] : (v[v.Length / 2 - 1] + v[v.Length / 2]) / 2;
    }
}
