using System.Diagnostics;
using System.Text;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>Drives a backend the way a worker does: queue to depth, submit, reap.</summary>
internal static class BackendDriver
{
    /// <summary>
    /// Runs <paramref name="count"/> I/Os of <paramref name="blockSize"/> each at block i, using a
    /// private buffer per block (buffers[i]); returns every completion's Result indexed by block.
    /// </summary>
    public static int[] RunAll(IIoBackend backend, IoFile file, IoOperation op, AlignedBuffer buffers, int count, int blockSize, long baseOffset = 0)
    {
        var results = new int[count];
        Span<IoCompletion> done = stackalloc IoCompletion[64];
        int next = 0, finished = 0, inFlight = 0;
        var sw = Stopwatch.StartNew();
        while (finished < count)
        {
            while (next < count && backend.TryQueue(new IoRequest(file.RawHandle, op, baseOffset + (long)next * blockSize, blockSize, buffers.Address + next * blockSize, (ulong)next)))
            {
                next++;
                inFlight++;
            }
            backend.Submit();
            int n = backend.Reap(done, 1, 5000);
            for (int i = 0; i < n; i++)
            {
                results[(int)done[i].UserData] = done[i].Result;
                finished++;
                inFlight--;
            }
            if (sw.Elapsed > TimeSpan.FromSeconds(30)) throw new TimeoutException($"{backend.Name}: {finished}/{count} I/Os finished after 30 s.");
        }
        return results;
    }

    public static void Fill(Span<byte> block, int blockIndex, int seed)
    {
        for (int i = 0; i < block.Length; i++) block[i] = (byte)(blockIndex * 31 + i * 7 + seed);
    }
}

/// <summary>Runs a tool and fails the test with its output when it fails.</summary>
internal static class Tool
{
    public static string Run(string file, params string[] args)
    {
        var psi = new ProcessStartInfo(Prerequisites.FindTool(file) ?? file) { RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (string a in args) psi.ArgumentList.Add(a);
        using Process p = Process.Start(psi)!;
        var stdoutTask = p.StandardOutput.ReadToEndAsync();
        var stderrTask = p.StandardError.ReadToEndAsync();
        // A tool stuck on a faulty disk must fail the test, not hang the suite.
        if (!p.WaitForExit(120_000))
        {
            p.Kill(entireProcessTree: true);
            throw new InvalidOperationException($"{file} {string.Join(' ', args)} did not finish within 120 s.");
        }
        string stdout = stdoutTask.Result;
        string stderr = stderrTask.Result;
        if (p.ExitCode != 0) throw new InvalidOperationException($"{file} {string.Join(' ', args)} exited {p.ExitCode}: {stderr}{stdout}");
        return stdout;
    }
}

/// <summary>An nbdkit export exposed as a file through nbdfuse (FUSE); unmounted on dispose.</summary>
internal sealed class NbdFuseDisk : IDisposable
{
    private readonly Process _process;
    private readonly string _mount;
    private readonly StringBuilder _log = new();

    /// <param name="dir">Where the FUSE mount point is made.</param>
    /// <param name="nbdkitArgs">Plugin, filters and parameters, e.g. "--filter=error", "memory", "16M", "error-rate=100%".</param>
    public NbdFuseDisk(TestFolder dir, params string[] nbdkitArgs)
    {
        _mount = dir.Combine("nbd");
        Directory.CreateDirectory(_mount);
        FilePath = Path.Combine(_mount, "disk");
        var psi = new ProcessStartInfo(Prerequisites.FindTool("nbdfuse")!) { RedirectStandardError = true, RedirectStandardOutput = true };
        psi.ArgumentList.Add(FilePath);
        psi.ArgumentList.Add("--command");
        psi.ArgumentList.Add("nbdkit");
        psi.ArgumentList.Add("-s");
        psi.ArgumentList.Add("--exit-with-parent");
        foreach (string a in nbdkitArgs) psi.ArgumentList.Add(a);
        _process = Process.Start(psi)!;
        // nbdkit's error filter logs every injected error: both pipes are drained as they fill, or nbdkit
        // blocks on a full pipe mid-request and every I/O on the disk hangs in D state.
        _process.OutputDataReceived += (_, e) => Keep(e.Data);
        _process.ErrorDataReceived += (_, e) => Keep(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        var sw = Stopwatch.StartNew();
        while (!File.Exists(FilePath) && sw.Elapsed < TimeSpan.FromSeconds(10) && !_process.HasExited) Thread.Sleep(50);
        if (!File.Exists(FilePath))
        {
            string why = _process.HasExited ? Log : "timeout";
            Dispose();
            throw new InvalidOperationException("nbdfuse did not expose the disk: " + why);
        }
    }

    public string FilePath { get; }

    /// <summary>What nbdfuse and nbdkit printed (the first lines only).</summary>
    public string Log
    {
        get { lock (_log) return _log.ToString(); }
    }

    private void Keep(string? line)
    {
        if (line is null) return;
        lock (_log)
            if (_log.Length < 16_384) _log.AppendLine(line);
    }

    public void Dispose()
    {
        string fusermount = Prerequisites.FindTool("fusermount3") ?? Prerequisites.FindTool("fusermount")!;
        try { Tool.Run(fusermount, "-u", _mount); } catch (InvalidOperationException) { }
        if (!_process.WaitForExit(5000)) _process.Kill(entireProcessTree: true);
        _process.Dispose();
    }
}
