using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>The few libc calls the Linux I/O path needs. x86-64/arm64 flag values.</summary>
internal static unsafe partial class LibC
{
    public const int O_RDONLY = 0x0;
    public const int O_RDWR = 0x2;
    public const int O_CREAT = 0x40;
    public const int O_EXCL = 0x80;
    public const int O_DSYNC = 0x1000;
    public const int O_DIRECT = 0x4000;
    public const int O_CLOEXEC = 0x80000;

    public const int EINTR = 4;
    public const int EIO = 5;
    public const int EAGAIN = 11;
    public const int ENOENT = 2;
    public const int EACCES = 13;
    public const int EEXIST = 17;
    public const int EINVAL = 22;
    public const int ENOSPC = 28;
    public const int EROFS = 30;
    public const int EOPNOTSUPP = 95;

    [LibraryImport("libc", EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    public static partial int Open(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "pread", SetLastError = true)]
    public static partial nint PRead(int fd, void* buf, nuint count, long offset);

    [LibraryImport("libc", EntryPoint = "pwrite", SetLastError = true)]
    public static partial nint PWrite(int fd, void* buf, nuint count, long offset);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    public static partial int FSync(int fd);

    [LibraryImport("libc", EntryPoint = "fallocate", SetLastError = true)]
    public static partial int FAllocate(int fd, int mode, long offset, long len);

    [LibraryImport("libc", EntryPoint = "ftruncate", SetLastError = true)]
    public static partial int FTruncate(int fd, long length);

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    public static partial long Syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6);

    [LibraryImport("libc", EntryPoint = "strerror")]
    public static partial nint StrError(int errnum);

    public static string ErrorText(int errno) => Marshal.PtrToStringUTF8(StrError(errno)) ?? $"errno {errno}";
}
