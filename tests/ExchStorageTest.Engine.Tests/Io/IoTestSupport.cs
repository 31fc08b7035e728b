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

/// <summary>
/// An nbdkit export exposed as a file through nbdfuse (FUSE); unmounted on dispose, and when the test process
/// stops with the disk still mounted.
/// </summary>
internal sealed class NbdFuseDisk : IDisposable
{
    /// <summary>How long a busy mount (its export still open, e.g. by a loop device being detached) is retried.</summary>
    private static readonly TimeSpan BusyWait = TimeSpan.FromSeconds(5);

    /// <summary>The disks still mounted, for a test process that stops before disposing them.</summary>
    private static readonly HashSet<NbdFuseDisk> Mounted = new();

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
        // The disk's server at a high CPU priority (nice -10, inherited by nbdkit; root only, as the rigs that mount it
        // are: nice runs it at the usual priority where it may not raise it): the rig is the storage under test, and its
        // delays and rate limits must not stretch when the machine's other jobs keep its CPUs busy.
        string? nice = Prerequisites.FindTool("nice");
        var psi = new ProcessStartInfo(nice ?? Prerequisites.FindTool("nbdfuse")!) { RedirectStandardError = true, RedirectStandardOutput = true };
        if (nice is not null)
        {
            psi.ArgumentList.Add("-n");
            psi.ArgumentList.Add("-10");
            psi.ArgumentList.Add(Prerequisites.FindTool("nbdfuse")!);
        }
        psi.ArgumentList.Add(FilePath);
        psi.ArgumentList.Add("--command");
        psi.ArgumentList.Add("nbdkit");
        psi.ArgumentList.Add("-s");
        psi.ArgumentList.Add("--exit-with-parent");
        foreach (string a in nbdkitArgs) psi.ArgumentList.Add(a);
        _process = Process.Start(psi)!;
        lock (Mounted) Mounted.Add(this);
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

    static NbdFuseDisk()
    {
        // The test host stopping (Ctrl+C, SIGTERM, the run ending with a rig not disposed) kills nbdfuse with it,
        // and the kernel keeps a dead FUSE mount: what is still mounted is unmounted first.
        AppDomain.CurrentDomain.ProcessExit += (_, _) =>
        {
            NbdFuseDisk[] left;
            lock (Mounted) left = Mounted.ToArray();
            foreach (var disk in left)
                try { disk.Dispose(); } catch (InvalidOperationException) { }
        };
    }

    public void Dispose()
    {
        lock (Mounted)
            if (!Mounted.Remove(this)) return;
        try { Unmount(_mount); }
        finally
        {
            if (!_process.WaitForExit(5000)) _process.Kill(entireProcessTree: true);
            _process.Dispose();
        }
    }

    /// <summary>
    /// Takes the mount point out of the mount table before nbdfuse is stopped: a FUSE mount whose daemon is
    /// killed stays behind, dead, and its folder cannot be removed. fusermount refuses while the export is open
    /// (a loop device the kernel has not yet let go of), so it is retried, then the mount is detached lazily;
    /// the kernel ends it, and nbdfuse exits, when the last user closes the export.
    /// </summary>
    private static void Unmount(string mount)
    {
        string fusermount = Prerequisites.FindTool("fusermount3") ?? Prerequisites.FindTool("fusermount")!;
        var waited = Stopwatch.StartNew();
        while (MountTable.IsMounted(mount))
        {
            if (waited.Elapsed > BusyWait)
            {
                Tool.Run("umount", "-l", mount);
                return;
            }
            try { Tool.Run(fusermount, "-u", mount); }
            catch (InvalidOperationException) { Thread.Sleep(100); }
        }
    }
}
