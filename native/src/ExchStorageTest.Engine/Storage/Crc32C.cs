using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// CRC32C (Castagnoli), hardware-accelerated through <see cref="BitOperations.Crc32C(uint, ulong)"/>.
/// </summary>
/// <remarks>
/// Every log block, every database header and every page's checksum (its folded 2 KiB, <see cref="PageChecksum"/>)
/// goes through here, and every page of a format 1 database did whole, when it was a third of the I/O thread's
/// samples (the reason pages now fold first). One chain of crc32 instructions waits three cycles on each, while the CPU can start one every cycle: a long
/// buffer is cut into stripes of three equal blocks, the three chains run side by side, and their values are
/// joined by shifting the earlier ones over the later blocks' length (CRC is linear: the CRC of A then B is
/// the CRC of A run over |B| zero bytes, xor the CRC of B from zero). That keeps the crc32 unit busy; where
/// the CPU has carry-less multiplication (PCLMULQDQ, x86-64) a chunk also folds a first part of it 64 bytes
/// at a time with four 128-bit accumulators on the vector unit while the three crc32 chains take the rest,
/// both in one loop, so the two units work at once (about 2x the three chains alone: ~1.0 µs for a 32 KiB
/// page instead of ~2.0). The constants are powers of x modulo the polynomial, computed at start-up; a
/// test holds every path to the bytewise definition.
/// </remarks>
public static class Crc32C
{
    /// <summary>Bytes per chain in a stripe of a long buffer (without carry-less folding, a 32 KiB page: two stripes, then shorter ones).</summary>
    private const int LongBlock = 4096;
    /// <summary>
    /// Bytes per chain in a stripe of a middle-sized buffer: a third of the 2 KiB a page's checksum folds a page into
    /// (<see cref="PageChecksum"/>), so that runs in one stripe, not two short ones and 512 bytes on one chain (0.17 µs).
    /// </summary>
    private const int MidBlock = 680;
    /// <summary>Bytes per chain in the short stripes that take what is left of a long buffer.</summary>
    private const int ShortBlock = 256;

    private static readonly uint[] ShiftLong = ShiftTable(LongBlock);
    private static readonly uint[] ShiftMid = ShiftTable(MidBlock);
    private static readonly uint[] ShiftShort = ShiftTable(ShortBlock);

    /// <summary>Fold steps per chunk: each folds 64 bytes on the vector unit and runs three crc32 words on each of three chains.</summary>
    private const int FoldSteps = 60;
    private const int FoldBytes = 64 * FoldSteps;
    private const int ChainBytes = 24 * FoldSteps;
    /// <summary>Bytes per folded chunk: the folded part, then the three chains' parts (8,160).</summary>
    private const int Chunk = FoldBytes + 3 * ChainBytes;
    private static readonly bool Folding = Pclmulqdq.IsSupported && Sse42.X64.IsSupported;
    // Folding a 16-byte accumulator n bytes on: its low half times x^(8n+31), its high half times x^(8n-33) (reflected).
    private static readonly Vector128<ulong> Fold64 = Vector128.Create((ulong)XPower(8 * 64 + 31), XPower(8 * 64 - 33));
    private static readonly Vector128<ulong> Fold16 = Vector128.Create((ulong)XPower(8 * 16 + 31), XPower(8 * 16 - 33));
    // Shifting a CRC n bytes on: crc32(0, c times x^(8n-33)).
    private static readonly ulong ShiftChains3 = XPower(8 * 3 * ChainBytes - 33), ShiftChains2 = XPower(8 * 2 * ChainBytes - 33), ShiftChains1 = XPower(8 * ChainBytes - 33);

    /// <summary>CRC32C of <paramref name="data"/> (standard init/final xor with 0xFFFFFFFF).</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => ~Append(0xFFFFFFFFu, data);

