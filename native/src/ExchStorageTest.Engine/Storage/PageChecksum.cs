using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// The checksum a database page carries (page format 2): each 4 KiB sector is folded by XOR into four
/// 64-byte accumulators, and the folded sectors (2 KiB for a 32 KiB page) are run through CRC32C. Accumulator
/// c of a sector takes the sector's 64-byte lines c, c + 4, ... c + 60, turning itself left by one bit (in each
/// 64-bit word) before each line, so one bit flipped in several lines lands on different bits and does not cancel.
/// The page's first four bytes, where the checksum is kept, count as zero.
/// </summary>
/// <remarks>
/// Why not a CRC32C of the whole page, as format 1 had: it cost 1.0-1.4 µs a page, a fifth of the CPU per
/// transactional I/O, because a CRC is a chain of dependent steps (<see cref="Crc32C"/> already runs
/// three crc32 chains beside carry-less folding, all that .NET 8's intrinsics allow). Folding needs one load and
/// two vector operations per 64 bytes, four accumulators side by side, so it runs at about the speed the page
/// comes from memory; the CRC then only covers the 2 KiB of folded sectors. ESE's own page checksum is of the
/// same kind: an XOR checksum with an ECC over each 8 KiB block (microsoft/Extensible-Storage-Engine,
/// checksum.hxx). What it always catches: a single flipped bit, and two flipped bits except where they fold onto
/// one bit (same sector, same accumulator, same 64-bit word of their lines, bit positions as far apart as their
/// lines: for two random flips in a page, about one chance in 17,000 of passing — a CRC32C of the page caught
/// every two). Everything else — the same bit flipped in many lines (a stuck bit on a data path), a torn, stale,
/// zeroed or swapped sector, random damage — passes with odds of 2^-32, as with a CRC32C; a misdirected page is
/// caught by its identity.
/// </remarks>
public static class PageChecksum
{
    public const int SectorBytes = 4096;
    private const int LineBytes = 64;
    private const int Chains = 4;
    private const int LinesPerChain = SectorBytes / LineBytes / Chains;
    /// <summary>Folded bytes per sector: the four accumulators, one after another.</summary>
    public const int FoldedSectorBytes = Chains * LineBytes;
    private const int MaxSectors = PageFormat.PageSize / SectorBytes;

    /// <summary>The checksum of <paramref name="page"/>, a whole number of sectors up to a page (bytes 0..3 count as zero).</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written and verified goes through here
    public static uint Compute(ReadOnlySpan<byte> page)
    {
        if (page.Length % SectorBytes != 0 || page.Length > PageFormat.PageSize)
            throw new ArgumentException($"A page checksum covers whole {SectorBytes}-byte sectors, at most {PageFormat.PageSize} bytes; got {page.Length}.", nameof(page));
        Span<byte> folded = stackalloc byte[MaxSectors * FoldedSectorBytes];
        int bytes = page.Length / SectorBytes * FoldedSectorBytes;
        if (Avx512F.IsSupported) Fold512(page, folded);
        else if (Avx2.IsSupported) Fold256(page, folded);
        else FoldScalar(page, folded);
        return Crc32C.Compute(folded.Slice(0, bytes));
    }

    /// <summary>The folding with one 512-bit register per accumulator.</summary>
    internal static void Fold512(ReadOnlySpan<byte> page, Span<byte> folded)
    {
        ref byte p = ref MemoryMarshal.GetReference(page);
        ref byte f = ref MemoryMarshal.GetReference(folded);
        for (int s = 0; s < page.Length / SectorBytes; s++)
        {
            ref byte q = ref Unsafe.Add(ref p, s * SectorBytes);
            var a0 = Vector512.LoadUnsafe(ref q).AsUInt64();
            var a1 = Vector512.LoadUnsafe(ref q, LineBytes).AsUInt64();
            var a2 = Vector512.LoadUnsafe(ref q, 2 * LineBytes).AsUInt64();
            var a3 = Vector512.LoadUnsafe(ref q, 3 * LineBytes).AsUInt64();
            if (s == 0) a0 &= Vector512.Create(HeadMask, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue);
            for (nuint at = Chains * LineBytes; at < SectorBytes; at += Chains * LineBytes)
            {
                a0 = Avx512F.RotateLeft(a0, 1) ^ Vector512.LoadUnsafe(ref q, at).AsUInt64();
                a1 = Avx512F.RotateLeft(a1, 1) ^ Vector512.LoadUnsafe(ref q, at + LineBytes).AsUInt64();
                a2 = Avx512F.RotateLeft(a2, 1) ^ Vector512.LoadUnsafe(ref q, at + 2 * LineBytes).AsUInt64();
                a3 = Avx512F.RotateLeft(a3, 1) ^ Vector512.LoadUnsafe(ref q, at + 3 * LineBytes).AsUInt64();
            }
            ref byte o = ref Unsafe.Add(ref f, s * FoldedSectorBytes);
            a0.AsByte().StoreUnsafe(ref o);
            a1.AsByte().StoreUnsafe(ref o, LineBytes);
            a2.AsByte().StoreUnsafe(ref o, 2 * LineBytes);
            a3.AsByte().StoreUnsafe(ref o, 3 * LineBytes);
        }
    }

