namespace ExchStorageTest.Engine.Results;

public sealed class BackupResult
{
    public List<BackupInstance> Instances { get; set; } = new();
    public double AverageMBPerSecond { get; set; }
    public double TotalMBPerSecond { get; set; }
    /// <summary>How long the backup read took: its slowest database's read (the databases are read at once).</summary>
    public double ElapsedSeconds { get; set; }
}
