namespace ExchStorageTest.Benchmarks.FioComparison;

/// <summary>
/// A RAM-backed block device for the comparison: a file in /dev/shm on a loop device, ext4, mounted
/// under /var/tmp. It takes the virtual disk's own noise away, so what is left is the tools' own cost.
/// Everything it made is removed on dispose (the image, the loop device, the mount point).
/// </summary>
public sealed class RamVolume : IDisposable
{
    private readonly string _image;
    private string? _loop;
    private bool _mounted;

    /// <summary>
    /// EXCHSTORAGETEST_BENCH_VOLUMES=dir:&lt;folder&gt; makes each "volume" a plain directory under that folder
    /// (e.g. dir:/dev/shm) instead of ext4 on a loop device: for hosts without loop devices or mount (a
    /// sandbox). The results then describe that folder's file system, which <see cref="Description"/> says.
    /// </summary>
    private static string? DirectoryParent =>
        System.Environment.GetEnvironmentVariable("EXCHSTORAGETEST_BENCH_VOLUMES") is { } v && v.StartsWith("dir:", StringComparison.Ordinal) ? v[4..] : null;

    /// <summary>
    /// EXCHSTORAGETEST_BENCH_BUFFERED=1 (with dir:, for a folder on tmpfs, where unbuffered I/O is refused): the
    /// engine runs with allowBufferedIo, and the label says so.
    /// </summary>
    public static bool Buffered => DirectoryParent is not null && System.Environment.GetEnvironmentVariable("EXCHSTORAGETEST_BENCH_BUFFERED") == "1";

    /// <summary>What a volume is in this run, for the report's labels.</summary>
    public static string Description => DirectoryParent is { } parent
        ? $"a plain directory under {parent} (EXCHSTORAGETEST_BENCH_VOLUMES; no loop device{(Buffered ? "; BUFFERED I/O, allowBufferedIo" : "")})"
        : "ext4 on a loop device over a /dev/shm file";

    public RamVolume(string name, long bytes)
    {
        // The process id keeps two benches on one machine apart.
        _image = $"/dev/shm/est-bench-{name}-{System.Environment.ProcessId}.img";
        if (DirectoryParent is { } parent)
        {
            MountPoint = Path.Combine(parent, $"est-bench-{name}-{System.Environment.ProcessId}");
            Directory.CreateDirectory(MountPoint);
            return;
        }
        MountPoint = $"/var/tmp/est-bench-{name}-{System.Environment.ProcessId}";
        try
        {
            // Allocated up front (posix_fallocate), so no measurement pays tmpfs's first-touch page allocation.
            // The preallocation reserves the pages but leaves the length at 0 (a zero-size loop device, which mkfs
            // refuses), so the length is set too.
            using (var image = new FileStream(_image, new FileStreamOptions { Mode = FileMode.CreateNew, Access = FileAccess.ReadWrite, PreallocationSize = bytes }))
                image.SetLength(bytes);
            // Inode tables and journal initialised now, not by ext4lazyinit in the background of a measurement.
            // Made on the image before it is attached: a loop device just attached on a busy machine (other
            // loop devices coming and going) can still report size 0 to mkfs.
            FioRunner.RunProcess("mkfs.ext4", new[] { "-q", "-F", "-m", "0", "-E", "lazy_itable_init=0,lazy_journal_init=0", _image });
            _loop = FioRunner.RunProcess("losetup", new[] { "-f", "--show", _image }).Trim();
            Directory.CreateDirectory(MountPoint);
            FioRunner.RunProcess("mount", new[] { _loop, MountPoint });
            _mounted = true;
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public string MountPoint { get; }

    /// <summary>Why no RAM volume can be built here, or null.</summary>
    public static string? Unavailable() =>
        !OperatingSystem.IsLinux() ? "Linux only"
        : DirectoryParent is { } parent ? (Directory.Exists(parent) ? null : $"EXCHSTORAGETEST_BENCH_VOLUMES names {parent}, which does not exist")
        : !File.ReadAllText("/proc/self/status").Contains("\nUid:\t0\t", StringComparison.Ordinal) ? "needs root (losetup, mount)"
        : !Directory.Exists("/dev/shm") ? "no /dev/shm"
        : !File.Exists("/dev/loop-control") ? "no loop driver"
        : null;

    public void Dispose()
    {
        if (_mounted)
        {
            try { FioRunner.RunProcess("umount", new[] { MountPoint }); _mounted = false; }
            catch (InvalidOperationException) { try { FioRunner.RunProcess("umount", new[] { "-l", MountPoint }); } catch (InvalidOperationException) { } }
        }
        if (_loop is not null) { try { FioRunner.RunProcess("losetup", new[] { "-d", _loop }); } catch (InvalidOperationException) { } }
        try { if (Directory.Exists(MountPoint)) Directory.Delete(MountPoint, recursive: true); } catch (IOException) { }
        try { File.Delete(_image); } catch (IOException) { }
    }
}
