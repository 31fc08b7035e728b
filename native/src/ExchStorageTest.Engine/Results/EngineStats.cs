namespace ExchStorageTest.Engine.Results;

public sealed class EngineStats
{
    public double ProcessCpuSeconds { get; set; }
    public int WorkerCount { get; set; }
    public double CpuMicrosecondsPerIo { get; set; }
    public long TotalOperations { get; set; }
    /// <summary>The I/O backend's optimisations in the last load phase: used by how many workers, and why not.</summary>
    public List<IoFeatureUse> IoFeatures { get; set; } = new();
}
