using System.Diagnostics;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The native helpers started under a process (its descendants named exchstoragetest-engine), so a test
/// can prove none outlived its command without being confused by helpers other test processes run.
/// </summary>
public static class HelperProcesses
{
    public static HashSet<int> Under(int ancestor)
    {
        var found = new HashSet<int>();
        foreach (var p in Process.GetProcessesByName("exchstoragetest-engine"))
        {
            using (p)
                if (Descends(p.Id, ancestor)) found.Add(p.Id);
        }
        return found;
    }

    public static HashSet<int> OfThisProcess() => Under(Environment.ProcessId);

    private static bool Descends(int pid, int ancestor)
    {
        for (int depth = 0; depth < 32 && pid > 1; depth++)
        {
            int parent = ParentOf(pid);
            if (parent == ancestor) return true;
            if (parent <= 0) return false;
            pid = parent;
        }
        return false;
    }

    // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces and parentheses, so read after the last ')'.
    private static int ParentOf(int pid)
    {
        try
        {
            string stat = File.ReadAllText($"/proc/{pid}/stat");
            string[] rest = stat[(stat.LastIndexOf(')') + 2)..].Split(' ');
            return int.Parse(rest[1]);
        }
        catch (Exception ex) when (ex is IOException || ex is FormatException || ex is UnauthorizedAccessException || ex is IndexOutOfRangeException)
        {
            return -1;
        }
    }
}
