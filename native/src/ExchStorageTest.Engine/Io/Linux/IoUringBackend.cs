using System.Diagnostics;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Protocol;
using static ExchStorageTest.Engine.Io.Linux.IoUringNative;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>
/// io_uring backend: one ring per worker, driven by raw syscalls over the mmap'd SQ/CQ rings (the
/// fio engine's model). <see cref="TryQueue"/> only writes an SQE; <see cref="Submit"/> publishes the
/// SQ tail and makes one io_uring_enter for the whole batch; <see cref="Reap"/> reads CQEs straight
/// from the shared ring and enters the kernel only to wait (submitting what is still queued in the
/// same call), or when the kernel flags pending completion work (DEFER_TASKRUN / COOP_TASKRUN with
/// TASKRUN_FLAG).
/// </summary>
/// <remarks>
/// Thread affinity: the ring may be created on any thread, but the first <see cref="Submit"/> binds it
/// to the calling thread (IORING_SETUP_SINGLE_ISSUER with R_DISABLED, enabled on first use), and from
/// then on queue, submit and reap must all run on that thread. Another thread gets EEXIST from the
/// kernel, reported as an <see cref="EngineException"/>.
/// </remarks>
public sealed unsafe class IoUringBackend : IIoBackend
{
    /// <summary>Setup flag sets tried newest-first; EINVAL (an older kernel) moves to the next one.</summary>
    private static readonly uint[] SetupTiers =
    [
        IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_R_DISABLED | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE, // 6.1+
        IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_CQSIZE, // 5.19+
        IORING_SETUP_CQSIZE, // 5.5+
        0, // 5.1+
    ];

    private readonly int _depth;
    private int _fd;
    private nint _sqRing, _cqRing, _sqeMap;
    private readonly nuint _sqRingSize, _cqRingSize, _sqeMapSize;
    private readonly uint* _sqTail;
    private readonly uint* _sqFlags;
    private readonly uint _sqMask;
    private readonly uint* _cqHead;
    private readonly uint* _cqTail;
    private readonly uint _cqMask;
    private readonly IoUringCqe* _cqes;
    private readonly IoUringSqe* _sqes;
    private IoVec* _iovecs; // one per SQE slot, only for the READV/WRITEV fallback
    private readonly bool _vectored;
    private readonly bool _extArg;
    private readonly IoUringRegistration _registration = new();
    private bool _needsEnable;
    /// <summary>
    /// IORING_ENTER_GETEVENTS on every submit where completions are deferred task work (DEFER_TASKRUN):
    /// the same system call that hands the kernel a request then posts whatever finished meanwhile to
    /// the CQ ring (min_complete 0: it never waits), so the reap that follows finds them there instead
    /// of entering the kernel again for them (one io_uring_enter per I/O fewer).
    /// </summary>
    private readonly uint _submitFlags;
    private uint _sqLocalTail;
    private int _queued;   // written to the SQ ring, not yet consumed by the kernel
    private int _inflight; // consumed by the kernel, CQE not yet reaped

