using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// The Win32 calls the Windows I/O path needs. Declared with LibraryImport so the stubs compile on
/// every OS; they are only ever called behind OperatingSystem.IsWindows().
/// </summary>
internal static unsafe partial class Kernel32
{
    public const uint GENERIC_READ = 0x80000000;
    public const uint GENERIC_WRITE = 0x40000000;
    public const uint DELETE = 0x00010000;
    public const uint FILE_SHARE_READ = 0x1;
    public const uint FILE_SHARE_WRITE = 0x2;
    public const uint FILE_SHARE_DELETE = 0x4;
    public const uint CREATE_NEW = 1;
    public const uint OPEN_EXISTING = 3;
    public const uint OPEN_ALWAYS = 4;
    public const uint FILE_ATTRIBUTE_NORMAL = 0x80;
    public const uint FILE_ATTRIBUTE_HIDDEN = 0x2;
    public const uint FILE_FLAG_DELETE_ON_CLOSE = 0x04000000;
    public const uint FILE_FLAG_WRITE_THROUGH = 0x80000000;
    public const uint FILE_FLAG_OVERLAPPED = 0x40000000;
    public const uint FILE_FLAG_NO_BUFFERING = 0x20000000;

    public const int ERROR_FILE_NOT_FOUND = 2;
    public const int ERROR_PATH_NOT_FOUND = 3;
    public const int ERROR_ACCESS_DENIED = 5;
    public const int ERROR_INVALID_HANDLE = 6;
    public const int ERROR_NOT_READY = 21;
    public const int ERROR_WRITE_PROTECT = 19;
    public const int ERROR_CRC = 23;
    public const int ERROR_SHARING_VIOLATION = 32;
    public const int ERROR_HANDLE_EOF = 38;
    public const int ERROR_FILE_EXISTS = 80;
    public const int ERROR_INVALID_PARAMETER = 87;
    public const int ERROR_DISK_FULL = 112;
    public const int ERROR_INVALID_NAME = 123;
    public const int ERROR_ALREADY_EXISTS = 183;
    public const int WAIT_TIMEOUT = 258;
    public const int ERROR_MR_MID_NOT_FOUND = 317;
    public const int ERROR_OPERATION_ABORTED = 995;
    public const int ERROR_IO_PENDING = 997;
    public const int ERROR_IO_DEVICE = 1117;
    public const uint INFINITE = 0xFFFFFFFF;

    public const int FileStorageInfo = 16;
    public const int FileAllocationInfo = 5;
    public const int ERROR_PRIVILEGE_NOT_HELD = 1314;
    public const int ERROR_NOT_ALL_ASSIGNED = 1300;

    public const ushort ALL_PROCESSOR_GROUPS = 0xFFFF;

    public const byte FILE_SKIP_COMPLETION_PORT_ON_SUCCESS = 0x1;
    public const byte FILE_SKIP_SET_EVENT_ON_HANDLE = 0x2;

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool SetFileCompletionNotificationModes(nint file, byte flags);

    [LibraryImport("kernel32.dll")]
    public static partial ushort GetActiveProcessorGroupCount();

    [LibraryImport("kernel32.dll")]
    public static partial uint GetActiveProcessorCount(ushort group);

    [LibraryImport("kernel32.dll")]
    public static partial nint GetCurrentThread();

    public const uint THREAD_QUERY_LIMITED_INFORMATION = 0x0800;

    /// <summary>The thread's times in 100 ns units (FILETIMEs read as 64-bit integers): creation, exit, kernel, user.</summary>
    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetThreadTimes(nint thread, long* creation, long* exit, long* kernel, long* user);

    /// <summary>Every CPU's idle, kernel (idle included) and user time since boot, 100 ns units.</summary>
    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetSystemTimes(long* idle, long* kernel, long* user);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool SetThreadGroupAffinity(nint thread, GroupAffinity* affinity, GroupAffinity* previous);

