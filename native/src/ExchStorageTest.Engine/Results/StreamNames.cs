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
}
