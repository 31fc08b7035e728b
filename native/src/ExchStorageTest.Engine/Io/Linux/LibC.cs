using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>
/// The few libc calls the Linux I/O path needs. Flag values are the asm-generic ones shared by
/// x86-64 and arm64, except O_DIRECT, which arm64 (like arm) defines as 0x10000 because 0x4000 is
/// O_DIRECTORY there.
/// </summary>
internal static unsafe partial class LibC
{
    public const int O_RDONLY = 0x0;
    public const int O_WRONLY = 0x1;
    public const int O_RDWR = 0x2;
    public const int O_CREAT = 0x40;
    public const int O_EXCL = 0x80;
    public const int O_DSYNC = 0x1000;
    public static readonly int O_DIRECT =
        RuntimeInformation.ProcessArchitecture is Architecture.Arm64 or Architecture.Arm ? 0x10000 : 0x4000;
    public const int O_CLOEXEC = 0x80000;

    public const int PROT_READ = 0x1;
    public const int PROT_WRITE = 0x2;
    public const int MAP_SHARED = 0x01;
    public const int MAP_POPULATE = 0x8000;
    public static readonly nint MAP_FAILED = -1;

    public const int AT_FDCWD = -100;
    public const int AT_EMPTY_PATH = 0x1000;
    public const uint STATX_BASIC_STATS = 0x7ff;
    public const uint STATX_DIOALIGN = 0x2000;

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
    public const int EBUSY = 16;
    public const int EPERM = 1;
    public const int ENOSYS = 38;
    public const int ETIME = 62;
    public const int ENOMEM = 12;
    public const int EMFILE = 24;

    /// <summary>RLIMIT_MEMLOCK (asm-generic, x86-64 and arm64).</summary>
    public const int RLIMIT_MEMLOCK = 8;
    public const ulong RLIM_INFINITY = ulong.MaxValue;

    /// <summary>getrlimit(2): <paramref name="limits"/> receives rlim_cur then rlim_max.</summary>
    [LibraryImport("libc", EntryPoint = "getrlimit", SetLastError = true)]
    public static partial int GetRLimit(int resource, ulong* limits);

    [LibraryImport("libc", EntryPoint = "open", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    public static partial int Open(string path, int flags, int mode);

    [LibraryImport("libc", EntryPoint = "close", SetLastError = true)]
    public static partial int Close(int fd);

    [LibraryImport("libc", EntryPoint = "unlink", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    public static partial int Unlink(string path);

    [LibraryImport("libc", EntryPoint = "pread", SetLastError = true)]
    public static partial nint PRead(int fd, void* buf, nuint count, long offset);

    [LibraryImport("libc", EntryPoint = "pwrite", SetLastError = true)]
    public static partial nint PWrite(int fd, void* buf, nuint count, long offset);

    /// <summary>pid 0 = the calling thread (Linux affinity is per thread).</summary>
    [LibraryImport("libc", EntryPoint = "sched_getaffinity", SetLastError = true)]
    public static partial int SchedGetAffinity(int pid, nuint size, byte* mask);

    [LibraryImport("libc", EntryPoint = "sched_setaffinity", SetLastError = true)]
    public static partial int SchedSetAffinity(int pid, nuint size, byte* mask);

    [LibraryImport("libc", EntryPoint = "fsync", SetLastError = true)]
    public static partial int FSync(int fd);

    [LibraryImport("libc", EntryPoint = "fallocate", SetLastError = true)]
    public static partial int FAllocate(int fd, int mode, long offset, long len);

    [LibraryImport("libc", EntryPoint = "ftruncate", SetLastError = true)]
    public static partial int FTruncate(int fd, long length);

    [LibraryImport("libc", EntryPoint = "syscall", SetLastError = true)]
    public static partial long Syscall(long number, long a1, long a2, long a3, long a4, long a5, long a6);

    [LibraryImport("libc", EntryPoint = "mmap", SetLastError = true)]
    public static partial nint Mmap(nint addr, nuint length, int prot, int flags, int fd, long offset);

    [LibraryImport("libc", EntryPoint = "munmap", SetLastError = true)]
    public static partial int Munmap(nint addr, nuint length);

    /// <summary>statx(2) (glibc 2.28+); <paramref name="buffer"/> is a <see cref="Statx"/>.</summary>
    [LibraryImport("libc", EntryPoint = "statx", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    public static partial int StatxCall(int dirfd, string path, int flags, uint mask, Statx* buffer);

    /// <summary>statfs(2); <paramref name="buffer"/> must hold a struct statfs (120 bytes on 64-bit), f_type first.</summary>
    [LibraryImport("libc", EntryPoint = "statfs", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    public static partial int StatFs(string path, void* buffer);

    public const long TMPFS_MAGIC = 0x01021994;
    public const long RAMFS_MAGIC = unchecked((long)0x858458f6);

    /// <summary>The f_type of the file system holding <paramref name="path"/>, or 0 if it cannot be read.</summary>
    public static long FileSystemType(string path)
    {
        long* buffer = stackalloc long[32]; // 256 bytes, more than any 64-bit struct statfs
        return StatFs(path, buffer) == 0 ? buffer[0] : 0;
    }

    [LibraryImport("libc", EntryPoint = "strerror")]
    public static partial nint StrError(int errnum);

    public static string ErrorText(int errno) => Marshal.PtrToStringUTF8(StrError(errno)) ?? $"errno {errno}";
}

/// <summary>struct statx (linux/stat.h), 256 bytes; only the fields read here are named.</summary>
[StructLayout(LayoutKind.Explicit, Size = 256)]
internal struct Statx
{
    [FieldOffset(0)] public uint Mask;
    [FieldOffset(4)] public uint BlockSize;
    [FieldOffset(32)] public ulong Inode;
    [FieldOffset(40)] public ulong Size;
    [FieldOffset(136)] public uint DevMajor;
    [FieldOffset(140)] public uint DevMinor;
    [FieldOffset(152)] public uint DioMemAlign;
    [FieldOffset(156)] public uint DioOffsetAlign;
}
