using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Io.Windows;

/// <summary>
/// One OVERLAPPED per request slot in a single native block, so a dequeued OVERLAPPED pointer turns
/// back into its slot index with pointer arithmetic: no GCHandle, no lookup table, no allocation.
/// Native memory, because the kernel writes into an OVERLAPPED until its packet is dequeued and the
/// GC must never move it.
/// </summary>
internal sealed unsafe class OverlappedSlots : IDisposable
{
    private Win32Overlapped* _base;

    public OverlappedSlots(int count)
    {
        if (count < 1) throw new ArgumentOutOfRangeException(nameof(count));
        Count = count;
        _base = (Win32Overlapped*)NativeMemory.AlignedAlloc((nuint)count * (nuint)sizeof(Win32Overlapped), 64);
        NativeMemory.Clear(_base, (nuint)count * (nuint)sizeof(Win32Overlapped));
    }

    public int Count { get; }
    public Win32Overlapped* Base => _base;
    /// <summary>Bytes of the block (for SetFileIoOverlappedRange).</summary>
    public uint Bytes => (uint)(Count * sizeof(Win32Overlapped));

    public Win32Overlapped* PointerOf(int slot)
    {
        if ((uint)slot >= (uint)Count) throw new ArgumentOutOfRangeException(nameof(slot));
        return _base + slot;
    }

    /// <summary>The slot of an OVERLAPPED from this block; -1 for a pointer that is not one of ours.</summary>
    public int IndexOf(Win32Overlapped* overlapped)
    {
        long byteOffset = (byte*)overlapped - (byte*)_base;
        if (byteOffset < 0 || byteOffset % sizeof(Win32Overlapped) != 0) return -1;
        long slot = byteOffset / sizeof(Win32Overlapped);
        return slot < Count ? (int)slot : -1;
    }

    /// <summary>Readies a slot for a new I/O at <paramref name="offset"/> (the kernel requires no stale status or event).</summary>
    public Win32Overlapped* Prepare(int slot, long offset)
    {
        Win32Overlapped* ov = PointerOf(slot);
        ov->Internal = 0;
        ov->InternalHigh = 0;
        ov->Offset = (uint)offset;
        ov->OffsetHigh = (uint)((ulong)offset >> 32);
        ov->Event = 0;
        return ov;
    }

    public void Dispose()
    {
        if (_base != null)
        {
            NativeMemory.AlignedFree(_base);
            _base = null;
        }
    }
}
