using System.Runtime.InteropServices;
using static ExchStorageTest.Engine.Io.Linux.IoUringNative;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>
/// What a ring registers once so that no I/O pays for it again, as fio's fixedbufs and registerfiles
/// do: the worker's buffer memory (IORING_REGISTER_BUFFERS: the kernel pins the pages once instead of
/// per I/O, requests become READ_FIXED/WRITE_FIXED) and the test files (IORING_REGISTER_FILES: no file
/// table lookup and reference per I/O, requests carry IOSQE_FIXED_FILE). Either may be refused — pinned
/// buffers count against RLIMIT_MEMLOCK unless the process holds CAP_IPC_LOCK — and then the ring keeps
/// the plain path for it and says why (<see cref="IoFeature"/>).
/// </summary>
internal sealed unsafe class IoUringRegistration
{
    /// <summary>The kernel refuses a registered buffer over 1 GiB (io_buffer_validate): larger memory goes in 1 GiB pieces.</summary>
    internal const int BufferPieceShift = 30;

    private nint _bufferBase;
    private long _bufferLength;
    private int _fileCount;

    public IoFeature Buffers { get; private set; } = IoFeature.Off(IoFeatureNames.RegisteredBuffers, "no buffers were attached");
    public IoFeature Files { get; private set; } = IoFeature.Off(IoFeatureNames.RegisteredFiles, "no files were attached");

    /// <summary>
    /// The fixed-buffer index for a buffer, or -1 when it lies outside the registered memory or spans
    /// two of its 1 GiB pieces (then the request goes the plain way).
    /// </summary>
    public int BufferIndex(nint buffer, int length) => Piece(buffer - _bufferBase, length, _bufferLength);

    /// <summary>The 1 GiB piece of registered memory (of <paramref name="registered"/> bytes) holding bytes [start, start+length), or -1.</summary>
    internal static int Piece(long start, int length, long registered)
    {
        if (registered == 0 || start < 0 || start + length > registered) return -1;
        long piece = start >> BufferPieceShift;
        return (start + length - 1) >> BufferPieceShift == piece ? (int)piece : -1;
    }

    /// <summary>True when file <paramref name="fileIndex"/> of the attached list is registered (its fixed index is the same number).</summary>
    public bool IsFixedFile(int fileIndex) => (uint)fileIndex < (uint)_fileCount;

    /// <summary>Registers <paramref name="buffers"/> with the ring; a refusal is kept as the reason.</summary>
    public void RegisterBuffers(int ringFd, AlignedBuffer? buffers)
    {
        if (buffers is null) return;
        int pieces = (int)(((long)buffers.Length + (1L << BufferPieceShift) - 1) >> BufferPieceShift);
        IoVec* iov = stackalloc IoVec[pieces];
        for (int i = 0; i < pieces; i++)
        {
            long offset = (long)i << BufferPieceShift;
            iov[i].Base = buffers.Address + (nint)offset;
            iov[i].Length = (nuint)Math.Min(1L << BufferPieceShift, buffers.Length - offset);
        }
        int r = Register(ringFd, IORING_REGISTER_BUFFERS, iov, (uint)pieces);
        if (r < 0)
        {
            Buffers = IoFeature.Off(IoFeatureNames.RegisteredBuffers, BufferRefusal(-r, buffers.Length));
            return;
        }
        _bufferBase = buffers.Address;
        _bufferLength = buffers.Length;
        Buffers = IoFeature.On(IoFeatureNames.RegisteredBuffers);
    }

    /// <summary>Registers the files' descriptors with the ring, in list order; a refusal is kept as the reason.</summary>
    public void RegisterFiles(int ringFd, IReadOnlyList<IoFile> files)
    {
        if (files.Count == 0) return;
        int* fds = stackalloc int[files.Count];
        for (int i = 0; i < files.Count; i++) fds[i] = (int)files[i].RawHandle;
        int r = Register(ringFd, IORING_REGISTER_FILES, fds, (uint)files.Count);
        if (r < 0)
        {
            Files = IoFeature.Off(IoFeatureNames.RegisteredFiles, $"IORING_REGISTER_FILES refused: {IoErrors.Name(-r)} ({LibC.ErrorText(-r)}); each I/O looks its file up");
            return;
        }
        _fileCount = files.Count;
        Files = IoFeature.On(IoFeatureNames.RegisteredFiles);
    }

    /// <summary>Why buffers were not registered, in words an administrator can act on.</summary>
    internal static string BufferRefusal(int errno, long bytes)
    {
        string what = $"IORING_REGISTER_BUFFERS refused: {IoErrors.Name(errno)} ({LibC.ErrorText(errno)}); each I/O pins its pages";
        if (errno != LibC.ENOMEM) return what;
        ulong* limits = stackalloc ulong[2];
        if (LibC.GetRLimit(LibC.RLIMIT_MEMLOCK, limits) != 0) return what;
        string limit = limits[0] == LibC.RLIM_INFINITY ? "unlimited" : $"{limits[0] / 1024} KiB";
        return $"{what}. {bytes / 1024} KiB of I/O buffers to pin; the locked-memory limit (RLIMIT_MEMLOCK) is {limit} for this user, shared by every worker and process of it (raise it with ulimit -l or systemd LimitMEMLOCK=, or run with CAP_IPC_LOCK, which root has unless it was dropped)";
    }
}
