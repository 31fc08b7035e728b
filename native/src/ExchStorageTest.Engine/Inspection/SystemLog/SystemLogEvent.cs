namespace ExchStorageTest.Engine.Inspection.SystemLog;

/// <summary>
/// One system-log entry from the test window. Level uses Windows names (Critical, Error, Warning,
/// Information, Verbose); kernel priorities are mapped (0-2 Critical, 3 Error, 4 Warning, 5-6 Information, 7 Verbose).
/// </summary>
public sealed record SystemLogEvent(
    DateTime TimeUtc,
    string Provider,
    int? EventId,
    string Level,
    string Message,
    bool IsStorageError,
    string? Device = null,
    string? Reason = null,
    string? FileSystem = null);

public static class SystemLogLevels
{
    public static string FromSyslogPriority(int priority) => (priority & 7) switch
    {
        <= 2 => "Critical",
        3 => "Error",
        4 => "Warning",
        7 => "Verbose",
        _ => "Information",
    };

    public static string FromWindowsLevel(int level) => level switch
    {
        1 => "Critical",
        2 => "Error",
        3 => "Warning",
        5 => "Verbose",
        _ => "Information",
    };

    public static bool IsErrorOrWorse(string level) => level is "Critical" or "Error";
}
