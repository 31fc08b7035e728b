namespace ExchStorageTest.Engine.Planning;

/// <summary>
/// A validated request: everything the run will do, computed before any byte is written. The
/// plan command returns it as-is, so -WhatIf shows exactly what a run would create and apply.
/// </summary>
public sealed class TestPlan
{
    public const int PageSize = 32 * 1024;
    public const long LogFileSize = 1024 * 1024;

    public required EngineRequest Request { get; init; }
    /// <summary>The request's test id (checked to be a plain name) or a new one; part of every file name the run writes.</summary>
    public required string TestId { get; init; }
    /// <summary>The folders the request names (database and log roots): a run holds the run lock in each (docs/files.md).</summary>
    public IReadOnlyList<string> LockFolders { get; init; } = Array.Empty<string>();
    /// <summary>
    /// Database and log folders that do not exist yet and that the run creates before it takes its lock (a request with
    /// <see cref="EngineRequest.JetstressFolders"/>: JetstressCmd's); the plan checked that each can be created.
    /// </summary>
    public IReadOnlyList<string> FoldersToCreate { get; init; } = Array.Empty<string>();

    /// <summary>Creates <see cref="FoldersToCreate"/> (their parents too), when the run starts: a plan writes nothing.</summary>
    public void CreateFolders()
    {
        foreach (var folder in FoldersToCreate) Directory.CreateDirectory(folder);
    }
    public required MailboxProfile Profile { get; init; }
    public required TestType TestType { get; init; }
    /// <summary>Which Exchange the load models: the Preferred Architecture when the profile puts passive copies on its volumes (<see cref="PassiveCopyModel.Modelled"/>).</summary>
    public ModelledExchange Exchange { get; init; } = ModelledExchange.Jetstress;
    public required IReadOnlyList<PlannedInstance> Instances { get; init; }
    public required double DurationSeconds { get; init; }
    public required double SampleIntervalSeconds { get; init; }
    /// <summary>The declared failure-mode window (docs/failure-mode.md); null when the request declares none.</summary>
    public FaultPlan? Fault { get; init; }
    /// <summary>The longest a volume may stall, declared fault or not (<see cref="FaultRules.StallLimit"/>).</summary>
    public double StallLimitSeconds { get; init; } = FaultRules.DefaultStallLimitSeconds;
    public required Thresholds Thresholds { get; init; }
    public required string OutputPath { get; init; }
    /// <summary>The test type the run's files are named by (reportedAs, checked by the planner, else the test type), as its results say.</summary>
    public string ReportName => (Request.ReportedAs ?? TestType).ToString();
    public double TargetIops => Profile.TargetIops;
    /// <summary>What the database pages hold (the request's data profile; checked by the planner).</summary>
    public DataProfile DataProfile => new(Request.CompressibilityPercent, Request.DuplicatePercent);
    /// <summary>Sessions; null when automatic tuning will choose.</summary>
    public int? ThreadCount { get; init; }
    /// <summary>Tuning, warm-up and settling before the measured window, and the instants agreed with other hosts.</summary>
    public required RunSchedule Schedule { get; init; }
    /// <summary>A capacity search whose steps the caller sends (<see cref="CapacityStepping.Caller"/>): several hosts stepping together.</summary>
    public bool CallerSteps { get; init; }

    public IEnumerable<PlannedFile> Files()
    {
        foreach (var i in Instances)
        {
            yield return new PlannedFile(i.DatabaseFile, i.DatabaseSizeBytes, "Database");
            for (int g = 1; g <= i.LogGenerations; g++)
                yield return new PlannedFile(Path.Combine(i.LogFolder, LogFileName(g)), LogFileSize, "Log");
            foreach (var c in i.PassiveCopies)
            {
                yield return new PlannedFile(c.Database.DatabaseFile, c.Database.DatabaseSizeBytes, PlannedFile.PassiveDatabaseKind);
                for (int g = 1; g <= c.Database.LogGenerations; g++)
                    yield return new PlannedFile(Path.Combine(c.Database.LogFolder, LogFileName(g)), LogFileSize, PlannedFile.PassiveLogKind);
            }
        }
    }

    /// <summary>Every database the run prepares: the active ones, then each one's passive copies.</summary>
    public IEnumerable<PlannedInstance> AllDatabases() =>
        Instances.Concat(Instances.SelectMany(i => i.PassiveCopies.Select(c => c.Database)));

    public long TotalBytes => Files().Sum(f => f.SizeBytes);

    /// <summary>Log generation file names: E00 + 8 hex digits, as Exchange names them.</summary>
    public static string LogFileName(int generation) => $"E00{generation:X8}.log";

    /// <summary>Database file name of instance <paramref name="index"/>.</summary>
    public static string DatabaseFileName(int index) => $"ExchStorageTest{index:D3}.edb";
}
