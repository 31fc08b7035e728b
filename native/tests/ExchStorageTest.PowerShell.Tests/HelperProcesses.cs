namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The helpers this test process started. The machine is shared: other test runs and benchmarks have helpers of
/// their own, which come and go on their own schedule and must not count as ours.
/// </summary>
internal static class HelperProcesses
{
    public static List<int> Ours() =>
        System.Diagnostics.Process.GetProcessesByName("exchstoragetest-engine").Select(p => p.Id)
            .Where(id => OperatingSystem.IsWindows() || ParentOf(id) == Environment.ProcessId).ToList();

    private static int ParentOf(int pid)
    {
        try
        {
            // /proc/<pid>/stat: "pid (comm) state ppid ..."; comm may hold spaces, so read after its closing parenthesis.
            string stat = File.ReadAllText($"/proc/{pid}/stat");
            return int.Parse(stat[(stat.LastIndexOf(')') + 2)..].Split(' ')[1]);
        }
        catch (IOException)
        {
            return -1; // exited meanwhile
        }
    }
}
