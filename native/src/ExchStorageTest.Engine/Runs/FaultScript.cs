using System.Diagnostics;
using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// The script that causes a declared fault (a vendor's CLI failing a controller over, a path disable), started at the
/// fault window's instant on the one host that runs it (docs/failure-mode.md). It gets the window in environment
/// variables, its output and exit code are kept in the results, and one still running when the measured window ends is
/// stopped then: a fault never outlives the run that declared it.
/// </summary>
internal sealed class FaultScript : IDisposable
{
    /// <summary>The most output kept (the first part: a CLI's errors come early).</summary>
    private const int OutputLimit = 64 * 1024;

    private readonly Process? _process;
    private readonly StringBuilder _output = new();

    private FaultScript(FaultScriptRun record, Process? process)
    {
        Record = record;
        _process = process;
    }

    public FaultScriptRun Record { get; }

    /// <summary>Starts <paramref name="path"/> now; a script that cannot start is recorded with why, and the run goes on.</summary>
    public static FaultScript Start(string path, string testId, DateTime faultStartUtc, double lengthSeconds)
    {
        var record = new FaultScriptRun { Path = path, Host = Environment.MachineName, RanHere = true, StartedUtc = DateTime.UtcNow };
        var psi = StartInfo(path);
        psi.RedirectStandardOutput = psi.RedirectStandardError = true;
        psi.UseShellExecute = false;
        psi.CreateNoWindow = true;
        psi.WorkingDirectory = Path.GetDirectoryName(Path.GetFullPath(path)) ?? Environment.CurrentDirectory;
        psi.Environment["EXCHSTORAGETEST_FAULT_START_UTC"] = faultStartUtc.ToString("o", System.Globalization.CultureInfo.InvariantCulture);
        psi.Environment["EXCHSTORAGETEST_FAULT_LENGTH_SECONDS"] = lengthSeconds.ToString("0.###", System.Globalization.CultureInfo.InvariantCulture);
        psi.Environment["EXCHSTORAGETEST_TEST_ID"] = testId;
        psi.Environment["EXCHSTORAGETEST_HOST"] = Environment.MachineName;
        Process? process = null;
        try
        {
            process = new Process { StartInfo = psi, EnableRaisingEvents = true };
            var script = new FaultScript(record, process);
            process.OutputDataReceived += (_, e) => script.Append(e.Data);
            process.ErrorDataReceived += (_, e) => script.Append(e.Data);
            process.Start();
            process.BeginOutputReadLine();
            process.BeginErrorReadLine();
            return script;
        }
        catch (Exception ex) when (ex is System.ComponentModel.Win32Exception or InvalidOperationException or IOException)
        {
            process?.Dispose();
            record.Error = $"The fault script could not be started ({psi.FileName}): {ex.Message}";
            record.EndedUtc = record.StartedUtc;
            return new FaultScript(record, null);
        }
    }

    /// <summary>The record of a script another host of the run starts: this host keeps the window only.</summary>
    public static FaultScriptRun Elsewhere(string path, string host) => new() { Path = path, Host = host, RanHere = false };

    /// <summary>
    /// How a script is started: PowerShell scripts by PowerShell (pwsh where it is installed, else Windows PowerShell),
    /// batch files by cmd.exe, shell scripts by /bin/sh, anything else as the program it is.
    /// </summary>
    private static ProcessStartInfo StartInfo(string path)
    {
        string ext = Path.GetExtension(path).ToLowerInvariant();
        var psi = new ProcessStartInfo();
        switch (ext)
        {
            case ".ps1":
                psi.FileName = FindOnPath(OperatingSystem.IsWindows() ? "pwsh.exe" : "pwsh") ?? (OperatingSystem.IsWindows() ? "powershell.exe" : "pwsh");
                foreach (var a in new[] { "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File", path }) psi.ArgumentList.Add(a);
                break;
            case ".cmd" or ".bat" when OperatingSystem.IsWindows():
                psi.FileName = "cmd.exe";
                foreach (var a in new[] { "/d", "/c", path }) psi.ArgumentList.Add(a);
                break;
            case ".sh" when !OperatingSystem.IsWindows():
                psi.FileName = "/bin/sh";
                psi.ArgumentList.Add(path);
                break;
            default:
                psi.FileName = path;
                break;
        }
        return psi;
    }

    private static string? FindOnPath(string name)
    {
        foreach (var dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator, StringSplitOptions.RemoveEmptyEntries))
        {
            string candidate = Path.Combine(dir, name);
            if (File.Exists(candidate)) return candidate;
        }
        return null;
    }

    private void Append(string? line)
    {
        if (line is null) return;
        lock (_output)
        {
            if (_output.Length >= OutputLimit) return;
            _output.Append(line.Length + 1 > OutputLimit - _output.Length ? line[..(OutputLimit - _output.Length - 1)] : line).Append('\n');
        }
    }

    /// <summary>Ends the script's part: waits briefly for one that has exited, stops one still running; fills the record.</summary>
    public FaultScriptRun Finish()
    {
        if (_process is null) return Record;
        try
        {
            if (!_process.WaitForExit(TimeSpan.FromSeconds(1)))
            {
                Record.Killed = true;
                try { _process.Kill(entireProcessTree: true); } catch (InvalidOperationException) { /* exited meanwhile */ }
                _process.WaitForExit(TimeSpan.FromSeconds(10));
            }
            if (_process.HasExited)
            {
                _process.WaitForExit(); // the output's last lines
                Record.ExitCode = _process.ExitCode;
                Record.EndedUtc = _process.ExitTime.ToUniversalTime();
            }
        }
        catch (Exception ex) when (ex is InvalidOperationException or System.ComponentModel.Win32Exception)
        {
            Record.Error ??= $"The fault script's end could not be read: {ex.Message}";
        }
        lock (_output) Record.Output = _output.ToString();
        return Record;
    }

    public void Dispose() => _process?.Dispose();
}
