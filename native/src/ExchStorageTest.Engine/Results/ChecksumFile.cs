namespace ExchStorageTest.Engine.Results;

public sealed class ChecksumFile
{
    public string Path { get; set; } = "";
    /// <summary>Database or Log.</summary>
    public string Kind { get; set; } = "";
    public long Checked { get; set; }
    public long Bad { get; set; }
}