    private IoUringBackend(int depth, int fd, in IoUringParams p)
    {
        _depth = depth;
        _fd = fd;
        SetupFlags = p.Flags;
        KernelFeatures = p.Features;
        _extArg = (p.Features & IORING_FEAT_EXT_ARG) != 0;
        _needsEnable = (p.Flags & IORING_SETUP_R_DISABLED) != 0;
        _submitFlags = (p.Flags & IORING_SETUP_DEFER_TASKRUN) != 0 ? IORING_ENTER_GETEVENTS : 0;

        _sqRingSize = p.SqOff.Array + p.SqEntries * sizeof(uint);
        _cqRingSize = p.CqOff.Cqes + p.CqEntries * (uint)sizeof(IoUringCqe);
        bool single = (p.Features & IORING_FEAT_SINGLE_MMAP) != 0;
        if (single) _sqRingSize = _cqRingSize = Math.Max(_sqRingSize, _cqRingSize);
        _sqeMapSize = p.SqEntries * (uint)sizeof(IoUringSqe);

        // Any failure below leaves the fields set so far for Dispose to release.
        _sqRing = Map(_sqRingSize, IORING_OFF_SQ_RING);
        _cqRing = single ? _sqRing : Map(_cqRingSize, IORING_OFF_CQ_RING);
        _sqeMap = Map(_sqeMapSize, IORING_OFF_SQES);

        byte* sq = (byte*)_sqRing;
        _sqTail = (uint*)(sq + p.SqOff.Tail);
        _sqFlags = (uint*)(sq + p.SqOff.Flags);
        _sqMask = *(uint*)(sq + p.SqOff.RingMask);
        uint* array = (uint*)(sq + p.SqOff.Array);
        for (uint i = 0; i < p.SqEntries; i++) array[i] = i; // SQE slot i is always ring entry i
        _sqLocalTail = *_sqTail;

        byte* cq = (byte*)_cqRing;
        _cqHead = (uint*)(cq + p.CqOff.Head);
        _cqTail = (uint*)(cq + p.CqOff.Tail);
        _cqMask = *(uint*)(cq + p.CqOff.RingMask);
        _cqes = (IoUringCqe*)(cq + p.CqOff.Cqes);
        _sqes = (IoUringSqe*)_sqeMap;

        _vectored = !SupportsReadWrite(fd);
        if (_vectored)
        {
            _iovecs = (IoVec*)NativeMemory.AllocZeroed(p.SqEntries, (nuint)sizeof(IoVec));
        }
        SqEntries = p.SqEntries;
        CqEntries = p.CqEntries;
    }

    public string Name => "io_uring";
    public int Depth => _depth;

    /// <summary>The setup flags the kernel accepted (for the results' backend details).</summary>
    public uint SetupFlags { get; }
    /// <summary>IORING_FEAT_* bits reported by the kernel.</summary>
    public uint KernelFeatures { get; }
    public uint SqEntries { get; }
    public uint CqEntries { get; }
    /// <summary>True when the kernel lacks IORING_OP_READ/WRITE (before 5.6) and READV/WRITEV are used.</summary>
    public bool UsesVectoredOps => _vectored;

    /// <summary>Registered buffers and files: used, or why not (see <see cref="IoUringRegistration"/>).</summary>
    public IReadOnlyList<IoFeature> Features => [_registration.Buffers, _registration.Files];

    /// <summary>
    /// Registers the worker's buffer memory and the files with the kernel, before the first request
    /// (the ring is still disabled, so no other thread owns it yet). A refusal leaves the plain path.
    /// </summary>
    public void Attach(IReadOnlyList<IoFile> files, AlignedBuffer? buffers)
    {
        _registration.RegisterBuffers(_fd, buffers);
        _registration.RegisterFiles(_fd, files);
    }

    /// <summary>A short description of the accepted setup, e.g. "single-issuer+defer-taskrun".</summary>
    public string SetupMode =>
        (SetupFlags & IORING_SETUP_DEFER_TASKRUN) != 0 ? "single-issuer+defer-taskrun"
        : (SetupFlags & IORING_SETUP_COOP_TASKRUN) != 0 ? "coop-taskrun"
        : (SetupFlags & IORING_SETUP_CQSIZE) != 0 ? "cqsize"
        : "basic";

    /// <summary>
    /// Creates a ring for <paramref name="depth"/> I/Os in flight. Returns 0, or the errno of the last
    /// io_uring_setup failure (ENOSYS: no io_uring; EPERM/EACCES: disabled by sysctl or seccomp;
    /// ENOMEM: locked-memory limit on old kernels).
    /// </summary>
    public static int TryCreate(int depth, out IoUringBackend? backend)
    {
        if (depth < 1 || depth > 32768) throw new ArgumentOutOfRangeException(nameof(depth));
        backend = null;
        if (!OperatingSystem.IsLinux()) return LibC.ENOSYS;
        uint entries = RoundUpPow2((uint)depth);
        int err = LibC.ENOSYS;
        foreach (uint flags in SetupTiers)
        {
            IoUringParams p = default;
            p.Flags = flags;
            p.CqEntries = entries * 2;
            int fd = Setup(entries, &p);
            if (fd < 0)
            {
                err = -fd;
                if (err == LibC.EINVAL) continue; // flag unknown to this kernel: try the next tier
                return err;
            }
            // A failed mmap disposes the half-built ring (closing fd) and throws IoBackendFailed.
            backend = new IoUringBackend(depth, fd, p);
            return 0;
        }
        return err;
    }

