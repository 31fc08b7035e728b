using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Analysis;

/// <summary>
/// Which of a run's volumes carry logs only: Exchange's rule for a log volume is the log write latency, for any other
/// (a database volume, or one that holds databases and logs) the database read latency (<see cref="RuleFloor"/> ties
/// a stream to its volume's rule the same way). Volumes are named as the failure-mode figures name them (<see cref="VolumeNames"/>).
/// </summary>
public static class VolumeRoles
{
    /// <summary>The volumes that hold log folders and no database file.</summary>
    public static HashSet<string> LogOnly(TestResults r)
    {
        var databases = new HashSet<string>(StringComparer.Ordinal);
        var logs = new HashSet<string>(StringComparer.Ordinal);
        foreach (var inst in r.Instances)
        {
            if (inst.DatabasePath.Length > 0) databases.Add(VolumeNames.Of(r.Environment.Volumes, inst.DatabasePath));
            // A file inside the folder: the volume (or, where none is known, the folder) its log files are named by.
            if (inst.LogPath.Length > 0) logs.Add(VolumeNames.Of(r.Environment.Volumes, Path.Combine(inst.LogPath, "E00.log")));
        }
        logs.ExceptWith(databases);
        return logs;
    }

    /// <summary>The stream whose rule a volume's latency is held to: log writes on a log volume, database reads on any other.</summary>
    public static string RuleStream(bool logVolume) => logVolume ? StreamNames.LogWrite : StreamNames.DatabaseRead;

    /// <summary>The average latency limit a volume's recovered seconds must keep.</summary>
    public static double AverageLimitMs(bool logVolume, Thresholds t) => logVolume ? t.AverageLogWriteLatencyMs : t.AverageDatabaseReadLatencyMs;
}
