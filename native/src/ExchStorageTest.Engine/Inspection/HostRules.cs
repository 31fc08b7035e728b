using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// The host judged against the modelled Exchange version's guidance (<see cref="ModelledExchange"/>): sockets and
/// logical processors, the power policy, a hypervisor (reported), scheduled defragmentation. Nothing here refuses a
/// run: these are doubts, Warnings in the console, the results and the reports.
/// </summary>
public static class HostRules
{
    public static List<Finding> Evaluate(PlatformFacts f, ModelledExchange model)
    {
        var list = new List<Finding>();
        if (f.Hypervisor is { } hv)
            list.Add(SupportRules.Make(Severities.Info, FindingCodes.Virtualised,
                $"The host is a virtual machine ({hv}); Exchange is supported on Hyper-V and SVVP-validated hypervisors with fixed memory and storage of block-level (not file-level NAS) disks.", null));
        if (f.Sockets is int sockets && sockets > model.MaximumSockets)
            list.Add(SupportRules.Make(Severities.Warning, FindingCodes.SocketsAboveGuidance,
                $"The host has {sockets.ToString(CultureInfo.InvariantCulture)} processor sockets; {model.Version} guidance is at most {model.MaximumSockets.ToString(CultureInfo.InvariantCulture)}.",
                "Size Exchange servers as two-socket machines (scale out rather than up)."));
        if (f.LogicalProcessors > model.MaximumLogicalProcessors)
            list.Add(SupportRules.Make(Severities.Warning, FindingCodes.ProcessorsAboveGuidance,
                $"The host has {f.LogicalProcessors.ToString(CultureInfo.InvariantCulture)} logical processors; {model.Version} guidance is at most {model.MaximumLogicalProcessors.ToString(CultureInfo.InvariantCulture)}{(f.PhysicalCores is int c ? $" ({c.ToString(CultureInfo.InvariantCulture)} physical cores)" : "")}.",
                "Exchange's thread pools and .NET garbage collector scale badly past the guidance: give the server fewer processors (or turn Hyper-Threading off, as Exchange's sizing guidance advises)."));
        if (f.FullSpeed == false)
            list.Add(SupportRules.Make(Severities.Warning, FindingCodes.PowerPolicyNotFullSpeed,
                f.Platform == VolumePlatform.Windows
                    ? $"The active power plan is {f.PowerPolicy}; Exchange servers run the High performance plan, and a slower processor lengthens every I/O's path."
                    : $"The CPU frequency governor is {f.PowerPolicy}, not performance: the processors slow down between bursts, as Windows' Balanced plan would, which Exchange servers do not run.",
                f.Platform == VolumePlatform.Windows
                    ? "powercfg /setactive 8c5e7fda-e8bf-4a96-9a85-a6e23a8c635c (High performance), and the firmware's power profile set to maximum performance."
                    : "cpupower frequency-set -g performance (or the firmware's maximum-performance profile)."));
        if (f.DefragTask is { } task && Windows.DefragTask.IsScheduled(task))
            list.Add(SupportRules.Make(Severities.Warning, FindingCodes.DefragScheduled,
                $"Windows' scheduled volume optimisation ({Windows.DefragTask.TaskName}) is {task}: it optimises every eligible volume, database volumes included, and its I/O may fall inside a test or production window.",
                "Exclude the database and log volumes from the schedule (Optimize Drives, or Disable-ScheduledTask for the task); ESE maintains its own databases."));
        foreach (var note in f.Notes) list.Add(SupportRules.Make(Severities.Info, FindingCodes.ProbeNote, note, null));
        return list;
    }
}
