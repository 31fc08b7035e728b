using System.Buffers.Binary;
using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Load.Sources;

/// <summary>
/// Incompressible, never-repeating write content for raw streams. A buffer is filled with PRNG data
/// once (on first use); after that each write only restamps a 16-byte header (offset, sequence), so no
/// two writes are byte copies (no dedupe) without paying a full refill per I/O.
/// </summary>
internal static class WriteContent
{
    public static void Stamp(Span<byte> buffer, long offset, ref ulong state)
    {
        var words = MemoryMarshal.Cast<byte, ulong>(buffer);
        if (words.Length >= 4 && words[2] == 0 && words[3] == 0)
        {
            for (int i = 0; i < words.Length; i++) words[i] = Next(ref state);
        }
        BinaryPrimitives.WriteInt64LittleEndian(buffer, offset);
        BinaryPrimitives.WriteUInt64LittleEndian(buffer[8..], Next(ref state));
    }

    /// <summary>xorshift64*: fast, full-period, good enough to defeat compression and dedupe.</summary>
    public static ulong Next(ref ulong state)
    {
        ulong x = state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        state = x;
        return x * 0x2545F4914F6CDD1DUL;
    }
}
