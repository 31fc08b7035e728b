using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Incompressible, non-deduplicable filler: four xoshiro256** generators seeded (through splitmix64) from
/// the database's random instance id, the page and its write generation; word i of the region comes from
/// generator i mod 4. Two databases never share a page image, and a rewritten page never repeats its
/// previous image.
/// </summary>
/// <remarks>
/// Four generators per region, not one: a single xoshiro chain is serial (each word waits on the last), so
/// a 32 KiB page took as long as its CRC, and every page a flush writes is filled anew (issue 34). The
/// four run side by side in the lanes of one AVX2 register, which yields four consecutive words per step,
/// stored as they come. Where AVX2 is missing the same four generators run in scalar code, word for word
/// the same bytes (a test holds the two equal).
/// </remarks>
public static class PageContent
{
    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written goes through here: no slow first tier
    public static unsafe void Fill(Span<byte> target, ulong instanceId, long page, long generation)
    {
        // Lane k's state is (state[k], state[4 + k], state[8 + k], state[12 + k]).
        ulong* state = stackalloc ulong[16];
        ulong seed = Seed(instanceId, page, generation);
        for (int lane = 0; lane < 4; lane++)
            for (int k = 0; k < 4; k++) state[k * 4 + lane] = SplitMix(ref seed);
        int words = target.Length / 8;
        int word = 0;
        fixed (byte* basePtr = target)
        {
            if (Avx2.IsSupported && words >= 4)
            {
                Vector256<ulong> s0 = Avx.LoadVector256(state), s1 = Avx.LoadVector256(state + 4), s2 = Avx.LoadVector256(state + 8), s3 = Avx.LoadVector256(state + 12);
                for (; word + 4 <= words; word += 4)
                    Avx.Store((ulong*)(basePtr + word * 8), Next(ref s0, ref s1, ref s2, ref s3));
                Avx.Store(state, s0); Avx.Store(state + 4, s1); Avx.Store(state + 8, s2); Avx.Store(state + 12, s3);
            }
            for (; word < words; word++) BinaryPrimitives.WriteUInt64LittleEndian(new Span<byte>(basePtr + word * 8, 8), NextScalar(state, word & 3));
            int tail = target.Length - words * 8;
            if (tail > 0)
            {
                // The last partial word: the low bytes of the next word of its generator.
                ulong last = NextScalar(state, words & 3);
                for (int i = 0; i < tail; i++) basePtr[words * 8 + i] = (byte)(last >> (8 * i));
            }
        }
    }

    /// <summary>One xoshiro256** step of generator <paramref name="lane"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe ulong NextScalar(ulong* state, int lane)
    {
        ulong s0 = state[lane], s1 = state[4 + lane], s2 = state[8 + lane], s3 = state[12 + lane];
        ulong result = BitOperations.RotateLeft(s1 * 5, 7) * 9;
        ulong t = s1 << 17;
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
        s3 = BitOperations.RotateLeft(s3, 45);
        state[lane] = s0; state[4 + lane] = s1; state[8 + lane] = s2; state[12 + lane] = s3;
        return result;
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
