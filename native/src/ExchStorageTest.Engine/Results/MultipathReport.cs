namespace ExchStorageTest.Engine.Results;

public sealed class MultipathReport
{
    public string? Name { get; set; }
    /// <summary>"Linux dm-multipath", "Microsoft MPIO (Microsoft DSM)", ...</summary>
    public string? Provider { get; set; }
    public int PathCount { get; set; }
    public string? Policy { get; set; }
    public List<string> PathStates { get; set; } = new();

    /// <summary>The state in one line, as the failure-mode figures compare it before and after a fault: "2 paths (active, failed), round-robin".</summary>
    public string Describe() =>
        $"{PathCount} path{(PathCount == 1 ? "" : "s")}" + (PathStates.Count > 0 ? $" ({string.Join(", ", PathStates)})" : "") + (Policy is null ? "" : $", {Policy}");
}
