namespace ExchStorageTest.Engine.Results;

/// <summary>
/// Results <c>environment.platform</c>: the host as the platform pre-flight saw it and its findings (processors
/// against the modelled version's guidance, power policy, hypervisor, scheduled defragmentation, the layout's
/// sector formats). Null in results written before the pre-flight.
/// </summary>
public sealed class PlatformReport
{
    public int? Sockets { get; set; }
    public int? PhysicalCores { get; set; }
    public int LogicalProcessors { get; set; }
    /// <summary>The hypervisor the host runs under; null when none was seen.</summary>
    public string? Hypervisor { get; set; }
    /// <summary>Windows: the power plan; Linux: the CPU frequency governors. Null when not read.</summary>
    public string? PowerPolicy { get; set; }
    public List<Finding> Findings { get; set; } = new();
}
