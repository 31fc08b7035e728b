namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// Latency thresholds per instance (SPEC section 4): the presets, Strict by default and Lenient for Stress, and
/// the limits a request overrides on top of its test type's preset (<see cref="With"/>). The module sends only
/// the overrides a user gave, so the presets live here alone.
/// </summary>
public sealed class Thresholds
{
    public string Name { get; set; } = "Strict";
    public double AverageDatabaseReadLatencyMs { get; set; } = 20;
    public double MaximumDatabaseReadLatencyMs { get; set; } = 100;
    public double AverageLogWriteLatencyMs { get; set; } = 10;
    public double MaximumLogWriteLatencyMs { get; set; } = 100;
    public double MaximumPageFaultStallsPerSecond { get; set; } = 1;

    public static Thresholds Strict() => new();

    public static Thresholds Lenient() => new()
    {
        Name = "Lenient",
        MaximumDatabaseReadLatencyMs = 200,
        MaximumLogWriteLatencyMs = 200,
    };

    /// <summary>The test type's preset (<see cref="TestTypeTraits.ThresholdsPreset"/>).</summary>
    public static Thresholds For(TestType type) => TestTypes.Of(type).ThresholdsPreset == ThresholdPresets.Lenient ? Lenient() : Strict();

    /// <summary>
    /// This preset with <paramref name="overrides"/> applied: a partial override keeps the other limits of the
    /// test type's preset (a Stress run stays Lenient where it is not told otherwise). Named "Custom" unless the
    /// overrides name themselves.
    /// </summary>
    public Thresholds With(ThresholdOverrides? overrides)
    {
        if (overrides is null) return this;
        var limits = (Thresholds)MemberwiseClone();
        limits.AverageDatabaseReadLatencyMs = overrides.AverageDatabaseReadLatencyMs ?? AverageDatabaseReadLatencyMs;
        limits.MaximumDatabaseReadLatencyMs = overrides.MaximumDatabaseReadLatencyMs ?? MaximumDatabaseReadLatencyMs;
        limits.AverageLogWriteLatencyMs = overrides.AverageLogWriteLatencyMs ?? AverageLogWriteLatencyMs;
        limits.MaximumLogWriteLatencyMs = overrides.MaximumLogWriteLatencyMs ?? MaximumLogWriteLatencyMs;
        limits.MaximumPageFaultStallsPerSecond = overrides.MaximumPageFaultStallsPerSecond ?? MaximumPageFaultStallsPerSecond;
        if (overrides.Limits().Any(l => l.Value is not null)) limits.Name = "Custom";
        if (!string.IsNullOrWhiteSpace(overrides.Name)) limits.Name = overrides.Name!;
        return limits;
    }
}
