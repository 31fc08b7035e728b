namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// One row of a Jetstress per-instance I/O table (Transactional or Total): the 12 columns of
/// SPEC section 5, in the order Jetstress prints them. Latencies in ms, rates per second, sizes in bytes.
/// </summary>
public sealed record IoCounterRow(
    string Instance,
    double DatabaseReadsAverageLatencyMs,
    double DatabaseWritesAverageLatencyMs,
    double DatabaseReadsPerSecond,
    double DatabaseWritesPerSecond,
    double DatabaseReadsAverageBytes,
    double DatabaseWritesAverageBytes,
    double LogReadsAverageLatencyMs,
    double LogWritesAverageLatencyMs,
    double LogReadsPerSecond,
    double LogWritesPerSecond,
    double LogReadsAverageBytes,
    double LogWritesAverageBytes)
{
    /// <summary>Column headings exactly as Jetstress prints them (first column excluded).</summary>
    public static readonly IReadOnlyList<string> ColumnNames = new[]
    {
        "I/O Database Reads Average Latency (msec)",
        "I/O Database Writes Average Latency (msec)",
        "I/O Database Reads/sec",
        "I/O Database Writes/sec",
        "I/O Database Reads Average Bytes",
        "I/O Database Writes Average Bytes",
        "I/O Log Reads Average Latency (msec)",
        "I/O Log Writes Average Latency (msec)",
        "I/O Log Reads/sec",
        "I/O Log Writes/sec",
        "I/O Log Reads Average Bytes",
        "I/O Log Writes Average Bytes",
    };

    /// <summary>Counter names without the unit suffix, as PerfMon and the Jetstress XML name them.</summary>
    public static readonly IReadOnlyList<string> CounterNames = ColumnNames.Select(c => c.Replace(" (msec)", "", StringComparison.Ordinal)).ToArray();

    /// <summary>The title of the first column.</summary>
    public const string ObjectName = "MSExchange Database ==> Instances";

    /// <summary>The 12 values in <see cref="ColumnNames"/> order.</summary>
    public double[] Values() => new[]
    {
        DatabaseReadsAverageLatencyMs, DatabaseWritesAverageLatencyMs, DatabaseReadsPerSecond, DatabaseWritesPerSecond,
        DatabaseReadsAverageBytes, DatabaseWritesAverageBytes, LogReadsAverageLatencyMs, LogWritesAverageLatencyMs,
        LogReadsPerSecond, LogWritesPerSecond, LogReadsAverageBytes, LogWritesAverageBytes,
    };
}

/// <summary>Background database maintenance row: reads/s and average bytes.</summary>
public sealed record MaintenanceRow(string Instance, double ReadsPerSecond, double ReadsAverageBytes)
{
    public static readonly IReadOnlyList<string> ColumnNames = new[] { "Database Maintenance IO Reads/sec", "Database Maintenance IO Reads Average Bytes" };
}

/// <summary>Log replication row: log reads/s and average bytes.</summary>
public sealed record ReplicationRow(string Instance, double LogReadsPerSecond, double LogReadsAverageBytes)
{
    public static readonly IReadOnlyList<string> ColumnNames = new[] { "I/O Log Reads/sec", "I/O Log Reads Average Bytes" };
}
