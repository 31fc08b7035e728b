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
}

/// <summary>A file the run would create (what -WhatIf lists).</summary>
public sealed record PlannedFile(string Path, long SizeBytes, string Kind);