    /// <summary>CreateFileW, a long path given its \\?\ prefix first (<see cref="Planning.PathNames.ForWin32"/>).</summary>
    public static SafeFileHandle CreateFile(string name, uint access, uint share, nint securityAttributes, uint disposition, uint flags, nint template) =>
        CreateFileW(Planning.PathNames.ForWin32(name), access, share, securityAttributes, disposition, flags, template);

    [LibraryImport("kernel32.dll", EntryPoint = "CreateFileW", StringMarshalling = StringMarshalling.Utf16, SetLastError = true)]
    private static partial SafeFileHandle CreateFileW(string name, uint access, uint share, nint securityAttributes, uint disposition, uint flags, nint template);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    public static partial nint CreateIoCompletionPort(nint fileHandle, nint existingPort, nuint completionKey, uint concurrentThreads);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool ReadFile(nint file, void* buffer, uint count, uint* transferred, Win32Overlapped* overlapped);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool WriteFile(nint file, void* buffer, uint count, uint* transferred, Win32Overlapped* overlapped);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetQueuedCompletionStatusEx(nint port, OverlappedEntry* entries, uint count, out uint removed, uint timeoutMs, [MarshalAs(UnmanagedType.Bool)] bool alertable);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool CancelIoEx(nint file, Win32Overlapped* overlapped);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool CloseHandle(nint handle);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool GetFileInformationByHandleEx(SafeFileHandle file, int infoClass, void* info, uint size);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool FlushFileBuffers(SafeFileHandle file);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool SetFileInformationByHandle(SafeFileHandle file, int infoClass, void* info, uint size);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    [return: MarshalAs(UnmanagedType.Bool)]
    public static partial bool SetFileValidData(SafeFileHandle file, long validDataLength);

    [LibraryImport("kernel32.dll")]
    public static partial nint GetCurrentProcess();

    [LibraryImport("ntdll.dll")]
    public static partial uint RtlNtStatusToDosError(int status);

    public const uint SYNCHRONIZE = 0x00100000;
    public const uint WAIT_OBJECT_0 = 0;

    [LibraryImport("kernel32.dll")]
    public static partial uint GetCurrentThreadId();

    [LibraryImport("kernel32.dll", SetLastError = true)]
    public static partial nint OpenThread(uint access, [MarshalAs(UnmanagedType.Bool)] bool inheritHandle, uint threadId);

    [LibraryImport("kernel32.dll", SetLastError = true)]
    public static partial uint WaitForSingleObject(nint handle, uint milliseconds);
}

/// <summary>OVERLAPPED (minwinbase.h): 32 bytes on 64-bit Windows.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct Win32Overlapped
{
    /// <summary>NTSTATUS of the finished I/O.</summary>
    public nint Internal;
    /// <summary>Bytes transferred.</summary>
    public nint InternalHigh;
    public uint Offset;
    public uint OffsetHigh;
    public nint Event;
}

/// <summary>OVERLAPPED_ENTRY (minwinbase.h): 32 bytes on 64-bit Windows (28 + padding).</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct OverlappedEntry
{
    public nuint CompletionKey;
    public Win32Overlapped* Overlapped;
    /// <summary>The I/O's NTSTATUS (the IO_STATUS_BLOCK status; the same value as OVERLAPPED.Internal).</summary>
    public nuint Internal;
    public uint BytesTransferred;
}

/// <summary>FILE_STORAGE_INFO (Windows 8+), 28 bytes.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct FileStorageInfo
{
    public uint LogicalBytesPerSector;
    public uint PhysicalBytesPerSectorForAtomicity;
    public uint PhysicalBytesPerSectorForPerformance;
    public uint FileSystemEffectivePhysicalBytesPerSectorForAtomicity;
    public uint Flags;
    public uint ByteOffsetForSectorAlignment;
    public uint ByteOffsetForPartitionAlignment;
}

/// <summary>GROUP_AFFINITY (winnt.h): 16 bytes on 64-bit Windows.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct GroupAffinity
{
    public nuint Mask;
    public ushort Group;
    public ushort Reserved0;
    public ushort Reserved1;
    public ushort Reserved2;
}
