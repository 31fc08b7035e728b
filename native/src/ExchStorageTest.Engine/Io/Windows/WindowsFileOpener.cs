using System.Runtime.InteropServices;
using System.Runtime.Versioning;
using ExchStorageTest.Engine.Protocol;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// CreateFileW with FILE_FLAG_NO_BUFFERING | FILE_FLAG_OVERLAPPED (| FILE_FLAG_WRITE_THROUGH), the
/// Windows twin of the Linux O_DIRECT open: same modes, same refusal codes.
/// </summary>
/// <remarks>
/// Files are shared for reading and writing (DiskSpd's FILE_SHARE_READ | FILE_SHARE_WRITE) because
/// every I/O worker opens its own handle to the files it drives (<see cref="IocpBackend"/>) while the
/// run keeps its own open. SeManageVolumePrivilege is enabled before the first open, because a handle
/// gets the privileges its process held when it was opened and SetFileValidData needs that one
/// (see <see cref="ValidDataLength"/>).
/// </remarks>
internal static unsafe class WindowsFileOpener
{
    private const uint Share = Kernel32.FILE_SHARE_READ | Kernel32.FILE_SHARE_WRITE;

    [SupportedOSPlatform("windows")]
    public static IoFile Open(string path, IoFileMode mode, bool writeThrough, bool allowBuffered)
    {
        ValidDataLength.EnablePrivilegeOnce();
        uint disposition = mode == IoFileMode.CreateNew ? Kernel32.CREATE_NEW : Kernel32.OPEN_EXISTING;
        uint flags = Flags(direct: false, writeThrough);
        SafeFileHandle handle = Kernel32.CreateFile(path, Kernel32.GENERIC_READ | Kernel32.GENERIC_WRITE, Share, 0,
            disposition, flags | Kernel32.FILE_FLAG_NO_BUFFERING, 0);
        bool direct = true;
        if (handle.IsInvalid)
        {
            int error = Marshal.GetLastPInvokeError();
            handle.Dispose();
            // ERROR_INVALID_PARAMETER for a valid path means the file system refused unbuffered I/O.
            if (error != Kernel32.ERROR_INVALID_PARAMETER) throw OpenFailure(path, error);
            if (!allowBuffered)
            {
                throw new EngineException("DirectIoUnsupported", ErrorCategories.InvalidOperation,
                    $"The file system under '{path}' does not support unbuffered I/O, so latencies would measure the cache, not the storage. Use a path on a real volume, or opt in to buffered I/O (-AllowBufferedIo) and the report will say so.",
                    path);
            }
            handle = Kernel32.CreateFile(path, Kernel32.GENERIC_READ | Kernel32.GENERIC_WRITE, Share, 0, disposition, flags, 0);
            direct = false;
            if (handle.IsInvalid)
            {
                error = Marshal.GetLastPInvokeError();
                handle.Dispose();
                throw OpenFailure(path, error);
            }
        }
        return new IoFile(path, handle, direct, writeThrough, Alignment(handle));
    }

    /// <summary>
    /// A second handle to an open test file, with the same flags, for one I/O worker's completion
    /// port. Null with the Win32 error when the open fails.
    /// </summary>
    [SupportedOSPlatform("windows")]
    public static SafeFileHandle? OpenForPort(IoFile file, out int error)
    {
        var handle = Kernel32.CreateFile(file.Path, Kernel32.GENERIC_READ | Kernel32.GENERIC_WRITE, Share, 0, Kernel32.OPEN_EXISTING,
            Flags(file.Direct, file.WriteThrough), 0);
        error = 0;
        if (!handle.IsInvalid) return handle;
        error = Marshal.GetLastPInvokeError();
        handle.Dispose();
        return null;
    }

    private static uint Flags(bool direct, bool writeThrough) =>
        Kernel32.FILE_ATTRIBUTE_NORMAL | Kernel32.FILE_FLAG_OVERLAPPED
        | (writeThrough ? Kernel32.FILE_FLAG_WRITE_THROUGH : 0) | (direct ? Kernel32.FILE_FLAG_NO_BUFFERING : 0);

    /// <summary>max(4096, physical sector for performance) from FILE_STORAGE_INFO; 4096 if the query fails.</summary>
    [SupportedOSPlatform("windows")]
    private static int Alignment(SafeFileHandle handle)
    {
        FileStorageInfo info = default;
        if (!Kernel32.GetFileInformationByHandleEx(handle, Kernel32.FileStorageInfo, &info, (uint)sizeof(FileStorageInfo)))
            return IoFileOpener.DefaultAlignment;
        return new Linux.DeviceAlignment(0, 0, (int)info.LogicalBytesPerSector, (int)info.PhysicalBytesPerSectorForPerformance, "FILE_STORAGE_INFO").Effective;
    }

    /// <summary>The engine error for a failed CreateFileW, with the same codes and categories as the Linux open.</summary>
    internal static EngineException OpenFailure(string path, int error)
    {
        (string code, string category) = MapOpenError(error);
        return new EngineException(code, category, $"Cannot open '{path}': Win32 error {error} ({IoErrors.Name(error)}).", path);
    }

    internal static (string Code, string Category) MapOpenError(int error) => error switch
    {
        Kernel32.ERROR_FILE_NOT_FOUND or Kernel32.ERROR_PATH_NOT_FOUND or Kernel32.ERROR_INVALID_NAME => ("FileOpenFailed", ErrorCategories.ObjectNotFound),
        Kernel32.ERROR_ACCESS_DENIED or Kernel32.ERROR_WRITE_PROTECT => ("FileOpenFailed", ErrorCategories.PermissionDenied),
        Kernel32.ERROR_SHARING_VIOLATION or Kernel32.ERROR_DISK_FULL => ("FileOpenFailed", ErrorCategories.ResourceUnavailable),
        Kernel32.ERROR_FILE_EXISTS or Kernel32.ERROR_ALREADY_EXISTS => ("FileExists", ErrorCategories.ResourceUnavailable),
        _ => ("FileOpenFailed", ErrorCategories.WriteError),
    };
}
