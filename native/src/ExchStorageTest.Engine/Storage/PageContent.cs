using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Incompressible, non-deduplicable filler: xoshiro256** seeded (through splitmix64) from the
/// database's random instance id, the page and its write generation. Two databases never share a
/// page image, and a rewritten page never repeats its previous image.
/// </summary>
/// <remarks>
/// Each page's generator is serial, but pages are independent: <see cref="Fill4"/> runs four pages'
/// generators side by side in the lanes of one AVX2 register, writing exactly the bytes four calls of
/// <see cref="Fill"/> would (a test holds them equal). Database creation stamps at device speed with it.
/// </remarks>
public static class PageContent
{
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // creation stamps gigabytes from its first page: no slow first tier
    public static void Fill(Span<byte> target, ulong instanceId, long page, long generation)
    {
        ulong seed = Seed(instanceId, page, generation);
        ulong s0 = SplitMix(ref seed), s1 = SplitMix(ref seed), s2 = SplitMix(ref seed), s3 = SplitMix(ref seed);
        var words = MemoryMarshal.Cast<byte, ulong>(target);
        for (int i = 0; i < words.Length; i++)
        {
            ulong result = BitOperations.RotateLeft(s1 * 5, 7) * 9;
            ulong t = s1 << 17;
            s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
            s3 = BitOperations.RotateLeft(s3, 45);
            words[i] = BitConverter.IsLittleEndian ? result : BinaryPrimitives.ReverseEndianness(result);
        }
        for (int i = words.Length * 8; i < target.Length; i++) target[i] = (byte)SplitMix(ref seed);
    }

    /// <summary>True where <see cref="Fill4"/> runs four generators at once (x86-64 with AVX2).</summary>
    public static bool Fill4Accelerated => Avx2.IsSupported;

    /// <summary>
    /// Fills the content of four pages at once: region i (of <paramref name="length"/> bytes, a multiple
    /// of 32) starts at <paramref name="first"/> + i * <paramref name="stride"/> and gets exactly what
    /// <see cref="Fill"/>(region, instanceId, pages[i], generations[i]) would write.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static unsafe void Fill4(ref byte first, int stride, int length, ulong instanceId, ReadOnlySpan<long> pages, ReadOnlySpan<long> generations)
    {
        if (!Avx2.IsSupported || length % 32 != 0)
        {
            for (int i = 0; i < 4; i++)
                Fill(MemoryMarshal.CreateSpan(ref Unsafe.Add(ref first, i * stride), length), instanceId, pages[i], generations[i]);
            return;
        }
        ulong* seeds = stackalloc ulong[16];
        for (int lane = 0; lane < 4; lane++)
        {
            ulong seed = Seed(instanceId, pages[lane], generations[lane]);
            for (int k = 0; k < 4; k++) seeds[k * 4 + lane] = SplitMix(ref seed);
        }
        Vector256<ulong> s0 = Avx.LoadVector256(seeds), s1 = Avx.LoadVector256(seeds + 4), s2 = Avx.LoadVector256(seeds + 8), s3 = Avx.LoadVector256(seeds + 12);
        fixed (byte* basePtr = &first)
        {
            byte* p0 = basePtr, p1 = basePtr + stride, p2 = basePtr + 2 * stride, p3 = basePtr + 3 * stride;
            for (int offset = 0; offset < length; offset += 32)
            {
                // Four steps give words w..w+3 of the four pages, one page per lane ...
                Vector256<ulong> r0 = Next(ref s0, ref s1, ref s2, ref s3);
                Vector256<ulong> r1 = Next(ref s0, ref s1, ref s2, ref s3);
                Vector256<ulong> r2 = Next(ref s0, ref s1, ref s2, ref s3);
                Vector256<ulong> r3 = Next(ref s0, ref s1, ref s2, ref s3);
                // ... transposed so each page's four words are stored together.
                Vector256<ulong> t0 = Avx2.UnpackLow(r0, r1), t1 = Avx2.UnpackHigh(r0, r1);
                Vector256<ulong> t2 = Avx2.UnpackLow(r2, r3), t3 = Avx2.UnpackHigh(r2, r3);
                Avx.Store((ulong*)(p0 + offset), Avx2.Permute2x128(t0, t2, 0x20));
                Avx.Store((ulong*)(p1 + offset), Avx2.Permute2x128(t1, t3, 0x20));
                Avx.Store((ulong*)(p2 + offset), Avx2.Permute2x128(t0, t2, 0x31));
                Avx.Store((ulong*)(p3 + offset), Avx2.Permute2x128(t1, t3, 0x31));
            }
        }
    }

    /// <summary>One xoshiro256** step in each lane: rotl(s1 * 5, 7) * 9, multiplications as shifts and adds.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ulong> Next(ref Vector256<ulong> s0, ref Vector256<ulong> s1, ref Vector256<ulong> s2, ref Vector256<ulong> s3)
    {
        Vector256<ulong> x5 = Avx2.Add(Avx2.ShiftLeftLogical(s1, 2), s1);
        Vector256<ulong> rot = Avx2.Or(Avx2.ShiftLeftLogical(x5, 7), Avx2.ShiftRightLogical(x5, 57));
        Vector256<ulong> result = Avx2.Add(Avx2.ShiftLeftLogical(rot, 3), rot);
        Vector256<ulong> t = Avx2.ShiftLeftLogical(s1, 17);
        s2 = Avx2.Xor(s2, s0);
        s3 = Avx2.Xor(s3, s1);
        s1 = Avx2.Xor(s1, s2);
        s0 = Avx2.Xor(s0, s3);
        s2 = Avx2.Xor(s2, t);
        s3 = Avx2.Or(Avx2.ShiftLeftLogical(s3, 45), Avx2.ShiftRightLogical(s3, 19));
        return result;
    }

    private static ulong Seed(ulong instanceId, long page, long generation) =>
        instanceId ^ ((ulong)page * 0x9E3779B97F4A7C15UL) ^ ((ulong)generation * 0xC2B2AE3D27D4EB4FUL);

    private static ulong SplitMix(ref ulong x)
    {
        ulong z = x += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
