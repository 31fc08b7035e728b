using System.Diagnostics;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Inspection.Multipath;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// Runs mpclaim.exe (present when the Multipath-IO feature is installed) to find the MPIO disk behind a
/// system disk, its path count and policy. Absent MPIO is not an error: the result is null.
/// </summary>
[SupportedOSPlatform("windows")]
public static class WindowsMpclaim
{
    public static Results.MultipathReport? TryReport(int systemDiskNumber)
    {
        string? list = Run("-s -d");
        if (list == null) return null;
        var disk = Mpclaim.ParseDiskList(list).FirstOrDefault(d => d.SystemDisk == systemDiskNumber);
        if (disk == null) return null;
        string? detail = Run($"-s -d {disk.MpioDisk}");
        var parsed = detail == null ? null : Mpclaim.ParseDiskDetail(detail);
        if (parsed != null) return parsed.ToReport();
        return new Results.MultipathReport
        {
            Name = $"MPIO Disk{disk.MpioDisk}",
            Provider = $"Microsoft MPIO ({disk.DsmName})",
            Policy = disk.Policy?.ToString() ?? disk.PolicyCode,
        };
    }

    private static string? Run(string arguments) =>
        ToolOutput.Read("mpclaim.exe", arguments.Split(' ', StringSplitOptions.RemoveEmptyEntries), 10000);
}
