using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Io;

/// <summary>
/// Native memory aligned for direct I/O (to at least 4 KiB and the device's physical sector).
/// Off the GC heap, so addresses are stable and nothing is pinned per I/O.
/// </summary>
public sealed unsafe class AlignedBuffer : IDisposable
{
    private void* _ptr;

    public AlignedBuffer(int length, int alignment = 4096)
    {
        if (length <= 0) throw new ArgumentOutOfRangeException(nameof(length));
        alignment = Math.Max(alignment, 4096);
        if ((alignment & (alignment - 1)) != 0) throw new ArgumentException("Alignment must be a power of two.", nameof(alignment));
        _ptr = NativeMemory.AlignedAlloc((nuint)length, (nuint)alignment);
        NativeMemory.Clear(_ptr, (nuint)length);
        Length = length;
        Alignment = alignment;
    }

    public int Length { get; }
    public int Alignment { get; }
    public nint Address => (nint)_ptr;
    public Span<byte> Span => new(_ptr, Length);
    public Span<byte> Slice(int offset, int length) => new((byte*)_ptr + offset, length);

    public void Dispose()
    {
        if (_ptr != null)
        {
            NativeMemory.AlignedFree(_ptr);
            _ptr = null;
        }
    }
}
