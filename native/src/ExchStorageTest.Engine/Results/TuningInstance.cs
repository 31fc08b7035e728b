namespace ExchStorageTest.Engine.Results;

/// <summary>One instance's figures in a tuning phase (the Jetstress tuning log's per-instance lines).</summary>
public sealed class TuningInstance
{
    public string Instance { get; set; } = "";
    public double DatabaseReadLatencyMs { get; set; }
    public double LogWriteLatencyMs { get; set; }
    public double LogReadLatencyMs { get; set; }
    public double ReadLatencySlopeMsPerSample { get; set; }
}
