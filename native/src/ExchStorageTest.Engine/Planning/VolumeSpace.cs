using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Inspection.Linux;

namespace ExchStorageTest.Engine.Planning;

/// <summary>Free space and identity of the volume under a path (statvfs on Linux, DriveInfo on Windows).</summary>
public static partial class VolumeSpace
{
    public readonly record struct Info(string VolumeId, long TotalBytes, long FreeBytes, bool ReadOnly);

    public static Info Of(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            var d = new DriveInfo(Path.GetPathRoot(Path.GetFullPath(path))!);
            return new Info(d.Name.ToUpperInvariant(), d.TotalSize, d.AvailableFreeSpace, false);
        }
        if (StatVfs(path, out var s) != 0)
            throw new IOException($"statvfs('{path}') failed: errno {Marshal.GetLastPInvokeError()}.");
        const ulong ST_RDONLY = 1;
        long frsize = (long)(s.f_frsize != 0 ? s.f_frsize : s.f_bsize);
        return new Info($"fsid:{s.f_fsid:X}", (long)s.f_blocks * frsize, (long)s.f_bavail * frsize, (s.f_flag & ST_RDONLY) != 0);
    }

    /// <summary>True when the current user may create files in <paramref name="folder"/>.</summary>
    public static bool CanWrite(string folder)
    {
        if (OperatingSystem.IsWindows())
        {
            // Windows ignores a folder's read-only attribute when files are created, so it says
            // nothing; ACLs and write-protected volumes only show when a file is created. The probe
            // is deleted by the OS when its handle closes, so nothing is left behind. CreateFileW
            // directly, not FileStream: a refusal is an answer here, not an exception.
            using var probe = Io.Windows.Kernel32.CreateFile(Path.Combine(folder, $".exchstoragetest-write-probe-{Guid.NewGuid():N}.tmp"),
                Io.Windows.Kernel32.GENERIC_WRITE, 0, 0, Io.Windows.Kernel32.CREATE_NEW,
                Io.Windows.Kernel32.FILE_ATTRIBUTE_HIDDEN | Io.Windows.Kernel32.FILE_FLAG_DELETE_ON_CLOSE, 0);
            return !probe.IsInvalid;
        }
        const int W_OK = 2, X_OK = 1;
        return Access(folder, W_OK | X_OK) == 0 && !Of(folder).ReadOnly;
    }

    [StructLayout(LayoutKind.Sequential)]
    private struct StatVfsBuf
    {
        public ulong f_bsize, f_frsize, f_blocks, f_bfree, f_bavail, f_files, f_ffree, f_favail, f_fsid, f_flag, f_namemax;
        private unsafe fixed int __spare[6];
    }

    [LibraryImport("libc", EntryPoint = "statvfs", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int StatVfs(string path, out StatVfsBuf buf);

    [LibraryImport("libc", EntryPoint = "access", StringMarshalling = StringMarshalling.Utf8, SetLastError = true)]
    private static partial int Access(string path, int mode);
}
