namespace ExchStorageTest.Engine.Load;

/// <summary>One stream over one sample interval, merged across workers.</summary>
public readonly record struct IntervalSample(
    int StreamId, DateTime TimeUtc, double ElapsedSeconds, double IntervalSeconds,
    long Operations, long Bytes, double AverageLatencyMs, double P99LatencyMs, double MaxLatencyMs)
{
    public double OperationsPerSecond => IntervalSeconds > 0 ? Operations / IntervalSeconds : 0;
    public double AverageBytes => Operations > 0 ? (double)Bytes / Operations : 0;
}
