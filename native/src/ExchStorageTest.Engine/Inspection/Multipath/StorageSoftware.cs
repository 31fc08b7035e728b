using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Inspection.Linux;

namespace ExchStorageTest.Engine.Inspection.Multipath;

/// <summary>
/// Builds the ESRP "storage software" table source (multipathing, host OS, HBA) from what the host
/// could discover. The builder is pure; <see cref="DiscoverLinuxHbas"/> reads sysfs.
/// </summary>
public static class StorageSoftware
{
    public static StorageSoftwareReport Build(IEnumerable<VolumeReport> volumes, string hostOperatingSystem, IEnumerable<string> hbas)
    {
        var paths = volumes.Select(v => v.Multipath).OfType<MultipathReport>().ToList();
        string multipathing;
        if (paths.Count == 0)
        {
            multipathing = "None detected";
        }
        else
        {
            var described = paths
                .Select(m => $"{m.Provider ?? "multipath"}{(m.Policy == null ? "" : ", " + m.Policy)}")
                .Distinct(StringComparer.Ordinal);
            int min = paths.Min(m => m.PathCount), max = paths.Max(m => m.PathCount);
            string pathText = min == max ? $"{min} paths per LUN" : $"{min}-{max} paths per LUN";
            multipathing = $"{string.Join("; ", described)} ({pathText})";
        }
        var report = new StorageSoftwareReport { Multipathing = multipathing, HostOperatingSystem = hostOperatingSystem };
        report.HostBusAdapters.AddRange(hbas.Where(h => !string.IsNullOrWhiteSpace(h)).Distinct(StringComparer.Ordinal));
        return report;
    }

    /// <summary>Discovers what it can on this host (Linux: sysfs fc_host and iSCSI hosts; Windows: HBAs come from the module).</summary>
    public static StorageSoftwareReport Discover(IEnumerable<VolumeReport> volumes) =>
        Build(volumes, RuntimeInformation.OSDescription, OperatingSystem.IsLinux() ? DiscoverLinuxHbas("/sys") : Array.Empty<string>());

    /// <summary>Fibre Channel HBAs (fc_host symbolic_name, e.g. "QLE2692 FW:v8.08.03 DVR:v10.02.00.106-k") and iSCSI initiators.</summary>
    public static List<string> DiscoverLinuxHbas(string sysRoot)
    {
        var list = new List<string>();
        string fc = Path.Combine(sysRoot, "class", "fc_host");
        if (Directory.Exists(fc))
        {
            foreach (var host in Directory.EnumerateDirectories(fc).OrderBy(d => d, StringComparer.Ordinal))
            {
                string? name = SysBlockDevice.ReadText(Path.Combine(host, "symbolic_name"));
                string? wwpn = SysBlockDevice.ReadText(Path.Combine(host, "port_name"));
                string? state = SysBlockDevice.ReadText(Path.Combine(host, "port_state"));
                list.Add($"FC {Path.GetFileName(host)}: {name ?? "unknown adapter"}{(wwpn == null ? "" : $", WWPN {wwpn}")}{(state == null ? "" : $", {state}")}");
            }
        }
        string iscsi = Path.Combine(sysRoot, "class", "iscsi_host");
        if (Directory.Exists(iscsi))
        {
            foreach (var host in Directory.EnumerateDirectories(iscsi).OrderBy(d => d, StringComparer.Ordinal))
            {
                string? initiator = SysBlockDevice.ReadText(Path.Combine(host, "initiatorname"));
                list.Add($"iSCSI {Path.GetFileName(host)}{(initiator == null ? "" : $": {initiator}")}");
            }
        }
        return list;
    }
}
