using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>One compared metric: its value in each run and the change from the first (baseline) run.</summary>
public sealed record ComparisonRow(string Metric, IReadOnlyList<double> Values, IReadOnlyList<double> DeltaAbsolute, IReadOnlyList<double> DeltaPercent);

/// <summary>
/// Several runs side by side (before/after a firmware change, two arrays, two settings). Each run may
/// itself be several hosts: pass each run as its hosts' results and they are merged first.
/// Deltas are against the first run; the percentage is NaN when the baseline is zero.
/// </summary>
public sealed class RunComparison
{
    public required IReadOnlyList<string> Labels { get; init; }
    public required IReadOnlyList<ComparisonRow> Rows { get; init; }

    public static RunComparison Compare(IReadOnlyList<TestResults> runs, IReadOnlyList<string>? labels = null) =>
        Compare(runs.Select(r => (IReadOnlyList<TestResults>)new[] { r }).ToList(), labels);

    public static RunComparison Compare(IReadOnlyList<IReadOnlyList<TestResults>> runs, IReadOnlyList<string>? labels = null)
    {
        if (labels is not null && labels.Count != runs.Count)
            throw new ArgumentException("One label per run is needed.", nameof(labels));
        var merged = runs.Select(ResultsMerge.Merge).ToList();
        var names = labels ?? merged.Select((m, i) =>
            m.Hosts.Count == 0 ? $"Run {i + 1}" : $"{m.Hosts[0].TestType} {JetFormat.Iso(m.TestStartUtc)}").ToList();

        var metrics = new List<(string Name, Func<MergedResults, double> Value)>
        {
            ("Target Transactional I/O per Second", m => m.TargetTransactionalIops),
            ("Achieved Transactional I/O per Second", m => m.AchievedTransactionalIops),
        };
        var streams = merged.SelectMany(m => m.Streams.Select(s => s.Stream)).Distinct()
            .OrderBy(ResultsMerge.StreamRank).ToList();
        foreach (var stream in streams)
        {
            metrics.Add(($"{stream} operations/sec", m => m.Stream(stream)?.OperationsPerSecond ?? 0));
            metrics.Add(($"{stream} average bytes", m => m.Stream(stream)?.AverageBytes ?? 0));
            metrics.Add(($"{stream} mean latency (ms)", m => m.Stream(stream)?.LatencyMs.Mean ?? 0));
            metrics.Add(($"{stream} p50 latency (ms)", m => m.Stream(stream)?.LatencyMs.P50 ?? 0));
            metrics.Add(($"{stream} p90 latency (ms)", m => m.Stream(stream)?.LatencyMs.P90 ?? 0));
            metrics.Add(($"{stream} p99 latency (ms)", m => m.Stream(stream)?.LatencyMs.P99 ?? 0));
            metrics.Add(($"{stream} p99.9 latency (ms)", m => m.Stream(stream)?.LatencyMs.P999 ?? 0));
            metrics.Add(($"{stream} max latency (ms)", m => m.Stream(stream)?.LatencyMs.Max ?? 0));
        }

        var rows = metrics.Select(metric =>
        {
            var values = merged.Select(metric.Value).ToList();
            double baseline = values.Count > 0 ? values[0] : 0;
            return new ComparisonRow(metric.Name, values,
                values.Select(v => v - baseline).ToList(),
                values.Select(v => baseline == 0 ? double.NaN : (v - baseline) / baseline * 100).ToList());
        }).ToList();
        return new RunComparison { Labels = names, Rows = rows };
    }

    /// <summary>Tab-separated text: metric, then per run value (and, after the first, delta and delta %).</summary>
    public string RenderText()
    {
        var sb = new StringBuilder();
        sb.Append("Metric");
        for (int i = 0; i < Labels.Count; i++)
        {
            sb.Append('\t').Append(Labels[i]);
            if (i > 0) sb.Append("\tdelta\tdelta %");
        }
        sb.Append('\n');
        foreach (var row in Rows)
        {
            sb.Append(row.Metric);
            for (int i = 0; i < row.Values.Count; i++)
            {
                sb.Append('\t').Append(JetFormat.Number(row.Values[i]));
                if (i > 0)
                    sb.Append('\t').Append(Signed(row.DeltaAbsolute[i], 3)).Append('\t').Append(Signed(row.DeltaPercent[i], 1));
            }
            sb.Append('\n');
        }
        return sb.ToString();
    }

    private static string Signed(double v, int decimals) =>
        double.IsNaN(v) ? "n/a" : (v > 0 ? "+" : "") + JetFormat.Number(v, decimals);
}
