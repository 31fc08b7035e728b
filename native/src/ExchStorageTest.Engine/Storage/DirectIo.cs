using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
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

    /// <summary>Makes every write durable (fsync; write-through handles on Windows need nothing more).</summary>
    public static void Flush(IoFile file)
    {
        if (!OperatingSystem.IsWindows()) LibC.FSync((int)file.RawHandle);
    }

    /// <summary>Reserves the file's extent up front so creation writes do not fragment (best effort).</summary>
    public static void Reserve(IoFile file, long length)
    {
        if (!OperatingSystem.IsWindows()) LibC.FAllocate((int)file.RawHandle, 0, 0, length);
    }

    /// <summary>Cuts a file of ours down to <paramref name="length"/> (re-creation with a smaller geometry).</summary>
    public static void Truncate(IoFile file, long length)
    {
        if (!OperatingSystem.IsWindows()) LibC.FTruncate((int)file.RawHandle, length);
    }
}
