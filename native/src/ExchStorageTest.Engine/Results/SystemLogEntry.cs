namespace ExchStorageTest.Engine.Results;

public sealed class SystemLogEntry
{
    public DateTime TimeUtc { get; set; }
    public string Provider { get; set; } = "";
    public int? EventId { get; set; }
    public string Level { get; set; } = "";
    public string Message { get; set; } = "";
    public bool IsStorageError { get; set; }
    public string? Device { get; set; }
    public string? Reason { get; set; }
    /// <summary>The entry names a device that holds none of the test's folders (an error there is information, not judged).</summary>
    public bool OtherDevice { get; set; }

    /// <summary>A storage error the verdict counts.</summary>
    [System.Text.Json.Serialization.JsonIgnore]
    public bool Judged => IsStorageError && !OtherDevice;
}
