using System.Text.RegularExpressions;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>
/// The kernel's names for the devices a run's storage lives on, as its messages name a failing device: each volume's
/// device, the whole disk of a partition, every device it is built on (sysfs <c>slaves/</c>: multipath paths, md
/// members, device-mapper targets) and theirs in turn, the controller of an NVMe namespace, and each one's
/// <c>major:minor</c> (device-mapper names a failing path that way). A loop device's backing file is not followed.
/// </summary>
public static partial class StorageDevices
{
    /// <param name="devicePaths">The volumes' devices (<c>/dev/sda1</c>, <c>/dev/mapper/mpatha</c>, <c>/dev/loop0</c>).</param>
    /// <param name="sysRoot">sysfs (a fake tree in tests).</param>
    public static IReadOnlySet<string> Of(IEnumerable<string?> devicePaths, string sysRoot = "/sys")
    {
        var names = new HashSet<string>(StringComparer.Ordinal);
        var queue = new Queue<string>();
        foreach (var path in devicePaths)
            if (KernelName(path) is { } name) queue.Enqueue(name);
        while (queue.Count > 0)
        {
            string name = queue.Dequeue();
            if (!names.Add(name)) continue;
            if (NvmeNamespace().Match(name) is { Success: true } ns) names.Add(ns.Groups["controller"].Value);
            string entry = Path.Combine(sysRoot, "class", "block", name);
            if (!Directory.Exists(entry)) continue;
            if (SysBlockDevice.ReadText(Path.Combine(entry, "dev")) is { } number) names.Add(number);
            // A partition's entry sits inside its disk's in the device tree.
            if (File.Exists(Path.Combine(entry, "partition")) && Directory.GetParent(RealPath(entry))?.Name is { } disk) queue.Enqueue(disk);
            string slaves = Path.Combine(entry, "slaves");
            if (Directory.Exists(slaves))
                foreach (var slave in Directory.EnumerateFileSystemEntries(slaves)) queue.Enqueue(Path.GetFileName(slave));
        }
        return names;
    }

    /// <summary>A device as kernel messages name it: "sdb" for /dev/sdb, "dm-0" for /dev/mapper/x (its link's target).</summary>
    public static string? KernelName(string? device)
    {
        if (string.IsNullOrWhiteSpace(device)) return null;
        if (!device.StartsWith("/dev/", StringComparison.Ordinal)) return device;
        try
        {
            if (new FileInfo(device).ResolveLinkTarget(returnFinalTarget: true) is { } target) device = target.FullName;
        }
        catch (IOException) { /* not a link, or gone: its own name */ }
        catch (UnauthorizedAccessException) { }
        return Path.GetFileName(device);
    }

    private static string RealPath(string path)
    {
        try { return new DirectoryInfo(path).ResolveLinkTarget(returnFinalTarget: true)?.FullName ?? path; }
        catch (IOException) { return path; }
        catch (UnauthorizedAccessException) { return path; }
    }

    [GeneratedRegex(@"^(?<controller>nvme\d+)n\d+", RegexOptions.CultureInvariant)]
    private static partial Regex NvmeNamespace();
}
