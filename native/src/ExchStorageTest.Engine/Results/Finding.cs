namespace ExchStorageTest.Engine.Results;

/// <summary>An environment finding (Test-StorageVolume): severity Info | Warning | Error.</summary>
public sealed class Finding
{
    public string Severity { get; set; } = "Info";
    public string Code { get; set; } = "";
    public string Message { get; set; } = "";
    public string? Advice { get; set; }
}
