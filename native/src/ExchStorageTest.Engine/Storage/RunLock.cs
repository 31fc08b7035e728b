using System.Runtime.InteropServices;
using System.Text;
using System.Text.Json;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Io.Windows;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Keeps two runs off one folder: an OS lock on "ExchStorageTest.lock" in each folder a run names
/// (database and log roots, stream file folders). Linux: an open-file-description lock
/// (F_OFD_SETLK), which NFS carries to the server, so hosts sharing a folder exclude each other
/// too; Windows: the file held open without write sharing (SMB enforces it across hosts). The OS
/// drops the lock when the process ends in any way (SIGKILL, crash, power loss on a share after
/// the lease), so a dead run never blocks the next. While held, the file names its holder, which is
/// what a refused run is told. The run removes the file when it ends, still holding the lock (Windows:
/// delete-on-close, which also covers a killed run; Linux: unlinked before the lock is let go, and a
/// run that locked a file just unlinked takes the new one instead). A file a killed Linux run left
/// holds no lock: the next run takes it over and removes it when it ends. A file someone else holds
/// is never removed.
/// </summary>
public sealed partial class RunLock : IDisposable
{
    public const string FileName = "ExchStorageTest.lock";
    private readonly List<Held> _held = new();

    private RunLock() { }

    /// <summary>The holder a lock file names: who to wait for or stop.</summary>
    public sealed record Holder(string Machine, int ProcessId, string TestId, string Command, DateTime SinceUtc);

    /// <summary>Takes the lock in every folder, or refuses (FolderInUse, naming the holder) having taken none.</summary>
    public static RunLock Acquire(IEnumerable<string> folders, string testId, string command)
    {
        var runLock = new RunLock();
        var me = new Holder(Environment.MachineName, Environment.ProcessId, testId, command, DateTime.UtcNow);
        try
        {
            // One lock per folder as the OS names it: on Windows "C:\DB" and "c:\db" are one folder (PathNames).
            foreach (var folder in folders.Select(Path.GetFullPath).Distinct(Planning.PathNames.Comparer))
            {
                string path = Path.Combine(folder, FileName);
                var held = TryTake(path, removeOnRelease: true, out Holder? other)
                    ?? throw EngineException.Refusal("FolderInUse", ErrorCategories.ResourceUnavailable,
                        $"The folder '{folder}' is in use by another ExchStorageTest run{Describe(other)}. Two runs on one folder would corrupt each other's files and measurements: wait for it to end or stop it.", folder);
                runLock._held.Add(held);
                held.Write(me);
            }
            return runLock;
        }
        catch
        {
            runLock.Dispose();
            throw;
        }
    }

    /// <summary>Who holds the lock in <paramref name="folder"/> now; null when nobody does.</summary>
    public static Holder? HolderOf(string folder)
    {
        string path = Path.Combine(Path.GetFullPath(folder), FileName);
        if (!File.Exists(path)) return null;
        using var held = TryTake(path, removeOnRelease: false, out var other);
        return held is null ? other : null;
    }

    private static string Describe(Holder? h) => h is null ? "" :
        $": test '{h.TestId}' ({h.Command}), process {h.ProcessId} on {h.Machine}, since {h.SinceUtc:yyyy-MM-dd HH:mm:ss} UTC";

    /// <summary>
    /// The lock on <paramref name="path"/>, or null with the holder that has it. <paramref name="removeOnRelease"/>: a
    /// run's lock, whose file goes when it is let go; a look at who holds it (<see cref="HolderOf"/>) leaves the file.
    /// </summary>
    private static Held? TryTake(string path, bool removeOnRelease, out Holder? other)
    {
        other = null;
        if (OperatingSystem.IsWindows())
        {
            // Held without write sharing; a run holding it answers ERROR_SHARING_VIOLATION. An expected answer (the
            // FolderInUse refusal), so it is read from the error code, not caught as an exception (docs/windows.md).
            // Delete-on-close removes the file when the holder's handle closes, however its process ends.
            uint access = Kernel32.GENERIC_READ | Kernel32.GENERIC_WRITE | (removeOnRelease ? Kernel32.DELETE : 0);
            uint flags = Kernel32.FILE_ATTRIBUTE_NORMAL | (removeOnRelease ? Kernel32.FILE_FLAG_DELETE_ON_CLOSE : 0);
            for (int attempt = 1; ; attempt++)
            {
                var exclusive = Kernel32.CreateFile(path, access, Kernel32.FILE_SHARE_READ, 0, Kernel32.OPEN_ALWAYS, flags, 0);
                if (!exclusive.IsInvalid) return new Held(exclusive, null);
                int error = Marshal.GetLastPInvokeError();
                exclusive.Dispose();
                if (error == Kernel32.ERROR_SHARING_VIOLATION) break;
                // A holder that just ended leaves its file delete-pending while a reader still has it open (for a
                // moment: a reader reads the holder and closes); opening it then is denied until the reader closes.
                if (error == Kernel32.ERROR_ACCESS_DENIED && attempt < LockAttempts && File.Exists(path))
                {
                    Thread.Sleep(DeletePendingWait);
                    continue;
                }
                throw new IOException($"Cannot open the run lock '{path}': Win32 error {error} ({IoErrors.Name(error)}).");
            }
            using var reader = Kernel32.CreateFile(path, Kernel32.GENERIC_READ, Kernel32.FILE_SHARE_READ | Kernel32.FILE_SHARE_WRITE | Kernel32.FILE_SHARE_DELETE, 0,
                Kernel32.OPEN_EXISTING, Kernel32.FILE_ATTRIBUTE_NORMAL, 0);
            if (!reader.IsInvalid) other = ReadHolder(reader);
            return null;
        }
        for (int attempt = 1; ; attempt++)
        {
            int fd = LibC.Open(path, LibC.O_RDWR | LibC.O_CREAT | LibC.O_CLOEXEC, 0b110_100_100);
            if (fd < 0)
            {
                int errno = Marshal.GetLastPInvokeError();
                throw new IOException($"Cannot open the run lock '{path}': {LibC.ErrorText(errno)}.");
            }
            var handle = new Microsoft.Win32.SafeHandles.SafeFileHandle(fd, ownsHandle: true);
            var flock = new FLock { Type = F_WRLCK, Whence = 0, Start = 0, Length = 0, Pid = 0 };
            if (FcntlLock(fd, F_OFD_SETLK, ref flock) != 0) return Refused(handle, path, out other);
            // The holder before us unlinks its file before it lets go: a lock won on a file no longer at the path
            // guards nothing (the next run creates a new one there), so a run drops it and takes the path's file.
            // A look at who holds it (HolderOf) has its answer already, and creates no file again.
            if (!removeOnRelease || IsAtPath(fd, path)) return new Held(handle, removeOnRelease ? path : null);
            handle.Dispose();
            if (attempt == LockAttempts)
                throw new IOException($"Cannot lock '{path}': the file was replaced {attempt} times while being locked.");
        }
    }

