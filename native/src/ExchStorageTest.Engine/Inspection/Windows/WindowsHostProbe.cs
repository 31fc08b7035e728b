using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// The thin Windows layer of the host's platform facts: GetLogicalProcessorInformationEx (sockets, cores),
/// PowerGetActiveScheme (the power plan), the firmware's system strings in the registry (the hypervisor), and
/// schtasks for the scheduled defragmentation. Every decision is in <see cref="HostRules"/>.
/// </summary>
[SupportedOSPlatform("windows")]
public static unsafe partial class WindowsHostProbe
{
    public static PlatformFacts Probe()
    {
        var f = new PlatformFacts { Platform = VolumePlatform.Windows, LogicalProcessors = Environment.ProcessorCount };
        if (Topology() is { } t && t.Cores > 0) { f.Sockets = t.Sockets; f.PhysicalCores = t.Cores; }
        else f.Notes.Add($"GetLogicalProcessorInformationEx failed (error {Marshal.GetLastPInvokeError()}); sockets and cores were not checked.");

        if (PowerGetActiveScheme(0, out nint scheme) == 0 && scheme != 0)
        {
            var guid = *(Guid*)scheme;
            LocalFree(scheme);
            f.PowerPolicy = PowerSchemes.Name(guid);
            f.FullSpeed = PowerSchemes.FullSpeed(guid);
        }
        else f.Notes.Add("The active power plan could not be read (PowerGetActiveScheme).");

        try
        {
            using var bios = Microsoft.Win32.Registry.LocalMachine.OpenSubKey(@"HARDWARE\DESCRIPTION\System\BIOS");
            f.Hypervisor = Hypervisors.FromFirmware(bios?.GetValue("SystemManufacturer") as string, bios?.GetValue("SystemProductName") as string);
        }
        catch (Exception e) when (e is System.Security.SecurityException or UnauthorizedAccessException or IOException)
        {
            f.Notes.Add($"The firmware's system strings could not be read ({e.Message}); a hypervisor was not looked for.");
        }

        string? tasks = ToolOutput.Read("schtasks.exe", new[] { "/query", "/tn", DefragTask.TaskName, "/fo", "csv", "/nh" }, 10000);
        f.DefragTask = tasks is null ? null : DefragTask.ParseStatus(tasks);
        if (f.DefragTask is null) f.Notes.Add($"The scheduled defragmentation task ({DefragTask.TaskName}) could not be read.");
        return f;
    }

    private static (int Sockets, int Cores)? Topology()
    {
        uint length = 0;
        GetLogicalProcessorInformationEx(ProcessorTopology.RelationAll, null, ref length);
        if (length == 0) return null;
        var buffer = new byte[length];
        fixed (byte* p = buffer)
            if (!GetLogicalProcessorInformationEx(ProcessorTopology.RelationAll, p, ref length)) return null;
        return ProcessorTopology.Parse(buffer.AsSpan(0, (int)length));
    }

    [LibraryImport("kernel32.dll", EntryPoint = "GetLogicalProcessorInformationEx", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    private static partial bool GetLogicalProcessorInformationEx(int relationship, byte* buffer, ref uint returnedLength);

    [LibraryImport("powrprof.dll", EntryPoint = "PowerGetActiveScheme")]
    private static partial uint PowerGetActiveScheme(nint userRootPowerKey, out nint activePolicyGuid);

    [LibraryImport("kernel32.dll", EntryPoint = "LocalFree")]
    private static partial nint LocalFree(nint memory);
}
