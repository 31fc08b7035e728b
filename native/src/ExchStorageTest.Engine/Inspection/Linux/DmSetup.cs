using System.Diagnostics;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>Runs `dmsetup table NAME` where dmsetup exists; the policy is optional detail, so failures give null.</summary>
public static class DmSetup
{
    public static DmMultipathTable? TryTable(string mapName)
    {
        try
        {
            var psi = new ProcessStartInfo("dmsetup", new[] { "table", mapName })
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            using var p = Process.Start(psi);
            if (p == null) return null;
            string output = p.StandardOutput.ReadToEnd();
            if (!p.WaitForExit(5000) || p.ExitCode != 0) return null;
            var line = output.Split('\n').FirstOrDefault(l => l.Contains(" multipath ", StringComparison.Ordinal));
            return line == null ? null : DmMultipathTable.Parse(line);
        }
        catch (Exception e) when (e is System.ComponentModel.Win32Exception or InvalidOperationException or Protocol.EngineException)
        {
            return null;
        }
    }
}
