namespace ExchStorageTest.Engine.Results;

/// <summary>ESRP "storage software" rows: multipathing, host OS, HBA (the rest is supplied by the user).</summary>
public sealed class StorageSoftwareReport
{
    public string? Multipathing { get; set; }
    public string? HostOperatingSystem { get; set; }
    public List<string> HostBusAdapters { get; set; } = new();
}
