namespace ExchStorageTest.Engine.Results;

/// <summary>
/// One phase of one automatic tuning step: Transient (until the per-instance database read latency
/// slope settles) or Stable (the figures the step is judged on).
/// </summary>
public sealed class TuningStep
{
    public DateTime TimeUtc { get; set; }
    public int ThreadCount { get; set; }
    public double? TargetRateIops { get; set; }
    public string Phase { get; set; } = "";
    /// <summary>Sample intervals the phase ran.</summary>
    public int Samples { get; set; }
    public double AchievedIops { get; set; }
    public double DatabaseReadLatencyMs { get; set; }
    public double LogWriteLatencyMs { get; set; }
    public double LogReadLatencyMs { get; set; }
    /// <summary>Steepest per-instance database read latency slope (least squares, ms per sample interval).</summary>
    public double ReadLatencySlopeMsPerSample { get; set; }
    /// <summary>Transactional database reads per database write (Stable).</summary>
    public double ReadsPerWrite { get; set; }
    /// <summary>Transactional database transfers per log write (Stable).</summary>
    public double TransfersPerLogWrite { get; set; }
    public List<TuningInstance> Instances { get; set; } = new();
    public bool Passed { get; set; }
    public string Note { get; set; } = "";
}
