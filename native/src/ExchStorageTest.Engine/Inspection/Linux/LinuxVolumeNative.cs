using System.Runtime.InteropServices;
using System.Runtime.Versioning;

namespace ExchStorageTest.Engine.Inspection.Linux;

/// <summary>The libc calls volume inspection needs beyond what .NET offers (statvfs with f_frsize, realpath).</summary>
[SupportedOSPlatform("linux")]
internal static unsafe partial class LinuxVolumeNative
{
    [LibraryImport("libc", EntryPoint = "statvfs", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int StatVfsNative(string path, byte* buf);

    [LibraryImport("libc", EntryPoint = "realpath", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial nint RealPathNative(string path, byte* resolved);

    [LibraryImport("libc", EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Open(string path, int flags);

    [LibraryImport("libc", EntryPoint = "ioctl", SetLastError = true)]
    private static partial int Ioctl(int fd, nuint request, int* arg);

    [LibraryImport("libc", EntryPoint = "close")]
    private static partial int Close(int fd);

    /// <summary>FS_IOC_GETFLAGS (_IOR('f', 1, long)) on x86-64 and arm64.</summary>
    private const nuint FsIocGetFlags = 0x80086601;
    private const int ORdOnly = 0, ONonBlock = 0x800;

    /// <summary>The inode flags chattr(1) sets (FS_IOC_GETFLAGS); null with errno when the file system has none.</summary>
    public static int? GetInodeFlags(string path, out int errno)
    {
        int fd = Open(path, ORdOnly | ONonBlock);
        if (fd < 0) { errno = Marshal.GetLastPInvokeError(); return null; }
        try
        {
            int flags = 0;
            if (Ioctl(fd, FsIocGetFlags, &flags) != 0) { errno = Marshal.GetLastPInvokeError(); return null; }
            errno = 0;
            return flags;
        }
        finally { Close(fd); }
    }

    /// <summary>statvfs(3); null with errno when it fails.</summary>
    public static StatVfs? GetStatVfs(string path, out int errno)
    {
        // Larger than the 112-byte glibc struct so a libc with more spare fields cannot overrun it.
        byte* buf = stackalloc byte[256];
        new Span<byte>(buf, 256).Clear();
        if (StatVfsNative(path, buf) != 0) { errno = Marshal.GetLastPInvokeError(); return null; }
        errno = 0;
        return StatVfs.Parse(new ReadOnlySpan<byte>(buf, 256));
    }

    /// <summary>realpath(3): the canonical path with every symlink resolved; null when it fails.</summary>
    public static string? RealPath(string path)
    {
        byte* buf = stackalloc byte[4097];
        return RealPathNative(path, buf) == 0 ? null : Marshal.PtrToStringUTF8((nint)buf);
    }
}
