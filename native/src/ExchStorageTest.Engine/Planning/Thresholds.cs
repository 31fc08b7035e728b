namespace ExchStorageTest.Engine.Planning;

/// <summary>Latency thresholds per instance (SPEC section 4). Strict by default; Lenient for Stress.</summary>
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

    public static Thresholds For(TestType type) => type == TestType.Stress ? Lenient() : Strict();
}
