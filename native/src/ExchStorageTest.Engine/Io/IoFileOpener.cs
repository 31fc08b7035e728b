using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Protocol;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Io;

/// <summary>
/// Opens test files for direct I/O on the current OS. Where direct I/O is impossible (tmpfs, some
/// FUSE mounts) it refuses with DirectIoUnsupported unless buffered I/O was explicitly allowed.
/// </summary>
public static class IoFileOpener
{
    public const int DefaultAlignment = 4096;

    public static IoFile Open(string path, IoFileMode mode, bool writeThrough, bool allowBuffered)
    {
        if (OperatingSystem.IsWindows()) return Windows.WindowsFileOpener.Open(path, mode, writeThrough, allowBuffered);
        return OpenLinux(path, mode, writeThrough, allowBuffered);
    }

    private static IoFile OpenLinux(string path, IoFileMode mode, bool writeThrough, bool allowBuffered)
    {
        int flags = LibC.O_RDWR | LibC.O_CLOEXEC | (writeThrough ? LibC.O_DSYNC : 0);
        if (mode == IoFileMode.CreateNew) flags |= LibC.O_CREAT | LibC.O_EXCL;
        // tmpfs accepts O_DIRECT since Linux 6.6, but its "device" is the page cache: refuse it like a
        // file system that rejects O_DIRECT. Checked before the open so CreateNew leaves no file behind.
        string fsProbePath = mode == IoFileMode.CreateNew ? (System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path)) ?? "/") : path;
        bool memoryFs = IsMemoryFileSystem(fsProbePath);
        int fd = -1;
        bool direct = !memoryFs;
        if (direct)
        {
            fd = LibC.Open(path, flags | LibC.O_DIRECT, 0b110_100_100);
            if (fd < 0)
            {
                int errno = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
                if (errno != LibC.EINVAL) throw OpenFailure(path, errno);
                direct = false; // EINVAL on open with O_DIRECT: the file system cannot bypass its cache.
            }
        }
        if (!direct)
        {
            if (!allowBuffered)
            {
                throw new EngineException("DirectIoUnsupported", ErrorCategories.InvalidOperation,
                    memoryFs ? MemoryFileSystemRefusal(path) : Refusal(path, "does not support direct (unbuffered) I/O"), path);
            }
            fd = LibC.Open(path, flags, 0b110_100_100);
            if (fd < 0) throw OpenFailure(path, System.Runtime.InteropServices.Marshal.GetLastPInvokeError());
        }
        // Offsets, lengths and buffers follow the device: max(4096, physical block, kernel DIO limits).
        int alignment = DeviceAlignmentProbe.Probe(fd).Effective;
        return new IoFile(path, new SafeFileHandle(fd, ownsHandle: true), direct, writeThrough, alignment);
    }

    /// <summary>True on Linux when <paramref name="path"/> is on tmpfs or ramfs: memory, not storage.</summary>
    public static bool IsMemoryFileSystem(string path) =>
        OperatingSystem.IsLinux() && LibC.FileSystemType(path) is LibC.TMPFS_MAGIC or LibC.RAMFS_MAGIC;

    public static string MemoryFileSystemRefusal(string path) => Refusal(path, "is held in memory (tmpfs/ramfs)");

    private static string Refusal(string path, string why) =>
        $"The file system under '{path}' {why}, so latencies would measure the page cache, not the storage. Use a folder on a real volume, or opt in to buffered I/O (-AllowBufferedIo) and the report will say so.";

    internal static EngineException OpenFailure(string path, int errno)
    {
        string category = errno switch
        {
            LibC.ENOENT => ErrorCategories.ObjectNotFound,
            LibC.EACCES or LibC.EROFS => ErrorCategories.PermissionDenied,
            LibC.ENOSPC => ErrorCategories.ResourceUnavailable,
            LibC.EEXIST => ErrorCategories.ResourceUnavailable,
            _ => ErrorCategories.WriteError,
        };
        string code = errno == LibC.EEXIST ? "FileExists" : "FileOpenFailed";
        return new EngineException(code, category, $"Cannot open '{path}': {LibC.ErrorText(errno)} ({IoErrors.Name(errno)}).", path);
    }
}
