namespace ExchStorageTest.Engine.Results;

/// <summary>Names of the measured streams (SPEC section 3).</summary>
public static class StreamNames
{
    public const string DatabaseRead = "DatabaseRead";
    public const string DatabaseWrite = "DatabaseWrite";
    public const string LogWrite = "LogWrite";
    public const string LogRead = "LogRead";
    public const string MaintenanceRead = "MaintenanceRead";
    public const string LogReplicationRead = "LogReplicationRead";
    public const string BackupRead = "BackupRead";
    // The passive copies beside an instance's database (docs/load-model.md, "Passive copies on a volume"): counted apart
    // from the active database's streams, so the Jetstress-shaped counters of the instance stay those of its active copy.
    /// <summary>The passive copies' replay reads of their database pages.</summary>
    public const string PassiveReplayRead = "PassiveReplayRead";
    /// <summary>The passive copies' replay writes of their database pages.</summary>
    public const string PassiveReplayWrite = "PassiveReplayWrite";
    /// <summary>The passive copies' copied-log writes (1 MiB, one log generation each).</summary>
    public const string PassiveLogWrite = "PassiveLogWrite";
}
