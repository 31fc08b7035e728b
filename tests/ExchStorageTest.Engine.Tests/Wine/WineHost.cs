using System.Diagnostics;
using System.Text.Json;

namespace ExchStorageTest.Engine.Tests.Wine;

/// <summary>
/// What the Wine suite needs: Debian's wine64 and the published win-x64 engine. Each property is
/// null when available, else the reason the suite is skipped.
/// </summary>
internal static class WinePrerequisites
{
    public const string Wine64 = "/usr/lib/wine/wine64";

    /// <summary>The repository root (holds build.sh), found upwards from the test binaries.</summary>
    public static readonly string? RepositoryRoot = FindRoot();

    public static string EnginePath => Path.Combine(RepositoryRoot ?? "", "bin", "win-x64", "exchstoragetest-engine.exe");

    public static string? Missing => Reason.Value;

    private static readonly Lazy<string?> Reason = new(() =>
    {
        if (!OperatingSystem.IsLinux() || System.Runtime.InteropServices.RuntimeInformation.ProcessArchitecture != System.Runtime.InteropServices.Architecture.X64)
            return "The Wine suite runs on Linux x86-64 (Debian's wine64).";
        if (!File.Exists(Wine64)) return $"{Wine64} is not installed: apt-get install wine64 (.ci/run installs it).";
        if (RepositoryRoot is null) return "The repository root (build.sh) was not found above the test binaries.";
        if (!File.Exists(EnginePath)) return $"{EnginePath} is not published: ./build.sh Build publishes the win-x64 engine (it needs the win-x64 runtime packs).";
        return Stale();
    });

    /// <summary>A published engine older than its sources would test old code: republish it once, or say why not.</summary>
    private static string? Stale()
    {
        string src = Path.Combine(RepositoryRoot!, "native", "src");
        DateTime newest = Directory.EnumerateFiles(src, "*.cs*", SearchOption.AllDirectories)
            .Where(f => !f.Contains($"{Path.DirectorySeparatorChar}obj{Path.DirectorySeparatorChar}") && !f.Contains($"{Path.DirectorySeparatorChar}bin{Path.DirectorySeparatorChar}"))
            .Max(File.GetLastWriteTimeUtc);
        string engine = Path.Combine(Path.GetDirectoryName(EnginePath)!, "ExchStorageTest.Engine.dll");
        if (File.Exists(engine) && File.GetLastWriteTimeUtc(engine) >= newest) return null;
        var psi = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, WorkingDirectory = RepositoryRoot! };
        foreach (var a in new[] { "publish", "native/src/ExchStorageTest.Engine.Cli/ExchStorageTest.Engine.Cli.csproj", "-c", "Release", "-r", "win-x64", "--self-contained", "-o", "bin/win-x64", "--nologo", "-v", "quiet" })
            psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        var err = p.StandardError.ReadToEndAsync();
        string output = p.StandardOutput.ReadToEnd();
        p.WaitForExit();
        return p.ExitCode == 0 ? null : $"bin/win-x64 is older than the sources and republishing it failed: {(output + err.Result).Trim()}";
    }

    private static string? FindRoot()
    {
        for (var d = new DirectoryInfo(AppContext.BaseDirectory); d is not null; d = d.Parent)
            if (File.Exists(Path.Combine(d.FullName, "build.sh")) && Directory.Exists(Path.Combine(d.FullName, "native"))) return d.FullName;
        return null;
    }
}

/// <summary>A fact that runs the win-x64 engine under Wine; skipped, with the reason, where it cannot.</summary>
public sealed class WineFactAttribute : FactAttribute
{
    public WineFactAttribute(bool needsRoot = false)
    {
        Skip = WinePrerequisites.Missing ?? (needsRoot && !IsRoot() ? "Needs root to bind-mount a read-only folder." : null);
    }

    private static bool IsRoot() => File.ReadAllText("/proc/self/status").Contains("\nUid:\t0\t", StringComparison.Ordinal);
}

/// <summary>A theory that runs the win-x64 engine under Wine.</summary>
public sealed class WineTheoryAttribute : TheoryAttribute
{
    public WineTheoryAttribute() { Skip = WinePrerequisites.Missing; }
}

/// <summary>One engine process under Wine: exit code, the JSON Lines events, stderr, and whether it had to be killed.</summary>
public sealed record WineRun(int Exit, List<JsonElement> Events, string StdErr, bool TimedOut)
{
    public IEnumerable<JsonElement> OfType(string type) => Events.Where(e => e.GetProperty("type").GetString() == type);

    public JsonElement Single(string type) => OfType(type).Single();

    public IEnumerable<string> Logs(string level) =>
        OfType("log").Where(e => e.GetProperty("level").GetString() == level).Select(e => e.GetProperty("message").GetString()!);
}

/// <summary>
/// The suite's Wine session: its own prefix (not ~/.wine) under a scratch folder, created once
/// for the run (the first start of Wine builds it, which is slow), WINEDEBUG=-all, and wineserver
/// shut down with that prefix at the end so nothing lingers after the tests.
/// </summary>
public sealed class WineSession : IDisposable
{
    private readonly string _root;

