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
    /// Reserves the file's extent up to <paramref name="length"/> so the writes that fill it do not fragment or
    /// allocate as they go, and moves the end of file out to it where the file is shorter (never in). Best effort,
    /// each refusal reported: fallocate on Linux; on Windows cluster reservation and SetFileValidData.
    /// Returns what was done, for the test log.
    /// </summary>
    public static string Reserve(IoFile file, long length)
    {
        if (OperatingSystem.IsWindows())
        {
            // SetFileValidData cannot pass the end of file, so the end moves first (DiskSpd's order).
            if (file.Length < length) Truncate(file, length);
            return ValidDataLength.Extend(file.Handle, length);
        }
        // fallocate moves the end of file itself: on ext4 one drain of the file's direct I/O in flight, where a
        // new length and then the blocks would be two (it matters for a database extended under load).
        string note = LibC.FAllocate((int)file.RawHandle, 0, 0, length) == 0
            ? "space reserved (fallocate)"
            : $"fallocate refused ({IoErrors.Name(System.Runtime.InteropServices.Marshal.GetLastPInvokeError())}), blocks are allocated as the pages are written";
        if (file.Length < length) Truncate(file, length);
        return note;
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
