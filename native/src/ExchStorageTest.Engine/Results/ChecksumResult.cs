namespace ExchStorageTest.Engine.Results;

public sealed class ChecksumResult
{
    public long PagesChecked { get; set; }
    public long BadPages { get; set; }
    public int LogsChecked { get; set; }
    public int BadLogs { get; set; }
    public double ElapsedSeconds { get; set; }
    public List<string> Problems { get; set; } = new();
    /// <summary>Per file: pages or log blocks checked and the bad ones.</summary>
    public List<ChecksumFile> Files { get; set; } = new();
}
