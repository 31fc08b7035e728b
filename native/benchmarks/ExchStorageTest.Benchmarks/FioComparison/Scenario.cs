namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>One access pattern run by both tools: same file, same block size, mix and queue depth.</summary>
public sealed record Scenario(string Name, int BlockSize, int ReadPercent, bool Sequential, int QueueDepth)
{
    /// <summary>The fio rw= value for this pattern.</summary>
    public string FioRw => (Sequential, ReadPercent) switch
    {
        (true, 100) => "read",
        (true, 0) => "write",
        (false, 100) => "randread",
        (false, 0) => "randwrite",
        (false, _) => "randrw",
        _ => throw new NotSupportedException("Mixed sequential patterns are not compared."),
    };

    /// <summary>The scenarios the engine issue asks for.</summary>
    public static IReadOnlyList<Scenario> Standard { get; } = new[]
    {
        new Scenario("32 KiB random 64% read, QD16", 32 * 1024, 64, false, 16),
        new Scenario("32 KiB random 64% read, QD1", 32 * 1024, 64, false, 1),
        new Scenario("256 KiB sequential read, QD4", 256 * 1024, 100, true, 4),
        new Scenario("1 MiB sequential write, QD8", 1024 * 1024, 0, true, 8),
    };
}

/// <summary>What one tool measured for one scenario.</summary>
public sealed record Measurement(double Iops, double MeanLatencyUs, double P99LatencyUs, double CpuUsPerIo);
