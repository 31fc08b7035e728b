using ExchStorageTest.Engine.Io.Linux;

namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>What the environment offers; each property is null when available, else the reason it is not.</summary>
internal static class Prerequisites
{
    public static string? NotLinux => OperatingSystem.IsLinux() ? null : "Linux only (O_DIRECT, pread, io_uring).";

    public static string? NoIoUring => NotLinux ?? IoUringReason.Value;

    public static string? NotRootWithLoop => NotLinux
        ?? (!IsRoot() ? "Needs root to attach a loop device and mount a file system." : null)
        ?? (FindTool("losetup") is null || FindTool("mkfs.ext4") is null || FindTool("mount") is null ? "losetup, mkfs.ext4 or mount is not installed." : null)
        ?? (!File.Exists("/dev/loop-control") ? "No /dev/loop-control (loop driver missing in this kernel/container)." : null);

    public static string? NoNbdFuse => NotLinux
        ?? (FindTool("nbdkit") is null ? "nbdkit is not installed." : null)
        ?? (FindTool("nbdfuse") is null ? "nbdfuse is not installed." : null)
        ?? (FindTool("fusermount3") is null && FindTool("fusermount") is null ? "fusermount is not installed." : null)
        ?? (!File.Exists("/dev/fuse") ? "No /dev/fuse (FUSE unavailable in this kernel/container)." : null)
        ?? (!HasErrorFilter() ? "nbdkit's error filter is not installed." : null);

    public static string? NoShm => NotLinux ?? (Directory.Exists("/dev/shm") && LibC.FileSystemType("/dev/shm") == LibC.TMPFS_MAGIC ? null : "/dev/shm is not a tmpfs here.");

    private static readonly Lazy<string?> IoUringReason = new(() =>
    {
        int err = IoUringBackend.TryCreate(4, out IoUringBackend? ring);
        ring?.Dispose();
        return err == 0 ? null : $"io_uring_setup failed with errno {err} (disabled, seccomp or old kernel).";
    });

    private static bool IsRoot() => File.ReadAllText("/proc/self/status").Contains("\nUid:\t0\t", StringComparison.Ordinal);

    private static bool HasErrorFilter()
    {
        foreach (string dir in new[] { "/usr/lib/x86_64-linux-gnu/nbdkit/filters", "/usr/lib/aarch64-linux-gnu/nbdkit/filters", "/usr/lib64/nbdkit/filters", "/usr/lib/nbdkit/filters" })
        {
            if (File.Exists(Path.Combine(dir, "nbdkit-error-filter.so"))) return true;
        }
        return false;
    }

    public static string? FindTool(string name)
    {
        foreach (string dir in (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Concat(new[] { "/usr/sbin", "/sbin", "/usr/bin", "/bin" }))
        {
            if (dir.Length == 0) continue;
            string p = Path.Combine(dir, name);
            if (File.Exists(p)) return p;
        }
        return null;
    }
}

/// <summary>A fact that runs only on Linux.</summary>
public sealed class LinuxFactAttribute : FactAttribute
{
    public LinuxFactAttribute() { Skip = Prerequisites.NotLinux; }
}

/// <summary>A theory that runs only on Linux.</summary>
public sealed class LinuxTheoryAttribute : TheoryAttribute
{
    public LinuxTheoryAttribute() { Skip = Prerequisites.NotLinux; }
}

/// <summary>A fact that needs a working io_uring.</summary>
public sealed class IoUringFactAttribute : FactAttribute
{
    public IoUringFactAttribute() { Skip = Prerequisites.NoIoUring; }
}

/// <summary>A fact that needs root and loop devices (tiny file systems for ENOSPC).</summary>
public sealed class RootFactAttribute : FactAttribute
{
    public RootFactAttribute() { Skip = Prerequisites.NotRootWithLoop; }
}

/// <summary>A theory that needs root and loop devices.</summary>
public sealed class RootTheoryAttribute : TheoryAttribute
{
    public RootTheoryAttribute() { Skip = Prerequisites.NotRootWithLoop; }
}

/// <summary>A theory that needs nbdkit (error filter) exposed through nbdfuse, for injected EIO.</summary>
public sealed class NbdkitTheoryAttribute : TheoryAttribute
{
    public NbdkitTheoryAttribute() { Skip = Prerequisites.NoNbdFuse; }
}

/// <summary>A fact that needs /dev/shm as tmpfs.</summary>
public sealed class ShmFactAttribute : FactAttribute
{
    public ShmFactAttribute() { Skip = Prerequisites.NoShm; }
}

/// <summary>A fact that needs nbdkit through nbdfuse and root with loop devices (a file system on a faulty disk).</summary>
public sealed class NbdkitLoopFactAttribute : FactAttribute
{
    public NbdkitLoopFactAttribute() { Skip = Prerequisites.NoNbdFuse ?? Prerequisites.NotRootWithLoop; }
}
