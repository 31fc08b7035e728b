using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Each instance's database read latency per sample interval and its slope: the least-squares
/// slope over the last <see cref="Window"/> samples, in ms per sample (Jetstress's settling test).
/// </summary>
internal sealed class ReadLatencySlopes
{
    public const int Window = 5;
    private const int MinimumSamples = 3;
    private readonly LoadPhase _phase;
    private readonly int[] _instances;
    private readonly List<double>[] _series;

    public ReadLatencySlopes(LoadPhase phase, int[] instances)
    {
        _phase = phase;
        _instances = instances;
        _series = instances.Select(_ => new List<double>()).ToArray();
    }

    public int Samples { get; private set; }

    /// <summary>Every instance has at least three samples and a slope within <see cref="Tuner.SettledSlopeMsPerSample"/>.</summary>
    public bool Settled => Samples >= MinimumSamples && SteepestSlope <= Tuner.SettledSlopeMsPerSample;

    /// <summary>The steepest per-instance slope (absolute, ms per sample).</summary>
    public double SteepestSlope => _instances.Length == 0 ? 0 : _instances.Max(i => Math.Abs(SlopeOf(i)));

    /// <summary>Mean of the instances' last sampled read latencies.</summary>
    public double LastMean => _series.Where(s => s.Count > 0).Select(s => s[^1]).DefaultIfEmpty(0).Average();

    public void Add(IReadOnlyList<IntervalSample> samples)
    {
        var sum = new double[_instances.Length];
        var ops = new long[_instances.Length];
        foreach (var s in samples)
        {
            if (s.Operations == 0) continue;
            var key = _phase.Driver.Keys[s.StreamId];
            if (key.Stream != StreamNames.DatabaseRead) continue;
            int i = Array.IndexOf(_instances, key.Instance);
            if (i < 0) continue;
            sum[i] += s.AverageLatencyMs * s.Operations;
            ops[i] += s.Operations;
        }
        for (int i = 0; i < _instances.Length; i++)
        {
            // An interval without reads repeats the last value: no information, no slope.
            if (ops[i] > 0) _series[i].Add(sum[i] / ops[i]);
            else if (_series[i].Count > 0) _series[i].Add(_series[i][^1]);
        }
        Samples++;
    }

    public double SlopeOf(int instance)
    {
        int i = Array.IndexOf(_instances, instance);
        return i < 0 ? 0 : Slope(_series[i]);
    }

    internal static double Slope(IReadOnlyList<double> series)
    {
        int n = Math.Min(Window, series.Count);
        if (n < 2) return 0;
        int first = series.Count - n;
        double meanX = (n - 1) / 2.0, meanY = 0;
        for (int k = 0; k < n; k++) meanY += series[first + k];
        meanY /= n;
        double num = 0, den = 0;
        for (int k = 0; k < n; k++)
        {
            num += (k - meanX) * (series[first + k] - meanY);
            den += (k - meanX) * (k - meanX);
        }
        return num / den;
    }
}

/// <summary>The judged figures of a tuning step's stable phase, per instance and in all.</summary>
internal sealed class StepFigures
{
    public sealed record Instance(int Index, double ReadLatencyMs, double ReadMaxSampleMs, double LogWriteLatencyMs, double LogWriteMaxSampleMs, double LogReadLatencyMs);

    public List<Instance> Instances { get; } = new();
    /// <summary>Transactional IOPS: database reads + writes per second, all instances.</summary>
    public double Achieved { get; private set; }
    public double ReadLatencyMs { get; private set; }
    public double LogWriteLatencyMs { get; private set; }
    public double LogReadLatencyMs { get; private set; }
    public double ReadsPerWrite { get; private set; }
    public double TransfersPerLogWrite { get; private set; }

    public static StepFigures Of(LoadPhase phase, IReadOnlyList<InstanceWorkload> workloads)
    {
        var f = new StepFigures();
        var results = phase.StreamResults();
        double reads = 0, writes = 0, logWrites = 0;
        var all = new Dictionary<string, (double Sum, long Ops)>();
        foreach (var w in workloads)
        {
            StreamResult? Get(string name) => results.Find(x => x.Instance == w && x.Result.Stream == name).Result;
            var read = Get(StreamNames.DatabaseRead);
            var write = Get(StreamNames.DatabaseWrite);
            var log = Get(StreamNames.LogWrite);
            var logReads = new[] { Get(StreamNames.LogRead), Get(StreamNames.LogReplicationRead) }.Where(x => x is { Operations: > 0 }).ToList();
            long logReadOps = logReads.Sum(x => x!.Operations);
            double logRead = logReadOps > 0 ? logReads.Sum(x => x!.LatencyMs.Mean * x.Operations) / logReadOps : 0;
            f.Instances.Add(new Instance(w.Index, read?.LatencyMs.Mean ?? 0, read?.MaxSampleAverageLatencyMs ?? 0,
                log?.LatencyMs.Mean ?? 0, log?.MaxSampleAverageLatencyMs ?? 0, logRead));
            reads += read?.OperationsPerSecond ?? 0;
            writes += write?.OperationsPerSecond ?? 0;
            logWrites += log?.OperationsPerSecond ?? 0;
            Accumulate(all, "read", read);
            Accumulate(all, "log", log);
            foreach (var x in logReads) Accumulate(all, "logread", x);
        }
        f.Achieved = reads + writes;
        f.ReadsPerWrite = writes > 0 ? reads / writes : 0;
        f.TransfersPerLogWrite = logWrites > 0 ? (reads + writes) / logWrites : 0;
        f.ReadLatencyMs = Mean(all, "read");
        f.LogWriteLatencyMs = Mean(all, "log");
        f.LogReadLatencyMs = Mean(all, "logread");
        return f;
    }

    private static void Accumulate(Dictionary<string, (double Sum, long Ops)> all, string key, StreamResult? s)
    {
        if (s is null || s.Operations == 0) return;
        all.TryGetValue(key, out var v);
        all[key] = (v.Sum + s.LatencyMs.Mean * s.Operations, v.Ops + s.Operations);
    }

    private static double Mean(Dictionary<string, (double Sum, long Ops)> all, string key) =>
        all.TryGetValue(key, out var v) && v.Ops > 0 ? v.Sum / v.Ops : 0;
}
