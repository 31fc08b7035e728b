namespace ExchStorageTest.Engine.Results;

public sealed class SoftRecoveryResult
{
    public List<RecoveryInstance> Instances { get; set; } = new();
    public int LogsReplayedTotal { get; set; }
    /// <summary>The instances' replay times added up (database-seconds: the databases replay at once).</summary>
    public double ElapsedSecondsTotal { get; set; }
    /// <summary>How long the replay took: its slowest database's replay (the databases replay at once).</summary>
    public double ReplaySeconds { get; set; }
    public double SecondsPerLog { get; set; }
}