    /// <summary>Creates a ring or throws BackendUnavailable with the kernel's reason.</summary>
    public static IoUringBackend Create(int depth)
    {
        int err = TryCreate(depth, out IoUringBackend? backend);
        if (err != 0 || backend is null)
        {
            throw new EngineException("BackendUnavailable", ErrorCategories.ResourceUnavailable,
                $"io_uring is not available: io_uring_setup failed with {IoErrors.Name(err)} ({LibC.ErrorText(err)}). " +
                "It may be disabled (kernel.io_uring_disabled, seccomp in containers) or the kernel is older than 5.1.");
        }
        return backend;
    }

    public bool TryQueue(in IoRequest request)
    {
        if (_queued + _inflight >= _depth) return false;
        uint index = _sqLocalTail & _sqMask;
        IoUringSqe* sqe = _sqes + index;
        *sqe = default;
        if (_registration.IsFixedFile(request.FileIndex))
        {
            sqe->Fd = request.FileIndex;
            sqe->Flags = IOSQE_FIXED_FILE;
        }
        else
        {
            sqe->Fd = (int)request.FileHandle;
        }
        sqe->Off = (ulong)request.Offset;
        sqe->UserData = request.UserData;
        bool read = request.Operation == IoOperation.Read;
        int fixedBuffer = _registration.BufferIndex(request.Buffer, request.Length);
        if (fixedBuffer >= 0)
        {
            sqe->Opcode = read ? IORING_OP_READ_FIXED : IORING_OP_WRITE_FIXED;
            sqe->Addr = (ulong)request.Buffer;
            sqe->Len = (uint)request.Length;
            sqe->BufIndex = (ushort)fixedBuffer;
        }
        else if (_vectored)
        {
            IoVec* iov = _iovecs + index;
            iov->Base = request.Buffer;
            iov->Length = (nuint)request.Length;
            sqe->Opcode = read ? IORING_OP_READV : IORING_OP_WRITEV;
            sqe->Addr = (ulong)iov;
            sqe->Len = 1;
        }
        else
        {
            sqe->Opcode = read ? IORING_OP_READ : IORING_OP_WRITE;
            sqe->Addr = (ulong)request.Buffer;
            sqe->Len = (uint)request.Length;
        }
        _sqLocalTail++;
        _queued++;
        return true;
    }

    public int Submit()
    {
        if (_queued == 0) return 0;
        EnsureEnabled();
        // Release: the SQE contents must be visible to the kernel before the new tail.
        Volatile.Write(ref *_sqTail, _sqLocalTail);
        int r;
        do
        {
            r = Enter(_fd, (uint)_queued, 0, _submitFlags, null, 0);
        } while (r == -LibC.EINTR);
        return Submitted(r, "io_uring_enter (submit)");
    }

    /// <summary>Moves what the kernel consumed from queued to in flight; a shortage (EAGAIN/EBUSY) leaves it queued for the next submit.</summary>
    private int Submitted(int r, string what)
    {
        if (r == -LibC.EAGAIN || r == -LibC.EBUSY) return 0;
        if (r < 0) throw Failure(what, -r);
        _queued -= r;
        _inflight += r;
        return r;
    }

    /// <summary>Reap hands the kernel what is queued in the same io_uring_enter as its wait (see <see cref="IIoBackend.SubmitsOnReap"/>).</summary>
    public bool SubmitsOnReap => true;

