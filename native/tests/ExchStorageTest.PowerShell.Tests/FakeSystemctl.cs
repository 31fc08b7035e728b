namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Stand-in programs first on PATH for one test: a <c>systemctl</c> that records its arguments (one call a line)
/// and exits with a chosen code, and optionally a <c>pwsh</c>. systemd is not PID 1 on a build host (and a test
/// must never touch the real /etc/systemd), so the commands' systemctl calls are observed through it. Tests in
/// this assembly run one at a time, so changing the process's PATH for the duration of one is safe.
/// </summary>
public sealed class FakeSystemctl : IDisposable
{
    private readonly string? _oldPath;

    public FakeSystemctl(string folder, int exitCode = 0, bool withPwsh = true, bool keepPath = true)
    {
        Folder = Directory.CreateDirectory(folder).FullName;
        Log = Path.Combine(Folder, "systemctl.log");
        Script("systemctl", $"#!/bin/sh\necho \"$*\" >> '{Log}'\n" + (exitCode == 0 ? "exit 0\n" : $"echo \"Failed to enable unit: Unit file not found.\" >&2\nexit {exitCode}\n"));
        if (withPwsh) Pwsh = Script("pwsh", "#!/bin/sh\nexit 0\n");
        _oldPath = Environment.GetEnvironmentVariable("PATH");
        Environment.SetEnvironmentVariable("PATH", keepPath ? Folder + Path.PathSeparator + _oldPath : Folder);
    }

    public string Folder { get; }
    public string Log { get; }
    public string? Pwsh { get; }

    /// <summary>The calls systemctl received, in order.</summary>
    public string[] Calls => File.Exists(Log) ? File.ReadAllLines(Log) : Array.Empty<string>();

    private string Script(string name, string text)
    {
        string path = Path.Combine(Folder, name);
        File.WriteAllText(path, text);
        if (!OperatingSystem.IsWindows()) File.SetUnixFileMode(path, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute | UnixFileMode.GroupRead | UnixFileMode.GroupExecute);
        return path;
    }

    public void Dispose() => Environment.SetEnvironmentVariable("PATH", _oldPath);
}
