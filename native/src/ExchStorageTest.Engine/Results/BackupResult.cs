namespace ExchStorageTest.Engine.Results;

public sealed class BackupResult
{
    public List<BackupInstance> Instances { get; set; } = new();
    public double AverageMBPerSecond { get; set; }
    public double TotalMBPerSecond { get; set; }
}
