namespace ExchStorageTest.Engine.Planning;

/// <summary>One database instance as planned: where its files go and how big they are.</summary>
public sealed class PlannedInstance
{
    public int Index { get; init; }
    /// <summary>Jetstress-style name, e.g. "Instance.1".</summary>
    public string Name => $"Instance.{Index}";
    public string DatabaseFolder { get; init; } = "";
    public string DatabaseFile { get; init; } = "";
    public string LogFolder { get; init; } = "";
    public long DatabaseSizeBytes { get; init; }
    public int LogGenerations { get; init; }
    /// <summary>
    /// The passive copies beside this database on its volume (docs/load-model.md, "Passive copies on a volume"); empty in
    /// the Jetstress model. Each has its own database file and log folder under this database's folder.
    /// </summary>
    public IReadOnlyList<PlannedPassiveCopy> PassiveCopies { get; init; } = Array.Empty<PlannedPassiveCopy>();
}

/// <summary>
/// One passive copy beside an active database: <see cref="Database"/> is its own database file and log folder (named by
/// the active database's index: its I/O is driven by that database's activity), <see cref="Lagged"/> when its replay is held.
/// </summary>
public sealed record PlannedPassiveCopy(int Copy, bool Lagged, PlannedInstance Database)
{
    /// <summary>The folder of passive copy <paramref name="copy"/> under its active database's folder.</summary>
    public static string FolderName(int copy) => $"Passive{copy}";
}

/// <summary>A file the run would create (what -WhatIf lists).</summary>
public sealed record PlannedFile(string Path, long SizeBytes, string Kind)
{
    /// <summary>The kinds of a passive copy's files (<see cref="PlannedInstance.PassiveCopies"/>).</summary>
    public const string PassiveDatabaseKind = "PassiveDatabase", PassiveLogKind = "PassiveLog";

    /// <summary>True for a file of a passive copy beside a database.</summary>
    public bool OfPassiveCopy => Kind is PassiveDatabaseKind or PassiveLogKind;
}
