using System.Globalization;
using System.Text;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// The goals of the registered-I/O issue as thresholds on ratios against fio measured in the same run
/// on the RAM-backed device (machine speed cancels out; docs/benchmarks.md). A regression of any of them
/// fails `bench` (exit 1). Each figure is the median of pairwise ratios; a noisy machine can fail it,
/// which is why the load is printed beside it.
/// </summary>
public static class RegressionCheck
{
    /// <summary>One check: <paramref name="Measured"/> against <paramref name="Bound"/> (an upper bound when <paramref name="AtMost"/>).</summary>
    /// <param name="What">The figure, as the table names it.</param>
    /// <param name="Measured">The median of the pairwise ratios (NaN: not measured, which misses).</param>
    /// <param name="Bound">The goal.</param>
    /// <param name="AtMost">True when the figure must stay at or below the goal.</param>
    /// <param name="NotApplicable">Why the rig cannot show this goal (it is then printed, not judged), or null.</param>
    public sealed record Limit(string What, double Measured, double Bound, bool AtMost, string? NotApplicable = null)
    {
        public bool Reached => !double.IsNaN(Measured) && (AtMost ? Measured <= Bound : Measured >= Bound);
        /// <summary>Reached, or not judged because the rig cannot show it.</summary>
        public bool Met => Reached || NotApplicable is not null;
    }

    /// <summary>The thresholds that apply to what was measured (a scenario or part not run is left out).</summary>
    public static List<Limit> Evaluate(IReadOnlyList<ScenarioRuns> ram, CreationComparison.Runs? creation, CreationComparison.ParallelRuns? parallel)
    {
        var limits = new List<Limit>();
        if (ram.FirstOrDefault(r => r.Scenario.QueueDepth == 16) is { } qd16)
        {
            limits.Add(new("QD16 CPU per I/O, ours/fio default", qd16.Ratio(Side.Ours, Side.Fio, m => m.CpuUsPerIo).Median, 0.85, true));
            limits.Add(new("QD16 CPU per I/O, ours/fio fixedbufs+registerfiles", qd16.Ratio(Side.Ours, Side.FioFixed, m => m.CpuUsPerIo).Median, 1.0, true));
            limits.Add(new("QD16 IOPS, ours/fio default", qd16.Ratio(Side.Ours, Side.Fio, m => m.Iops).Median, 1.0, false));
            limits.Add(new("QD16 IOPS, ours/fio fixedbufs+registerfiles", qd16.Ratio(Side.Ours, Side.FioFixed, m => m.Iops).Median, 1.0, false));
        }
        if (ram.FirstOrDefault(r => r.Scenario.QueueDepth == 1) is { } qd1)
        {
            // "Not worse than before": the figures of the previous round (docs/benchmarks.md, pinned: IOPS 0.94, CPU 1.08) less their noise.
            limits.Add(new("QD1 IOPS, ours/fio psync", qd1.Ratio(Side.Ours, Side.Fio, m => m.Iops).Median, 0.90, false));
            limits.Add(new("QD1 CPU per I/O, ours/fio psync", qd1.Ratio(Side.Ours, Side.Fio, m => m.CpuUsPerIo).Median, 1.12, true));
        }
        if (creation is not null)
            limits.Add(new("creation MiB/s, one database/fio 1 MiB seq write QD8", CreationComparison.Ratio(creation.OursMiBps, creation.FioMiBps).Median, 0.9, false));
        if (parallel is not null)
            limits.Add(new("wall time, two databases on two devices/one database", Stats.Median(parallel.TwoSeconds) / Stats.Median(parallel.OneSeconds), 1.2, true));
        return limits;
    }

    public static string Table(IReadOnlyList<Limit> limits)
    {
        var t = new StringBuilder("| check (RAM-backed device) | measured | limit | |\n|---|---:|---:|---|\n");
        foreach (var l in limits)
            t.AppendLine(string.Create(CultureInfo.InvariantCulture, $"| {l.What} | {l.Measured:F3} | {(l.AtMost ? "≤" : "≥")} {l.Bound:F2} | {(l.Reached ? "met" : l.NotApplicable is { } why ? $"not reached; not judged: {why}" : "**MISSED**")} |"));
        return t.ToString();
    }
}
