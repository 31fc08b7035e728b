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
    private Overlapped* _base;

    public OverlappedSlots(int count)
    {
        if (count < 1) throw new ArgumentOutOfRangeException(nameof(count));
        Count = count;
        _base = (Overlapped*)NativeMemory.AlignedAlloc((nuint)count * (nuint)sizeof(Overlapped), 64);
        NativeMemory.Clear(_base, (nuint)count * (nuint)sizeof(Overlapped));
    }

    public int Count { get; }
    public Overlapped* Base => _base;

    public Overlapped* PointerOf(int slot)
    {
        if ((uint)slot >= (uint)Count) throw new ArgumentOutOfRangeException(nameof(slot));
        return _base + slot;
    }

    /// <summary>The slot of an OVERLAPPED from this block; -1 for a pointer that is not one of ours.</summary>
    public int IndexOf(Overlapped* overlapped)
    {
        long byteOffset = (byte*)overlapped - (byte*)_base;
        if (byteOffset < 0 || byteOffset % sizeof(Overlapped) != 0) return -1;
        long slot = byteOffset / sizeof(Overlapped);
        return slot < Count ? (int)slot : -1;
    }

    /// <summary>Readies a slot for a new I/O at <paramref name="offset"/> (the kernel requires no stale status or event).</summary>
    public Overlapped* Prepare(int slot, long offset)
    {
        Overlapped* ov = PointerOf(slot);
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
