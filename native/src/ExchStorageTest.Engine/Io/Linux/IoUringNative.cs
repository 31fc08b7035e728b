using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Io.Linux;

/// <summary>
/// The io_uring ABI (include/uapi/linux/io_uring.h) as raw syscalls: no liburing, no native shim.
/// The syscall numbers come from the generic table and are the same on x86-64 and arm64.
/// </summary>
internal static unsafe class IoUringNative
{
    public const long SYS_io_uring_setup = 425;
    public const long SYS_io_uring_enter = 426;
    public const long SYS_io_uring_register = 427;

    // io_uring_setup flags.
    public const uint IORING_SETUP_CQSIZE = 1u << 3;
    public const uint IORING_SETUP_CLAMP = 1u << 4;
    public const uint IORING_SETUP_R_DISABLED = 1u << 6;
    public const uint IORING_SETUP_SUBMIT_ALL = 1u << 7;
    public const uint IORING_SETUP_COOP_TASKRUN = 1u << 8;
    public const uint IORING_SETUP_TASKRUN_FLAG = 1u << 9;
    public const uint IORING_SETUP_SINGLE_ISSUER = 1u << 12;
    public const uint IORING_SETUP_DEFER_TASKRUN = 1u << 13;

    // io_uring_params.features.
    public const uint IORING_FEAT_SINGLE_MMAP = 1u << 0;
    public const uint IORING_FEAT_NODROP = 1u << 1;
    public const uint IORING_FEAT_EXT_ARG = 1u << 8;

    // io_uring_enter flags.
    public const uint IORING_ENTER_GETEVENTS = 1u << 0;
    public const uint IORING_ENTER_EXT_ARG = 1u << 3;

    // Bits in the shared SQ flags word.
    public const uint IORING_SQ_CQ_OVERFLOW = 1u << 1;
    public const uint IORING_SQ_TASKRUN = 1u << 2;

    // io_uring_register opcodes.
    public const uint IORING_REGISTER_BUFFERS = 0;
    public const uint IORING_REGISTER_FILES = 2;
    public const uint IORING_REGISTER_ENABLE_RINGS = 12;
    public const uint IORING_REGISTER_PROBE = 8;

    // Opcodes.
    public const byte IORING_OP_READV = 1;
    public const byte IORING_OP_WRITEV = 2;
    public const byte IORING_OP_READ_FIXED = 4;
    public const byte IORING_OP_WRITE_FIXED = 5;
    public const byte IORING_OP_READ = 22;
    public const byte IORING_OP_WRITE = 23;

    // SQE flags.
    public const byte IOSQE_FIXED_FILE = 1 << 0;

    // mmap offsets.
    public const long IORING_OFF_SQ_RING = 0;
    public const long IORING_OFF_CQ_RING = 0x8000000;
    public const long IORING_OFF_SQES = 0x10000000;

    /// <summary>Returns the fd, or -errno.</summary>
    public static int Setup(uint entries, IoUringParams* p)
    {
        long r = LibC.Syscall(SYS_io_uring_setup, entries, (long)p, 0, 0, 0, 0);
        return r < 0 ? -Marshal.GetLastPInvokeError() : (int)r;
    }

    /// <summary>Returns the number of SQEs consumed, or -errno.</summary>
    public static int Enter(int fd, uint toSubmit, uint minComplete, uint flags, void* arg, nuint argSize)
    {
        long r = LibC.Syscall(SYS_io_uring_enter, fd, toSubmit, minComplete, flags, (long)arg, (long)argSize);
        return r < 0 ? -Marshal.GetLastPInvokeError() : (int)r;
    }

    public static int Register(int fd, uint opcode, void* arg, uint count)
    {
        long r = LibC.Syscall(SYS_io_uring_register, fd, opcode, (long)arg, count, 0, 0);
        return r < 0 ? -Marshal.GetLastPInvokeError() : (int)r;
    }
}

/// <summary>struct io_sqring_offsets (40 bytes).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoSqRingOffsets
{
    public uint Head, Tail, RingMask, RingEntries, Flags, Dropped, Array, Resv1;
    public ulong UserAddr;
}

/// <summary>struct io_cqring_offsets (40 bytes).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoCqRingOffsets
{
    public uint Head, Tail, RingMask, RingEntries, Overflow, Cqes, Flags, Resv1;
    public ulong UserAddr;
}

/// <summary>struct io_uring_params (120 bytes).</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct IoUringParams
{
    public uint SqEntries;
    public uint CqEntries;
    public uint Flags;
    public uint SqThreadCpu;
    public uint SqThreadIdle;
    public uint Features;
    public uint WqFd;
    public fixed uint Resv[3];
    public IoSqRingOffsets SqOff;
    public IoCqRingOffsets CqOff;
}

/// <summary>struct io_uring_sqe (64 bytes), only the fields READ/WRITE/READV/WRITEV use.</summary>
[StructLayout(LayoutKind.Explicit, Size = 64)]
internal struct IoUringSqe
{
    [FieldOffset(0)] public byte Opcode;
    [FieldOffset(1)] public byte Flags;
    [FieldOffset(2)] public ushort IoPrio;
    [FieldOffset(4)] public int Fd;
    [FieldOffset(8)] public ulong Off;
    [FieldOffset(16)] public ulong Addr;
    [FieldOffset(24)] public uint Len;
    [FieldOffset(28)] public uint RwFlags;
    [FieldOffset(32)] public ulong UserData;
    [FieldOffset(40)] public ushort BufIndex;
    [FieldOffset(42)] public ushort Personality;
    [FieldOffset(44)] public int SpliceFdIn;
    [FieldOffset(48)] public ulong Addr3;
    [FieldOffset(56)] public ulong Pad2;
}

/// <summary>struct io_uring_cqe (16 bytes; the ring is never set up with CQE32).</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoUringCqe
{
    public ulong UserData;
    public int Res;
    public uint Flags;
}

/// <summary>struct io_uring_getevents_arg (24 bytes), for IORING_ENTER_EXT_ARG.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoUringGetEventsArg
{
    public ulong Sigmask;
    public uint SigmaskSize;
    public uint MinWaitUsec;
    public ulong Ts;
}

/// <summary>struct __kernel_timespec.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct KernelTimespec
{
    public long Sec;
    public long Nsec;
}

/// <summary>struct iovec, for the READV/WRITEV fallback on kernels older than 5.6.</summary>
[StructLayout(LayoutKind.Sequential)]
internal struct IoVec
{
    public nint Base;
    public nuint Length;
}

/// <summary>struct io_uring_probe header (16 bytes) followed by io_uring_probe_op entries (8 bytes each).</summary>
[StructLayout(LayoutKind.Sequential)]
internal unsafe struct IoUringProbeHeader
{
    public byte LastOp;
    public byte OpsLen;
    public ushort Resv;
    public fixed uint Resv2[3];
}

[StructLayout(LayoutKind.Sequential)]
internal struct IoUringProbeOp
{
    public byte Op;
    public byte Resv;
    public ushort Flags; // IO_URING_OP_SUPPORTED = 1
    public uint Resv2;
}
