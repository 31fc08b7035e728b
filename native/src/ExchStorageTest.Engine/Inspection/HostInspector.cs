using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.Windows;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>Probes the host on this OS and judges it, and the layout of the run's volumes, against the modelled Exchange.</summary>
public static class HostInspector
{
    public static PlatformReport Inspect(ModelledExchange model, IReadOnlyList<VolumeReport> volumes)
    {
        PlatformFacts facts = OperatingSystem.IsWindows() ? WindowsHostProbe.Probe()
            : OperatingSystem.IsLinux() ? LinuxHostProbe.Probe()
            : new PlatformFacts { LogicalProcessors = Environment.ProcessorCount, Notes = { "The host's platform is not probed on this OS." } };
        return ToReport(facts, HostRules.Evaluate(facts, model).Concat(LayoutRules.Evaluate(volumes)).ToList());
    }

    public static PlatformReport ToReport(PlatformFacts f, List<Finding> findings) => new()
    {
        Sockets = f.Sockets, PhysicalCores = f.PhysicalCores, LogicalProcessors = f.LogicalProcessors,
        Hypervisor = f.Hypervisor, PowerPolicy = f.PowerPolicy, Findings = findings,
    };
}
