namespace ExchStorageTest.Engine.Io;

/// <summary>
/// One I/O handed to a backend. Blittable on purpose: backends copy it into SQEs/OVERLAPPEDs
/// without touching the GC. <see cref="UserData"/> comes back in the completion (the request slot).
/// </summary>
public readonly struct IoRequest
{
    public IoRequest(nint fileHandle, IoOperation operation, long offset, int length, nint buffer, ulong userData, int fileIndex = -1)
    {
        FileIndex = fileIndex;
        FileHandle = fileHandle;
        Operation = operation;
        Offset = offset;
        Length = length;
        Buffer = buffer;
        UserData = userData;
    }

    /// <summary>The raw fd (Linux) or HANDLE (Windows) of an <see cref="IoFile"/>.</summary>
    public nint FileHandle { get; }
    /// <summary>
    /// The file's index in the list given to <see cref="IIoBackend.Attach"/>, or -1 when it was not
    /// attached: a backend that registered the attached files (io_uring) names the file by it.
    /// </summary>
    public int FileIndex { get; }
    public IoOperation Operation { get; }
    public long Offset { get; }
    public int Length { get; }
    /// <summary>Aligned native memory (see <see cref="AlignedBuffer"/>).</summary>
    public nint Buffer { get; }
    public ulong UserData { get; }
}

/// <summary>
/// A finished I/O. <see cref="Result"/> is bytes transferred (>= 0) or a negated OS error:
/// -errno on Linux, -Win32 error on Windows (see <see cref="IoErrors"/>).
/// </summary>
public readonly struct IoCompletion
{
    public IoCompletion(ulong userData, int result)
    {
        UserData = userData;
        Result = result;
    }

    public ulong UserData { get; }
    public int Result { get; }
    public bool Failed => Result < 0;
}
