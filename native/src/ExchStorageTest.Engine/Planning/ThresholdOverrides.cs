namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// A request's <c>thresholds</c>: the limits a user overrides (any of them, each optional) and optionally a name.
/// The plan applies them to the test type's preset (<see cref="Thresholds.With"/>).
/// </summary>
public sealed class ThresholdOverrides
{
    public string? Name { get; set; }
    public double? AverageDatabaseReadLatencyMs { get; set; }
    public double? MaximumDatabaseReadLatencyMs { get; set; }
    public double? AverageLogWriteLatencyMs { get; set; }
    public double? MaximumLogWriteLatencyMs { get; set; }
    public double? MaximumPageFaultStallsPerSecond { get; set; }

    /// <summary>The limits given, by their field names (<see cref="ThresholdFields.Limits"/>).</summary>
    public IEnumerable<(string Field, double? Value)> Limits()
    {
        yield return (ThresholdFields.AverageDatabaseReadLatencyMs, AverageDatabaseReadLatencyMs);
        yield return (ThresholdFields.MaximumDatabaseReadLatencyMs, MaximumDatabaseReadLatencyMs);
        yield return (ThresholdFields.AverageLogWriteLatencyMs, AverageLogWriteLatencyMs);
        yield return (ThresholdFields.MaximumLogWriteLatencyMs, MaximumLogWriteLatencyMs);
        yield return (ThresholdFields.MaximumPageFaultStallsPerSecond, MaximumPageFaultStallsPerSecond);
    }
}
