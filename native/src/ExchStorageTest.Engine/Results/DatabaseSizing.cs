namespace ExchStorageTest.Engine.Results;

public sealed class DatabaseSizing
{
    public double TargetTransactionalIops { get; set; }
    public double AchievedTransactionalIops { get; set; }
    public long InitialDatabaseSizeBytes { get; set; }
    public long FinalDatabaseSizeBytes { get; set; }
    public int DatabaseFileCount { get; set; }
    /// <summary>
    /// A Throughput run's share of the free space its databases took (the request's capacityPercent); null for a run
    /// sized by its profile, whose databases hold every mailbox at its quota (reports print that as 100, as Jetstress
    /// does for a profile test).
    /// </summary>
    public double? CapacityPercent { get; set; }
    public long LogFileSizeBytes { get; set; } = 1 << 20;
    public int PageSizeBytes { get; set; } = 32768;
}