    public int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000)
    {
        if (completions.IsEmpty) return 0;
        int want = Math.Min(minComplete, Math.Min(completions.Length, _inflight + _queued));
        int n = Drain(completions);
        if (_queued > 0)
        {
            if (n < want && timeoutMs != 0 && (timeoutMs < 0 || _extArg))
            {
                // Submit and wait in one system call: a closed-loop worker issues the I/Os its
                // completions allowed, then waits for the next; the last of them need not cost an
                // io_uring_enter of its own. Whatever the kernel consumed is in flight before the wait starts.
                // Fewer than wanted only when the wait timed out (or the kernel took none): the caller goes round again.
                return n + SubmitAndWait(completions.Slice(n), (uint)(want - n), timeoutMs);
            }
            else
            {
                Submit();
                n += Drain(completions.Slice(n));
            }
        }
        if (n >= want)
        {
            // Non-blocking reap found nothing: completions may be waiting as deferred task work.
            if (n == 0 && _inflight > 0 && KernelHasPendingWork())
            {
                EnterGetEvents(0, null);
                n = Drain(completions);
            }
            return n;
        }
        if (timeoutMs == 0) return n;

        long start = timeoutMs > 0 ? Stopwatch.GetTimestamp() : 0;
        while (n < want)
        {
            long remainingMs = -1;
            if (timeoutMs > 0)
            {
                remainingMs = timeoutMs - (long)Stopwatch.GetElapsedTime(start).TotalMilliseconds;
                if (remainingMs <= 0) break;
            }
            bool timedOut = Wait((uint)(want - n), remainingMs);
            n += Drain(completions.Slice(n));
            if (timedOut) break;
        }
        return n;
    }

    /// <summary>
    /// Submits every queued request and waits for <paramref name="count"/> completions in one io_uring_enter
    /// (a timeout where <paramref name="timeoutMs"/> is positive, via EXT_ARG); returns the completions drained.
    /// </summary>
    private int SubmitAndWait(Span<IoCompletion> completions, uint count, int timeoutMs)
    {
        EnsureEnabled();
        Volatile.Write(ref *_sqTail, _sqLocalTail);
        KernelTimespec ts = new() { Sec = timeoutMs / 1000, Nsec = timeoutMs % 1000 * 1_000_000 };
        IoUringGetEventsArg arg = new() { Ts = (ulong)&ts };
        bool timed = timeoutMs > 0;
        int r;
        do
        {
            r = Enter(_fd, (uint)_queued, count, IORING_ENTER_GETEVENTS | (timed ? IORING_ENTER_EXT_ARG : 0),
                timed ? &arg : null, timed ? (nuint)sizeof(IoUringGetEventsArg) : 0);
        } while (r == -LibC.EINTR);
        // The result counts the requests consumed; a wait that ended on its timeout (ETIME) after
        // consuming none says so instead, and the drain below finds nothing more.
        if (r != -LibC.ETIME) Submitted(r, "io_uring_enter (submit and wait)");
        return Drain(completions);
    }

    /// <summary>Blocks in the kernel for <paramref name="count"/> CQEs; true when the timeout expired.</summary>
    private bool Wait(uint count, long timeoutMs)
    {
        EnsureEnabled();
        if (timeoutMs < 0)
        {
            return EnterGetEvents(count, null) == -LibC.ETIME;
        }
        if (_extArg)
        {
            KernelTimespec ts = new() { Sec = timeoutMs / 1000, Nsec = timeoutMs % 1000 * 1_000_000 };
            IoUringGetEventsArg arg = new() { Ts = (ulong)&ts };
            return EnterGetEvents(count, &arg) == -LibC.ETIME;
        }
        // Kernels before 5.11 have no wait timeout: flush, look, and nap briefly. Only old kernels pay this.
        EnterGetEvents(0, null);
        if ((uint)(Volatile.Read(ref *_cqTail) - *_cqHead) >= count) return false;
        Thread.Sleep(1);
        return false;
    }

    private int EnterGetEvents(uint minComplete, IoUringGetEventsArg* arg)
    {
        uint flags = IORING_ENTER_GETEVENTS;
        if (arg != null) flags |= IORING_ENTER_EXT_ARG;
        int r;
        do
        {
            r = Enter(_fd, 0, minComplete, flags, arg, arg != null ? (nuint)sizeof(IoUringGetEventsArg) : 0);
        } while (r == -LibC.EINTR);
        if (r < 0 && r != -LibC.ETIME && r != -LibC.EAGAIN && r != -LibC.EBUSY) throw Failure("io_uring_enter (getevents)", -r);
        return r;
    }

    private bool KernelHasPendingWork() =>
        (Volatile.Read(ref *_sqFlags) & (IORING_SQ_TASKRUN | IORING_SQ_CQ_OVERFLOW)) != 0;

    private int Drain(Span<IoCompletion> completions)
    {
        uint head = *_cqHead; // only this thread moves the head
        uint tail = Volatile.Read(ref *_cqTail); // acquire: CQE contents are visible once the tail is
        int n = 0;
        while (head != tail && n < completions.Length)
        {
            IoUringCqe* cqe = _cqes + (head & _cqMask);
            completions[n++] = new IoCompletion(cqe->UserData, cqe->Res);
            head++;
        }
        if (n > 0)
        {
            Volatile.Write(ref *_cqHead, head); // release: the slots are free only after they were read
            _inflight -= n;
        }
        return n;
    }

    private void EnsureEnabled()
    {
        if (!_needsEnable) return;
        int r = Register(_fd, IORING_REGISTER_ENABLE_RINGS, null, 0);
        if (r < 0) throw Failure("io_uring_register (enable rings)", -r);
        _needsEnable = false;
    }

    private nint Map(nuint size, long offset)
    {
        nint p = LibC.Mmap(0, size, LibC.PROT_READ | LibC.PROT_WRITE, LibC.MAP_SHARED | LibC.MAP_POPULATE, _fd, offset);
        if (p == LibC.MAP_FAILED)
        {
            int errno = Marshal.GetLastPInvokeError();
            Dispose();
            throw Failure("mmap of the io_uring rings", errno);
        }
        return p;
    }

    /// <summary>IORING_OP_READ/WRITE arrived in 5.6 together with IORING_REGISTER_PROBE.</summary>
    private static bool SupportsReadWrite(int fd)
    {
        const int ops = 64;
        int size = sizeof(IoUringProbeHeader) + ops * sizeof(IoUringProbeOp);
        byte* buffer = stackalloc byte[size];
        new Span<byte>(buffer, size).Clear();
        if (Register(fd, IORING_REGISTER_PROBE, buffer, ops) < 0) return false;
        var header = (IoUringProbeHeader*)buffer;
        var op = (IoUringProbeOp*)(buffer + sizeof(IoUringProbeHeader));
        return header->OpsLen > IORING_OP_WRITE
            && (op[IORING_OP_READ].Flags & 1) != 0
            && (op[IORING_OP_WRITE].Flags & 1) != 0;
    }

    private static EngineException Failure(string what, int errno) =>
        new("IoBackendFailed", ErrorCategories.InvalidOperation,
            $"{what} failed: {LibC.ErrorText(errno)} ({IoErrors.Name(errno)}).");

    internal static uint RoundUpPow2(uint v) => v <= 1 ? 1 : 1u << (32 - System.Numerics.BitOperations.LeadingZeroCount(v - 1));

    /// <summary>
    /// Unmaps and closes the ring. Reap every in-flight I/O first: closing the ring lets the kernel
    /// cancel or finish them in the background, and a buffer freed meanwhile could still be written.
    /// </summary>
    public void Dispose()
    {
        if (_sqeMap != 0) { LibC.Munmap(_sqeMap, _sqeMapSize); _sqeMap = 0; }
        if (_cqRing != 0 && _cqRing != _sqRing) LibC.Munmap(_cqRing, _cqRingSize);
        _cqRing = 0;
        if (_sqRing != 0) { LibC.Munmap(_sqRing, _sqRingSize); _sqRing = 0; }
        if (_iovecs != null) { NativeMemory.Free(_iovecs); _iovecs = null; }
        if (_fd >= 0) { LibC.Close(_fd); _fd = -1; }
    }
}
