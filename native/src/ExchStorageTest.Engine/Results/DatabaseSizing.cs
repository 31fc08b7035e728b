namespace ExchStorageTest.Engine.Results;

public sealed class DatabaseSizing
{
    public double TargetTransactionalIops { get; set; }
    public double AchievedTransactionalIops { get; set; }
    public long InitialDatabaseSizeBytes { get; set; }
    public long FinalDatabaseSizeBytes { get; set; }
    public int DatabaseFileCount { get; set; }
    public long LogFileSizeBytes { get; set; } = 1 << 20;
    public int PageSizeBytes { get; set; } = 32768;
}
