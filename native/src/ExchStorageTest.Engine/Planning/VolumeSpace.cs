using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Inspection.Linux;

namespace ExchStorageTest.Engine.Planning;

/// <summary>Free space and identity of the volume under a path (statvfs on Linux, the volume's mount point on Windows).</summary>
public static partial class VolumeSpace
{
    public readonly record struct Info(string VolumeId, long TotalBytes, long FreeBytes, bool ReadOnly);

    public static Info Of(string path)
    {
        if (OperatingSystem.IsWindows()) return OfWindows(path);
        if (StatVfs(path, out var s) != 0)
            throw new IOException($"statvfs('{path}') failed: errno {Marshal.GetLastPInvokeError()}.");
        const ulong ST_RDONLY = 1;
        long frsize = (long)(s.f_frsize != 0 ? s.f_frsize : s.f_bsize);
        return new Info($"fsid:{s.f_fsid:X}", (long)s.f_blocks * frsize, (long)s.f_bavail * frsize, (s.f_flag & ST_RDONLY) != 0);
    }

    /// <summary>
    /// The volume that holds the path, as Exchange servers lay them out: often a volume mounted in a folder
    /// (C:\ExchangeVolumes\Vol1), whose space is its own, not C:'s. DriveInfo knew only drive letters (a mounted
    /// volume was taken for C:, and a \\?\ or UNC path threw), so the mount point comes from GetVolumePathNameW and the
    /// space from GetDiskFreeSpaceExW, which take any of them; the volume's GUID name identifies it where it has one.
    /// </summary>
    [System.Runtime.Versioning.SupportedOSPlatform("windows")]
    private static unsafe Info OfWindows(string path)
    {
        string full = Path.GetFullPath(path);
        string root = Inspection.Windows.WindowsVolumeProbe.VolumeRoot(full) ?? Path.GetPathRoot(full) ?? full;
        string existing = Inspection.Windows.WindowsVolumeProbe.NearestExisting(full);
        if (!Inspection.Windows.WindowsVolumeNative.GetDiskFreeSpaceEx(PathNames.ForWin32(existing), out ulong available, out ulong total, out _))
            throw new IOException($"The free space of the volume under '{existing}' cannot be read: Win32 error {Marshal.GetLastPInvokeError()}.");
        char* name = stackalloc char[64];
        string id = Inspection.Windows.WindowsVolumeNative.GetVolumeNameForVolumeMountPoint(root, name, 64) ? new string(name) : root;
        return new Info(id.ToUpperInvariant(), (long)total, (long)available, false);
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