    /// <summary>The lock is held by another: who, as the holder wrote it.</summary>
    private static Held? Refused(Microsoft.Win32.SafeHandles.SafeFileHandle handle, string path, out Holder? other)
    {
        int err = Marshal.GetLastPInvokeError();
        try
        {
            if (err is not (LibC.EAGAIN or LibC.EACCES))
                throw new IOException($"Cannot lock '{path}': {LibC.ErrorText(err)}.");
            // Reads are not blocked by the lock (it is advisory), and the holder wrote who it is.
            other = ReadHolder(handle);
            return null;
        }
        finally
        {
            handle.Dispose();
        }
    }

    /// <summary>How often a lock is tried again while its file is being removed by the holder that just ended.</summary>
    private const int LockAttempts = 20;
    private static readonly TimeSpan DeletePendingWait = TimeSpan.FromMilliseconds(50);

    /// <summary>Whether the open file <paramref name="fd"/> is the one at <paramref name="path"/> (same device and inode).</summary>
    private static unsafe bool IsAtPath(int fd, string path)
    {
        Statx open = default, named = default;
        if (LibC.StatxCall(fd, "", LibC.AT_EMPTY_PATH, LibC.STATX_BASIC_STATS, &open) != 0) return false;
        if (LibC.StatxCall(LibC.AT_FDCWD, path, 0, LibC.STATX_BASIC_STATS, &named) != 0) return false;
        return open.Inode == named.Inode && open.DevMajor == named.DevMajor && open.DevMinor == named.DevMinor;
    }

    private static Holder? ReadHolder(Microsoft.Win32.SafeHandles.SafeFileHandle handle)
    {
        try
        {
            var buffer = new byte[4096];
            int n = RandomAccess.Read(handle, buffer, 0);
            if (n == 0) return null; // a holder that has not written its name yet
            return JsonSerializer.Deserialize<Holder>(buffer.AsSpan(0, n));
        }
        catch (Exception ex) when (ex is JsonException or IOException or ArgumentException)
        {
            return null; // a holder that has not written its name yet
        }
    }

    public void Dispose()
    {
        foreach (var h in _held) h.Dispose();
        _held.Clear();
    }

    /// <summary>
    /// One held lock file; closing the handle releases the lock. A run's lock file goes with it: on Windows by
    /// delete-on-close; on Linux <see cref="_removePath"/> is unlinked first, while the lock still keeps others off it.
    /// </summary>
    private sealed class Held : IDisposable
    {
        private readonly Microsoft.Win32.SafeHandles.SafeFileHandle _handle;
        private readonly string? _removePath;

        public Held(Microsoft.Win32.SafeHandles.SafeFileHandle handle, string? removePath)
        {
            _handle = handle;
            _removePath = removePath;
        }

        public void Write(Holder me)
        {
            byte[] json = JsonSerializer.SerializeToUtf8Bytes(me);
            RandomAccess.SetLength(_handle, 0);
            RandomAccess.Write(_handle, json, 0);
        }

        public void Dispose()
        {
            // Still ours (held, and the file at the path): a file that cannot be removed (read-only folder) just stays.
            if (_removePath != null && !_handle.IsClosed && IsAtPath((int)_handle.DangerousGetHandle(), _removePath))
                LibC.Unlink(_removePath);
            _handle.Dispose();
        }
    }

    private const int F_OFD_SETLK = 37;
    private const short F_WRLCK = 1;

    [StructLayout(LayoutKind.Sequential)]
    private struct FLock
    {
        public short Type;
        public short Whence;
        public long Start;
        public long Length;
        public int Pid;
    }

    [LibraryImport("libc", EntryPoint = "fcntl", SetLastError = true)]
    private static partial int FcntlLock(int fd, int cmd, ref FLock flock);
}