    public WineSession()
    {
        _root = Path.Combine("/var/tmp", $"exst-wine-{Environment.ProcessId}-{Guid.NewGuid():N}"[..30]);
        Prefix = Path.Combine(_root, "prefix");
        if (WinePrerequisites.Missing is not null) return;
        Directory.CreateDirectory(_root);
        // Builds the prefix and proves the engine starts; later runs take about a second.
        var hello = Run("{\"protocol\":1,\"command\":\"version\"}", _root, TimeSpan.FromMinutes(5));
        Started = hello.Exit == 0 && hello.OfType("hello").Any();
        StartFailure = Started ? null : $"The engine did not start under Wine (exit {hello.Exit}, timed out: {hello.TimedOut}): {hello.StdErr}";
    }

    public string Prefix { get; }
    public bool Started { get; }
    public string? StartFailure { get; }

    /// <summary>The path Wine's Z: drive gives a Linux path.</summary>
    public static string WinPath(string linuxPath) => "Z:" + linuxPath.Replace('/', '\\');

    /// <summary>The Linux path of a Z: path the engine reported.</summary>
    public static string LinuxPath(string winPath) =>
        winPath.StartsWith("Z:", StringComparison.OrdinalIgnoreCase) ? winPath[2..].Replace('\\', '/') : throw new ArgumentException($"Not a Z: path: {winPath}");

    /// <summary>Runs the engine with <paramref name="request"/> (written to a file in <paramref name="folder"/>); kills it after <paramref name="timeout"/>.</summary>
    public WineRun Run(string request, string folder, TimeSpan timeout)
    {
        string file = Path.Combine(folder, $"request-{Guid.NewGuid():N}.json");
        File.WriteAllText(file, request);
        var psi = new ProcessStartInfo(WinePrerequisites.Wine64)
        {
            RedirectStandardOutput = true, RedirectStandardError = true, RedirectStandardInput = true, UseShellExecute = false,
        };
        psi.ArgumentList.Add(WinePrerequisites.EnginePath);
        psi.ArgumentList.Add("--request");
        psi.ArgumentList.Add(WinPath(file));
        SetEnvironment(psi);
        using var p = Process.Start(psi)!;
        p.StandardInput.Close();
        var stderr = p.StandardError.ReadToEndAsync();
        var stdout = p.StandardOutput.ReadToEndAsync();
        bool exited = p.WaitForExit(timeout);
        if (!exited)
        {
            try { p.Kill(entireProcessTree: true); } catch (InvalidOperationException) { }
            p.WaitForExit();
        }
        var events = new List<JsonElement>();
        foreach (var line in stdout.Result.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            events.Add(JsonDocument.Parse(line).RootElement.Clone());
        return new WineRun(exited ? p.ExitCode : -1, events, stderr.Result, !exited);
    }

    private void SetEnvironment(ProcessStartInfo psi)
    {
        // The self-contained engine must not pick up the test host's .NET settings.
        foreach (var key in psi.Environment.Keys.Where(k => k.StartsWith("DOTNET_", StringComparison.Ordinal) || k.StartsWith("COREHOST", StringComparison.Ordinal)).ToList())
            psi.Environment.Remove(key);
        psi.Environment["WINEPREFIX"] = Prefix;
        psi.Environment["WINEDEBUG"] = "-all";
        psi.Environment.Remove("DISPLAY"); // no installer dialogs while the prefix is built
        // Not WINEDLLOVERRIDES=mscoree=: Wine's loader needs mscoree to map the engine's IL assemblies.
    }

    public void Dispose()
    {
        if (!Directory.Exists(_root)) return;
        string server = File.Exists("/usr/lib/wine/wineserver64") ? "/usr/lib/wine/wineserver64" : "/usr/lib/wine/wineserver";
        if (File.Exists(server))
        {
            var psi = new ProcessStartInfo(server) { UseShellExecute = false, RedirectStandardError = true, RedirectStandardOutput = true };
            psi.ArgumentList.Add("-k");
            SetEnvironment(psi);
            using var p = Process.Start(psi)!;
            p.WaitForExit(30000);
            psi.ArgumentList.Clear();
            psi.ArgumentList.Add("-w"); // waits until the server has gone, so the prefix can be removed
            using var w = Process.Start(psi)!;
            w.WaitForExit(30000);
        }
        // dosdevices holds links to / (z:) and drive_c: remove the links themselves first, never their targets.
        string devices = Path.Combine(Prefix, "dosdevices");
        if (Directory.Exists(devices))
            foreach (var link in new DirectoryInfo(devices).EnumerateFileSystemInfos())
                if (link.LinkTarget is not null) link.Delete();
        for (int attempt = 0; attempt < 5 && Directory.Exists(_root); attempt++)
        {
            try { Directory.Delete(_root, recursive: true); }
            catch (IOException) { Thread.Sleep(500); } // wineserver may still be saving the registry
            catch (UnauthorizedAccessException) { break; }
        }
    }
}

[CollectionDefinition(Name)]
public sealed class WineCollection : ICollectionFixture<WineSession>
{
    public const string Name = "Wine";
}
