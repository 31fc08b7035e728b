namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>
/// The host's platform facts from sysfs and procfs (roots are parameters so tests feed a fake tree): processor
/// topology (cpu*/topology), frequency governors (cpu*/cpufreq/scaling_governor), the hypervisor (the firmware's
/// /sys/class/dmi/id strings, /sys/hypervisor/type, the "hypervisor" CPU flag).
/// </summary>
public static class LinuxHostProbe
{
    public static PlatformFacts Probe(string sysRoot = "/sys", string procRoot = "/proc")
    {
        var f = new PlatformFacts { Platform = VolumePlatform.Linux, LogicalProcessors = Environment.ProcessorCount };
        string cpuRoot = Path.Combine(sysRoot, "devices", "system", "cpu");
        var cpus = Directory.Exists(cpuRoot)
            ? Directory.EnumerateDirectories(cpuRoot, "cpu*").Where(d => Path.GetFileName(d) is { Length: > 3 } name && name[3..].All(char.IsAsciiDigit)).ToList()
            : new List<string>();
        var packages = new HashSet<string>(StringComparer.Ordinal);
        var cores = new HashSet<string>(StringComparer.Ordinal);
        var governors = new SortedSet<string>(StringComparer.Ordinal);
        foreach (var cpu in cpus)
        {
            string? package = SysBlockDevice.ReadText(Path.Combine(cpu, "topology", "physical_package_id"));
            string? core = SysBlockDevice.ReadText(Path.Combine(cpu, "topology", "core_id"));
            if (package != null) packages.Add(package);
            if (package != null && core != null) cores.Add(package + ":" + core);
            if (SysBlockDevice.ReadText(Path.Combine(cpu, "cpufreq", "scaling_governor")) is { } g) governors.Add(g);
        }
        if (cpus.Count > 0) f.LogicalProcessors = cpus.Count;
        if (packages.Count > 0) f.Sockets = packages.Count;
        if (cores.Count > 0) f.PhysicalCores = cores.Count;
        else f.Notes.Add("The processor topology (sockets, cores) could not be read from sysfs.");
        if (governors.Count > 0)
        {
            f.PowerPolicy = string.Join(", ", governors);
            f.FullSpeed = governors.All(g => g == "performance");
        }
        else
        {
            f.Notes.Add("No CPU frequency governor is exposed (cpufreq absent: a virtual machine, or frequency set by the firmware); the power policy was not checked.");
        }

        string dmi = Path.Combine(sysRoot, "class", "dmi", "id");
        f.Hypervisor = Hypervisors.FromFirmware(SysBlockDevice.ReadText(Path.Combine(dmi, "sys_vendor")), SysBlockDevice.ReadText(Path.Combine(dmi, "product_name")))
            ?? SysBlockDevice.ReadText(Path.Combine(sysRoot, "hypervisor", "type"))
            ?? (CpuFlags(procRoot).Contains("hypervisor") ? "a hypervisor (the CPU's hypervisor flag; its name is not reported)" : null);
        return f;
    }

    private static HashSet<string> CpuFlags(string procRoot)
    {
        string? text = SysBlockDevice.ReadText(Path.Combine(procRoot, "cpuinfo"));
        var line = text?.Split('\n').FirstOrDefault(l => l.StartsWith("flags", StringComparison.Ordinal));
        return line is null ? new HashSet<string>() : line[(line.IndexOf(':') + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);
    }
}
