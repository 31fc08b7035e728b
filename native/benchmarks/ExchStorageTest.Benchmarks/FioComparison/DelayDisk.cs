using System.Diagnostics;

namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// A disk whose every read takes a known time: nbdkit's memory plugin behind the delay filter,
/// exposed as a file through nbdfuse. The "latency truth" check measures it with both tools.
/// </summary>
public sealed class DelayDisk : IDisposable
{
    private readonly Process _process;
    private readonly string _mount;

    public DelayDisk(string folder, string readDelay)
    {
        _mount = Path.Combine(folder, "delay-disk");
        Directory.CreateDirectory(_mount);
        FilePath = Path.Combine(_mount, "disk");
        var psi = new ProcessStartInfo("nbdfuse") { RedirectStandardError = true, RedirectStandardOutput = true, UseShellExecute = false };
        foreach (var a in new[] { FilePath, "--command", "nbdkit", "-s", "--exit-with-parent", "--filter=delay", "memory", "64M", $"rdelay={readDelay}" })
            psi.ArgumentList.Add(a);
        _process = Process.Start(psi) ?? throw new InvalidOperationException("Could not start nbdfuse.");
        var sw = Stopwatch.StartNew();
        while (!File.Exists(FilePath) && sw.Elapsed < TimeSpan.FromSeconds(10) && !_process.HasExited) Thread.Sleep(50);
        if (!File.Exists(FilePath))
        {
            string why = _process.HasExited ? _process.StandardError.ReadToEnd() : "timed out";
            Dispose();
            throw new InvalidOperationException("nbdfuse did not expose the delay disk: " + why);
        }
    }

    public static string? Unavailable() =>
        !File.Exists("/usr/bin/nbdkit") ? "nbdkit is not installed"
        : !File.Exists("/usr/bin/nbdfuse") ? "nbdfuse is not installed"
        : !File.Exists("/dev/fuse") ? "/dev/fuse is missing"
        : null;

    public string FilePath { get; }

    public void Dispose()
    {
        try { FioRunner.RunProcess("fusermount3", new[] { "-u", _mount }); }
        catch (Exception) { try { FioRunner.RunProcess("fusermount", new[] { "-u", _mount }); } catch (Exception) { } }
        if (!_process.WaitForExit(5000)) _process.Kill(entireProcessTree: true);
        _process.Dispose();
    }
}
