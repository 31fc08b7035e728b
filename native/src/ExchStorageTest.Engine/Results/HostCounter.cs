namespace ExchStorageTest.Engine.Results;

public sealed class HostCounter
{
    /// <summary>Counter path as users know it, e.g. "% Processor Time" or "\LogicalDisk(sdb)\Avg. Disk sec/Read".</summary>
    public string Name { get; set; } = "";
    /// <summary>Where it came from: "PDH" or "/proc" (named as the Linux equivalent).</summary>
    public string Source { get; set; } = "";
    /// <summary>Exactly what was measured: the PDH English path, or the /proc fields and formula of the Linux equivalent.</summary>
    public string? Origin { get; set; }
    public double Average { get; set; }
    public double Minimum { get; set; }
    public double Maximum { get; set; }
    public int Samples { get; set; }
}
