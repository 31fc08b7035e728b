using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// CRC32C (Castagnoli), hardware-accelerated through <see cref="BitOperations.Crc32C(uint, ulong)"/>.
/// </summary>
/// <remarks>
/// Every page the engine reads is verified and every page it writes is stamped with this CRC, so its speed
/// is a large share of the CPU per transactional I/O (issue 34: a third of the I/O thread's samples). One
/// chain of crc32 instructions waits three cycles on each, while the CPU can start one every cycle: a long
/// buffer is cut into stripes of three equal blocks, the three chains run side by side, and their values are
/// joined by shifting the earlier ones over the later blocks' length (CRC is linear: the CRC of A then B is
/// the CRC of A run over |B| zero bytes, xor the CRC of B from zero). The shift is a table lookup per byte of
/// the CRC, so a stripe costs four lookups more than its three chains.
/// </remarks>
public static class Crc32C
{
    /// <summary>Bytes per chain in a stripe of a long buffer (a 32 KiB page: two stripes, then short ones).</summary>
    private const int LongBlock = 4096;
    /// <summary>Bytes per chain in the short stripes that take what is left of a long buffer.</summary>
    private const int ShortBlock = 256;

    private static readonly uint[] ShiftLong = ShiftTable(LongBlock);
    private static readonly uint[] ShiftShort = ShiftTable(ShortBlock);

    /// <summary>CRC32C of <paramref name="data"/> (standard init/final xor with 0xFFFFFFFF).</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => ~Append(0xFFFFFFFFu, data);

    /// <summary>Continues a raw (not finalised) CRC over more bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written and verified goes through here: no slow first tier
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        ref byte p = ref MemoryMarshal.GetReference(data);
        int left = data.Length;
        while (left >= 3 * LongBlock)
        {
            crc = Stripe(crc, ref p, LongBlock, ShiftLong);
            p = ref Unsafe.Add(ref p, 3 * LongBlock);
            left -= 3 * LongBlock;
        }
        while (left >= 3 * ShortBlock)
        {
            crc = Stripe(crc, ref p, ShortBlock, ShiftShort);
            p = ref Unsafe.Add(ref p, 3 * ShortBlock);
            left -= 3 * ShortBlock;
        }
        for (; left >= 8; left -= 8, p = ref Unsafe.Add(ref p, 8))
            crc = BitOperations.Crc32C(crc, Word(ref p, 0));
        for (; left > 0; left--, p = ref Unsafe.Add(ref p, 1))
            crc = BitOperations.Crc32C(crc, p);
        return crc;
    }

    /// <summary>The raw CRC <paramref name="crc"/> continued over three blocks of <paramref name="block"/> bytes from <paramref name="p"/>, three chains at once.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Stripe(uint crc, ref byte p, int block, uint[] shift)
    {
        uint c0 = crc, c1 = 0, c2 = 0;
        ref byte p1 = ref Unsafe.Add(ref p, block);
        ref byte p2 = ref Unsafe.Add(ref p, 2 * block);
        for (int i = 0; i < block; i += 8)
        {
            c0 = BitOperations.Crc32C(c0, Word(ref p, i));
            c1 = BitOperations.Crc32C(c1, Word(ref p1, i));
            c2 = BitOperations.Crc32C(c2, Word(ref p2, i));
        }
        return Shift(Shift(c0, shift) ^ c1, shift) ^ c2;
    }

    /// <summary>The raw CRC <paramref name="crc"/> run over the table's number of zero bytes (linear: one lookup per byte of it).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Shift(uint crc, uint[] table) =>
        table[crc & 0xFF] ^ table[256 + ((crc >> 8) & 0xFF)] ^ table[512 + ((crc >> 16) & 0xFF)] ^ table[768 + (crc >> 24)];

    /// <summary>For each byte position k and value b: the raw CRC of b &lt;&lt; 8k run over <paramref name="zeros"/> zero bytes.</summary>
    private static uint[] ShiftTable(int zeros)
    {
        var table = new uint[4 * 256];
        for (int k = 0; k < 4; k++)
        {
            for (int b = 0; b < 256; b++)
            {
                uint crc = (uint)b << (8 * k);
                for (int i = 0; i < zeros; i += 8) crc = BitOperations.Crc32C(crc, 0UL);
                table[k * 256 + b] = crc;
            }
        }
        return table;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Word(ref byte p, int offset)
    {
        ulong w = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref p, offset));
        return BitConverter.IsLittleEndian ? w : BinaryPrimitives.ReverseEndianness(w);
    }
}
