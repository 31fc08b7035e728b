using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Io.Windows;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Storage;

/// <summary>Synchronous direct reads and writes for preparation, replay and checksum passes (aligned buffers only).</summary>
internal static class DirectIo
{
    public static int Read(IoFile file, Span<byte> buffer, long offset)
    {
        int total = 0;
        while (total < buffer.Length)
        {
            int n = RandomAccess.Read(file.Handle, buffer.Slice(total), offset + total);
            if (n <= 0) break;
            total += n;
        }
        return total;
    }

    public static void Write(IoFile file, ReadOnlySpan<byte> buffer, long offset)
    {
        try
        {
            RandomAccess.Write(file.Handle, buffer, offset);
        }
        catch (IOException ex)
        {
            throw new EngineException("WriteFailed", ErrorCategories.WriteError, $"Writing {buffer.Length} bytes at offset {offset} of '{file.Path}' failed: {ex.Message}", file.Path, ex);
        }
    }

    /// <summary>
    /// Makes every write durable: fsync, FlushFileBuffers on Windows. Needed even for unbuffered
    /// handles, which are not write-through unless opened so: the device cache may still hold them.
    /// </summary>
    public static void Flush(IoFile file)
    {
        int error = 0;
        if (OperatingSystem.IsWindows())
        {
            if (!Kernel32.FlushFileBuffers(file.Handle)) error = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
        }
        else if (LibC.FSync((int)file.RawHandle) != 0)
        {
            error = System.Runtime.InteropServices.Marshal.GetLastPInvokeError();
        }
        if (error != 0)
            throw new EngineException("WriteFailed", ErrorCategories.WriteError, $"Flushing '{file.Path}' to stable storage failed: {IoErrors.Name(error)}.", file.Path);
    }

    /// <summary>
    /// Reserves the file's extent up front so creation writes do not fragment (best effort, each
    /// refusal reported): fallocate on Linux; on Windows cluster reservation and SetFileValidData.
    /// Returns what was done, for the test log.
    /// </summary>
    public static string Reserve(IoFile file, long length)
    {
        if (OperatingSystem.IsWindows()) return ValidDataLength.Extend(file.Handle, length);
        if (LibC.FAllocate((int)file.RawHandle, 0, 0, length) == 0) return "space reserved (fallocate)";
        return $"fallocate refused ({IoErrors.Name(System.Runtime.InteropServices.Marshal.GetLastPInvokeError())}), blocks are allocated as the pages are written";
    }

    /// <summary>Sets the file's length (cuts a file of ours down for a smaller geometry, or extends it before its pages are written).</summary>
    public static void Truncate(IoFile file, long length)
    {
        try
        {
            RandomAccess.SetLength(file.Handle, length);
        }
        catch (IOException ex)
        {
            throw new EngineException("WriteFailed", ErrorCategories.WriteError, $"Setting the length of '{file.Path}' to {length} bytes failed: {ex.Message}", file.Path, ex);
        }
    }
}
