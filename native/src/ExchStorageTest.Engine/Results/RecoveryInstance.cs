namespace ExchStorageTest.Engine.Results;

public sealed class RecoveryInstance
{
    public string Instance { get; set; } = "";
    public int LogsReplayed { get; set; }
    public double ElapsedSeconds { get; set; }
    public long PagesReplayed { get; set; }
    public double SecondsPerLog { get; set; }
}
