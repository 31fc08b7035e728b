using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// What JetstressCmd /g writes when no switch says otherwise: a Performance test of two hours, as Jetstress's template,
/// with the engine's latency presets and a small mailbox profile that runs as it is (100 mailboxes of 10 MB at 0.5 IOPS,
/// two copies): automation edits MailboxCount, MailboxQuota and MailboxIops for its own (the Azure Stack template does).
/// </summary>
internal static class JetstressDefaults
{
    /// <summary>What JetstressVersionGenerated starts with in a file /g wrote: "ExchStorageTest &lt;version&gt;".</summary>
    public const string GeneratorName = "ExchStorageTest";

    public static JetstressConfigDraft Draft(string version) => new()
    {
        Generator = $"{GeneratorName} {version}",
        Type = nameof(TestType.Performance),
        DurationSeconds = RunDefaults.DurationSeconds(TestType.Performance),
        OutputPath = ".",
        MailboxCount = 100,
        MailboxQuota = 10,
        MailboxIops = 0.5,
        DatabaseCopyCount = 2,
        Strict = Set(Thresholds.Strict()),
        Lenient = Set(Thresholds.Lenient()),
    };

    private static JetstressThresholdSet Set(Thresholds t) =>
        new(t.AverageDatabaseReadLatencyMs, t.MaximumDatabaseReadLatencyMs, t.AverageLogWriteLatencyMs, t.MaximumLogWriteLatencyMs);
}
