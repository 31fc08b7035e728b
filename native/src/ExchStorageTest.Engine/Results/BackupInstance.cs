namespace ExchStorageTest.Engine.Results;

public sealed class BackupInstance
{
    public string Instance { get; set; } = "";
    public double DatabaseSizeMB { get; set; }
    public double ElapsedSeconds { get; set; }
    public double MBPerSecond { get; set; }
}