    /// <summary>Continues a raw (not finalised) CRC over more bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written and verified goes through here: no slow first tier
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        ref byte p = ref MemoryMarshal.GetReference(data);
        int left = data.Length;
        if (Folding)
        {
            for (; left >= Chunk; left -= Chunk, p = ref Unsafe.Add(ref p, Chunk))
                crc = FoldChunk(crc, ref p);
        }
        while (left >= 3 * LongBlock)
        {
            crc = Stripe(crc, ref p, LongBlock, ShiftLong);
            p = ref Unsafe.Add(ref p, 3 * LongBlock);
            left -= 3 * LongBlock;
        }
        while (left >= 3 * MidBlock)
        {
            crc = Stripe(crc, ref p, MidBlock, ShiftMid);
            p = ref Unsafe.Add(ref p, 3 * MidBlock);
            left -= 3 * MidBlock;
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

    /// <summary>
    /// The raw CRC <paramref name="crc"/> continued over one <see cref="Chunk"/> from <paramref name="p"/>: its first
    /// <see cref="FoldBytes"/> folded by carry-less multiplication (the CRC enters as the first bytes' xor), the
    /// three parts after it on three crc32 chains in the same loop; the four joined by shifting.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint FoldChunk(uint crc, ref byte p)
    {
        ref byte s0 = ref Unsafe.Add(ref p, FoldBytes);
        ref byte s1 = ref Unsafe.Add(ref s0, ChainBytes);
        ref byte s2 = ref Unsafe.Add(ref s1, ChainBytes);
        var x0 = Sse2.Xor(Load(ref p, 0), Vector128.CreateScalar((ulong)crc));
        Vector128<ulong> x1 = Load(ref p, 16), x2 = Load(ref p, 32), x3 = Load(ref p, 48);
        uint c0 = 0, c1 = 0, c2 = 0;
        var k = Fold64;
        for (int step = 0; step < FoldSteps; step++)
        {
            if (step > 0)
            {
                int v = step * 64;
                x0 = Fold(x0, k, Load(ref p, v));
                x1 = Fold(x1, k, Load(ref p, v + 16));
                x2 = Fold(x2, k, Load(ref p, v + 32));
                x3 = Fold(x3, k, Load(ref p, v + 48));
            }
            int w = step * 24;
            c0 = BitOperations.Crc32C(c0, Word(ref s0, w)); c1 = BitOperations.Crc32C(c1, Word(ref s1, w)); c2 = BitOperations.Crc32C(c2, Word(ref s2, w));
            c0 = BitOperations.Crc32C(c0, Word(ref s0, w + 8)); c1 = BitOperations.Crc32C(c1, Word(ref s1, w + 8)); c2 = BitOperations.Crc32C(c2, Word(ref s2, w + 8));
            c0 = BitOperations.Crc32C(c0, Word(ref s0, w + 16)); c1 = BitOperations.Crc32C(c1, Word(ref s1, w + 16)); c2 = BitOperations.Crc32C(c2, Word(ref s2, w + 16));
        }
        var x = Fold(Fold(Fold(x0, Fold16, x1), Fold16, x2), Fold16, x3);
        uint folded = BitOperations.Crc32C(BitOperations.Crc32C(0u, x.GetElement(0)), x.GetElement(1));
        return ShiftBy(folded, ShiftChains3) ^ ShiftBy(c0, ShiftChains2) ^ ShiftBy(c1, ShiftChains1) ^ c2;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ulong> Fold(Vector128<ulong> x, Vector128<ulong> k, Vector128<ulong> next) =>
        Sse2.Xor(Sse2.Xor(Pclmulqdq.CarrylessMultiply(x, k, 0x00), Pclmulqdq.CarrylessMultiply(x, k, 0x11)), next);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint ShiftBy(uint crc, ulong power) =>
        BitOperations.Crc32C(0u, Pclmulqdq.CarrylessMultiply(Vector128.CreateScalar((ulong)crc), Vector128.CreateScalar(power), 0x00).ToScalar());

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<ulong> Load(ref byte p, int offset) => Vector128.LoadUnsafe(ref Unsafe.Add(ref p, offset)).AsUInt64();

    /// <summary>x^<paramref name="e"/> modulo the CRC32C polynomial, bit-reflected (bit 31 - i holds x^i).</summary>
    private static uint XPower(int e)
    {
        uint r = 0x80000000u;
        for (int i = 0; i < e; i++) r = (r & 1) != 0 ? (r >> 1) ^ 0x82F63B78u : r >> 1;
        return r;
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
