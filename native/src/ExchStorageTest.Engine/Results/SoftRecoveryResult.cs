namespace ExchStorageTest.Engine.Results;

public sealed class SoftRecoveryResult
{
    public List<RecoveryInstance> Instances { get; set; } = new();
    public int LogsReplayedTotal { get; set; }
    public double ElapsedSecondsTotal { get; set; }
    public double SecondsPerLog { get; set; }
}
