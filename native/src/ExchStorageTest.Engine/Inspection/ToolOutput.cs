using System.Diagnostics;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Runs an OS tool (dmsetup, journalctl, mpclaim, powershell.exe) and returns what it printed, or
/// null when it is missing, fails or overruns: inspection data is optional detail, never fatal.
/// </summary>
internal static class ToolOutput
{
    public static string? Read(string file, IEnumerable<string> args, int timeoutMs)
    {
        try
        {
            var psi = new ProcessStartInfo(file, args)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            using var p = Process.Start(psi);
            if (p == null) return null;
            // Both pipes are read asynchronously: a tool that hangs (journalctl on a device in error,
            // lsblk on a stuck FUSE mount) must not hold the engine past the timeout.
            var stderr = p.StandardError.ReadToEndAsync();
            var output = p.StandardOutput.ReadToEndAsync();
            if (!p.WaitForExit(timeoutMs) || !output.Wait(timeoutMs))
            {
                try { p.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
                return null;
            }
            stderr.Wait(1000);
            return p.ExitCode == 0 ? output.Result : null;
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException)
        {
            return null;
        }
    }
}
