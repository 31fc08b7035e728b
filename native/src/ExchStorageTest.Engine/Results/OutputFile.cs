using System.Runtime.InteropServices;
using System.Security.Cryptography;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Io.Windows;
using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// How the tool writes the files it names (results, checkpoints, reports): a name is claimed with an
/// exclusive create (O_EXCL / CREATE_NEW), never taken over — when "stem.ext" exists (a user's file,
/// another host's run on the same share) the next free "stem_2.ext", "stem_3.ext" ... is claimed.
/// Contents are written to a temporary file of ours and renamed onto the claimed file, so a reader
/// (or a crash) never sees half a file; a failed write removes its own temporary file.
/// </summary>
public static class OutputFile
{
    private const int MaxAttempts = 1000;

    /// <summary>Claims "folder/stem.ext" (or the first free "stem_N.ext") by creating it empty and exclusively.</summary>
    public static string CreateUnique(string folder, string stem, string extension)
    {
        Directory.CreateDirectory(folder);
        for (int n = 1; n <= MaxAttempts; n++)
        {
            string path = Path.Combine(folder, (n == 1 ? stem : $"{stem}_{n}") + extension);
            if (TryClaim(path)) return path;
        }
        throw new IOException($"No free name for '{Path.Combine(folder, stem + extension)}' after {MaxAttempts} attempts.");
    }

    /// <summary>
    /// Creates <paramref name="path"/> empty, exclusively (O_EXCL / CREATE_NEW: atomic, so two runs on one share never
    /// claim one name); false when a file or folder already holds the name. A taken name is the expected case (a second
    /// rendering of one run's reports), so it is answered by the OS's error code, not by an exception: under Wine 8 a
    /// .NET 8 exception caught here killed the thread and hung the engine. Any other failure throws IOException.
    /// </summary>
    internal static bool TryClaim(string path)
    {
        if (OperatingSystem.IsWindows())
        {
            using SafeFileHandle handle = Kernel32.CreateFile(path, Kernel32.GENERIC_WRITE, 0, 0, Kernel32.CREATE_NEW, Kernel32.FILE_ATTRIBUTE_NORMAL, 0);
            if (!handle.IsInvalid) return true;
            int error = Marshal.GetLastPInvokeError();
            if (error is Kernel32.ERROR_FILE_EXISTS or Kernel32.ERROR_ALREADY_EXISTS) return false;
            // A folder at the name answers ERROR_ACCESS_DENIED.
            if (error == Kernel32.ERROR_ACCESS_DENIED && Directory.Exists(path)) return false;
            throw new IOException($"Cannot create '{path}': Win32 error {error} ({IoErrors.Name(error)}).");
        }
        int fd = LibC.Open(path, LibC.O_WRONLY | LibC.O_CREAT | LibC.O_EXCL | LibC.O_CLOEXEC, 0b110_110_110);
        if (fd >= 0)
        {
            LibC.Close(fd);
            return true;
        }
        int errno = Marshal.GetLastPInvokeError();
        if (errno == LibC.EEXIST) return false;
        throw new IOException($"Cannot create '{path}': {LibC.ErrorText(errno)}.");
    }

    /// <summary>A fresh temporary name beside <paramref name="path"/>: "name.&lt;8 hex&gt;.&lt;purpose&gt;".</summary>
    public static string TemporaryName(string path, string purpose)
    {
        Span<byte> b = stackalloc byte[4];
        RandomNumberGenerator.Fill(b);
        return $"{path}.{Convert.ToHexString(b).ToLowerInvariant()}.{purpose}";
    }

    /// <summary>
    /// Replaces the contents of <paramref name="ownPath"/> — a file this run claimed — atomically:
    /// write a new temporary file (created exclusively), flush it to disk, rename it over.
    /// </summary>
    public static void Replace(string ownPath, Action<Stream> write)
    {
        string tmp = TemporaryName(ownPath, "partial");
        bool created = false;
        try
        {
            using (var stream = new FileStream(tmp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16))
            {
                created = true;
                write(stream);
                stream.Flush(flushToDisk: true);
            }
            File.Move(tmp, ownPath, overwrite: true);
        }
        catch when (created)
        {
            TryDelete(tmp);
            throw;
        }
    }

    /// <summary>Claims a unique name and writes it; on failure nothing of ours is left behind.</summary>
    public static string WriteNew(string folder, string stem, string extension, Action<Stream> write)
    {
        string path = CreateUnique(folder, stem, extension);
        try
        {
            Replace(path, write);
            return path;
        }
        catch
        {
            TryDelete(path);
            throw;
        }
    }

    /// <summary>Removes a file this process created (a temporary or an empty claim); never throws.</summary>
    public static void TryDelete(string ownPath)
    {
        try { File.Delete(ownPath); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
