namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// What a host probe found out about the machine, before any judgement (<see cref="HostRules"/>): processors,
/// hypervisor, power policy, scheduled defragmentation. Unknowns stay null and are said in <see cref="Notes"/>.
/// </summary>
public sealed class PlatformFacts
{
    public VolumePlatform Platform { get; set; }
    public int LogicalProcessors { get; set; }
    public int? Sockets { get; set; }
    public int? PhysicalCores { get; set; }
    /// <summary>The hypervisor the machine runs under ("VMware", "Hyper-V", "KVM/QEMU"...); null when none was seen.</summary>
    public string? Hypervisor { get; set; }
    /// <summary>Windows: the active power plan's name; Linux: the CPU frequency governors in use ("performance").</summary>
    public string? PowerPolicy { get; set; }
    /// <summary>True when <see cref="PowerPolicy"/> runs the processors at full speed (High/Ultimate performance, "performance").</summary>
    public bool? FullSpeed { get; set; }
    /// <summary>Windows: the scheduled defragmentation task's state ("Ready", "Disabled"); null when not read.</summary>
    public string? DefragTask { get; set; }
    public List<string> Notes { get; set; } = new();
}
