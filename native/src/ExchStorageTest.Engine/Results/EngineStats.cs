namespace ExchStorageTest.Engine.Results;

public sealed class EngineStats
{
    public double ProcessCpuSeconds { get; set; }
    public int WorkerCount { get; set; }
    public double CpuMicrosecondsPerIo { get; set; }
    public long TotalOperations { get; set; }
    /// <summary>Process CPU seconds (all threads, user and kernel) during the measured window of the results' streams.</summary>
    public double MeasuredCpuSeconds { get; set; }
    /// <summary><see cref="MeasuredCpuSeconds"/> over the window's length: how many CPUs the run kept busy while measured.</summary>
    public double MeasuredCoresUsed { get; set; }
    /// <summary><see cref="MeasuredCpuSeconds"/> per transactional database read and write of the window (0 when the run has none).</summary>
    public double CpuMicrosecondsPerTransactionalIo { get; set; }
    /// <summary>The I/O backend's optimisations in the last load phase: used by how many workers, and why not.</summary>
    public List<IoFeatureUse> IoFeatures { get; set; } = new();

    /// <summary>Sets the measured-window figures from the window's CPU, length and transactional I/O count.</summary>
    public void SetMeasured(double cpuSeconds, double windowSeconds, long transactionalOperations)
    {
        MeasuredCpuSeconds = Math.Round(cpuSeconds, 3);
        MeasuredCoresUsed = windowSeconds > 0 ? Math.Round(cpuSeconds / windowSeconds, 3) : 0;
        CpuMicrosecondsPerTransactionalIo = transactionalOperations > 0 ? Math.Round(cpuSeconds * 1e6 / transactionalOperations, 3) : 0;
    }
}
