using Microsoft.Win32.SafeHandles;

namespace ExchStorageTest.Engine.Io;

/// <summary>How a test file is opened.</summary>
public enum IoFileMode
{
    /// <summary>Open an existing file.</summary>
    OpenExisting,
    /// <summary>Create a new file; fails if one exists (never overwrite a file we did not create).</summary>
    CreateNew,
}

/// <summary>
/// An open test file: a raw fd/HANDLE the backends use directly, plus how it was opened. Direct
/// (unbuffered) and write-through unless the caller opted in to buffered I/O.
/// </summary>
public sealed class IoFile : IDisposable
{
    internal IoFile(string path, SafeFileHandle handle, bool direct, bool writeThrough, int alignment)
    {
        Path = path;
        Handle = handle;
        Direct = direct;
        WriteThrough = writeThrough;
        Alignment = alignment;
    }

    public string Path { get; }
    public SafeFileHandle Handle { get; }
    /// <summary>True when the OS cache is bypassed (O_DIRECT / FILE_FLAG_NO_BUFFERING).</summary>
    public bool Direct { get; }
    /// <summary>True when writes are durable on completion (O_DSYNC / FILE_FLAG_WRITE_THROUGH).</summary>
    public bool WriteThrough { get; }
    /// <summary>Required alignment of offsets, lengths and buffers (bytes).</summary>
    public int Alignment { get; }
    public nint RawHandle => Handle.DangerousGetHandle();

    public long Length => RandomAccess.GetLength(Handle);

    public void Dispose() => Handle.Dispose();
}