    /// <summary>The same folding with each 64-byte accumulator as two 256-bit halves (AVX2).</summary>
    internal static void Fold256(ReadOnlySpan<byte> page, Span<byte> folded)
    {
        ref byte p = ref MemoryMarshal.GetReference(page);
        ref byte f = ref MemoryMarshal.GetReference(folded);
        for (int s = 0; s < page.Length / SectorBytes; s++)
        {
            ref byte q = ref Unsafe.Add(ref p, s * SectorBytes);
            for (int half = 0; half < 2; half++)
            {
                ref byte h = ref Unsafe.Add(ref q, half * 32);
                var a0 = Vector256.LoadUnsafe(ref h).AsUInt64();
                var a1 = Vector256.LoadUnsafe(ref h, LineBytes).AsUInt64();
                var a2 = Vector256.LoadUnsafe(ref h, 2 * LineBytes).AsUInt64();
                var a3 = Vector256.LoadUnsafe(ref h, 3 * LineBytes).AsUInt64();
                if (s == 0 && half == 0) a0 &= Vector256.Create(HeadMask, ulong.MaxValue, ulong.MaxValue, ulong.MaxValue);
                for (nuint at = Chains * LineBytes; at < SectorBytes; at += Chains * LineBytes)
                {
                    a0 = Turn(a0) ^ Vector256.LoadUnsafe(ref h, at).AsUInt64();
                    a1 = Turn(a1) ^ Vector256.LoadUnsafe(ref h, at + LineBytes).AsUInt64();
                    a2 = Turn(a2) ^ Vector256.LoadUnsafe(ref h, at + 2 * LineBytes).AsUInt64();
                    a3 = Turn(a3) ^ Vector256.LoadUnsafe(ref h, at + 3 * LineBytes).AsUInt64();
                }
                ref byte o = ref Unsafe.Add(ref f, s * FoldedSectorBytes + half * 32);
                a0.AsByte().StoreUnsafe(ref o);
                a1.AsByte().StoreUnsafe(ref o, LineBytes);
                a2.AsByte().StoreUnsafe(ref o, 2 * LineBytes);
                a3.AsByte().StoreUnsafe(ref o, 3 * LineBytes);
            }
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ulong> Turn(Vector256<ulong> a) => Vector256.ShiftLeft(a, 1) | Vector256.ShiftRightLogical(a, 63);

    /// <summary>The same folding a 64-bit word at a time (the definition the vector paths must match).</summary>
    internal static void FoldScalar(ReadOnlySpan<byte> page, Span<byte> folded)
    {
        const int Words = LineBytes / 8;
        for (int s = 0; s < page.Length / SectorBytes; s++)
            for (int chain = 0; chain < Chains; chain++)
                for (int word = 0; word < Words; word++)
                {
                    ulong a = 0;
                    for (int k = 0; k < LinesPerChain; k++)
                    {
                        int at = s * SectorBytes + (k * Chains + chain) * LineBytes + word * 8;
                        ulong w = BinaryPrimitives.ReadUInt64LittleEndian(page.Slice(at));
                        if (at == 0) w &= HeadMask;
                        a = BitOperations.RotateLeft(a, 1) ^ w;
                    }
                    BinaryPrimitives.WriteUInt64LittleEndian(folded.Slice(s * FoldedSectorBytes + chain * LineBytes + word * 8), a);
                }
    }

    /// <summary>The page's first word without its first four bytes (the checksum's own place).</summary>
    private const ulong HeadMask = 0xFFFFFFFF00000000UL;
}
