namespace ExchStorageTest.Engine.Results;

public sealed class IoErrorRecord
{
    public DateTime TimeUtc { get; set; }
    public string Instance { get; set; } = "";
    public string Stream { get; set; } = "";
    public string File { get; set; } = "";
    /// <summary>The volume the file lies on (<see cref="VolumeNames"/>); null in results written before it was recorded.</summary>
    public string? Volume { get; set; }
    public long Offset { get; set; }
    public int Length { get; set; }
    /// <summary>errno (Linux) or Win32/NTSTATUS (Windows).</summary>
    public int ErrorCode { get; set; }
    public string ErrorName { get; set; } = "";
    public string Message { get; set; } = "";
}
