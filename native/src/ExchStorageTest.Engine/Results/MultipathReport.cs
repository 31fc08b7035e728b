namespace ExchStorageTest.Engine.Results;

public sealed class MultipathReport
{
    public string? Name { get; set; }
    /// <summary>"Linux dm-multipath", "Microsoft MPIO (Microsoft DSM)", ...</summary>
    public string? Provider { get; set; }
    public int PathCount { get; set; }
    public string? Policy { get; set; }
    public List<string> PathStates { get; set; } = new();
}
