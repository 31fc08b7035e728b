namespace ExchStorageTest.Engine.Results;

/// <summary>One stream of one instance over one sample interval.</summary>
public sealed class SamplePoint
{
    public DateTime TimeUtc { get; set; }
    public double ElapsedSeconds { get; set; }
    public int Instance { get; set; }
    public string Stream { get; set; } = "";
    public double OperationsPerSecond { get; set; }
    public double AverageBytes { get; set; }
    public double AverageLatencyMs { get; set; }
    public double P99LatencyMs { get; set; }
    public double MaxLatencyMs { get; set; }
}
