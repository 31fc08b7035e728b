using BenchmarkDotNet.Attributes;
using ExchStorageTest.Engine.Metrics;

namespace ExchStorageTest.Benchmarks;

/// <summary>The per-I/O cost of recording a latency, and the per-interval cost of merging.</summary>
[MemoryDiagnoser]
public class LatencyHistogramBenchmarks
{
    private const int Values = 4096;
    private readonly long[] _latencies = new long[Values];
    private readonly LatencyHistogram _histogram = new();
    private readonly LatencyHistogram _other = new();
    private readonly LatencyHistogram _merged = new();

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(42);
        // Storage-like spread: 50 µs .. 50 ms, log-uniform.
        for (int i = 0; i < Values; i++) _latencies[i] = (long)Math.Exp(rng.NextDouble() * Math.Log(1000) + Math.Log(50_000));
        foreach (long v in _latencies) _other.Record(v);
    }

    [Benchmark(OperationsPerInvoke = Values)]
    public void Record()
    {
        long[] values = _latencies;
        LatencyHistogram h = _histogram;
        for (int i = 0; i < values.Length; i++) h.Record(values[i]);
    }

    /// <summary>Merging one worker's histogram into a total (4,736 buckets).</summary>
    [Benchmark]
    public void Add() => _merged.Add(_other);
}
