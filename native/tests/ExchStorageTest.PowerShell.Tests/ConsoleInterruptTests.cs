using System.Diagnostics;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Ctrl+C at an interactive console: the run stops cleanly and Invoke-StorageTest still returns the partial
/// result. A real terminal is needed, so a small PowerShell console (ExchStorageTest.ConsoleHost) runs under a
/// pseudo-terminal made by `script`, and the test types Ctrl+C (byte 0x03) into it.
/// </summary>
public class ConsoleInterruptTests
{
    [PseudoTerminalFact]
    public void Ctrl_C_at_the_console_returns_the_partial_result()
    {
        using var dir = new ScratchFolder("ctrlc");
        string console = Path.Combine(PowerShellSession.RepoRoot, "native", "tests", "ExchStorageTest.ConsoleHost", "bin",
            new DirectoryInfo(Path.TrimEndingDirectorySeparator(AppContext.BaseDirectory)).Parent!.Name, "net10.0", "exchstoragetest-console");
        Assert.True(File.Exists(console), console);
        string script = "New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 20 -Path $args[0] | " +
                        "Invoke-StorageTest -Duration 00:10:00 -ThreadCount 1 -SampleIntervalSeconds 1 -Warmup 0 -Force | " +
                        "ForEach-Object { 'RESULT ' + $_.Completion + ' ' + $_.ResultsPath }";
        string command = $"{Quote(console)} {Quote(PowerShellSession.ManifestPath)} {Quote(script)} {Quote(dir.Path)}";
        var psi = new ProcessStartInfo("/usr/bin/script") { RedirectStandardInput = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (string a in new[] { "-q", "-f", "-e", "-c", command, "/dev/null" }) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        var lines = new List<string>();
        var measuring = new ManualResetEventSlim();
        var helpers = new HashSet<int>();
        var reader = new Thread(() =>
        {
            string? line;
            while ((line = p.StandardOutput.ReadLine()) != null)
            {
                lock (lines) lines.Add(line);
                if (line.Contains("PROGRESS Measuring")) measuring.Set();
            }
        });
        reader.Start();
        try
        {
            Assert.True(measuring.Wait(TimeSpan.FromMinutes(2)), "never measured: " + string.Join("\n", lines));
            Thread.Sleep(2000);
            helpers = HelperProcesses.Under(p.Id);
            Assert.NotEmpty(helpers);
            p.StandardInput.Write('\u0003');
            p.StandardInput.Flush();
            Assert.True(p.WaitForExit(60_000), "the console did not finish after Ctrl+C: " + string.Join("\n", lines));
            reader.Join(10_000);
        }
        finally
        {
            if (!p.HasExited) p.Kill(true);
        }
        string all;
        lock (lines) all = string.Join("\n", lines);
        Assert.Equal(0, p.ExitCode); // no signal ended the console: the key was read, not delivered as SIGINT
        string result = Assert.Single(lines, l => l.Contains("OUTPUT RESULT "));
        Assert.Contains("RESULT Stopped ", result);
        string resultsPath = result[(result.IndexOf("RESULT Stopped ", StringComparison.Ordinal) + "RESULT Stopped ".Length)..].Trim();
        Assert.True(File.Exists(resultsPath), all);
        Assert.Contains("WARNING ExchStorageTest: the run was stopped", all);
        Assert.DoesNotContain(Process.GetProcessesByName("exchstoragetest-engine"), x => helpers.Contains(x.Id));
    }

    private static string Quote(string s) => "'" + s.Replace("'", "'\\''") + "'";
}

/// <summary>A test that needs a pseudo-terminal from util-linux script(1).</summary>
public sealed class PseudoTerminalFactAttribute : FactAttribute
{
    public PseudoTerminalFactAttribute()
    {
        if (OperatingSystem.IsWindows() || !File.Exists("/usr/bin/script")) Skip = "needs util-linux script(1) for a pseudo-terminal";
    }
}
