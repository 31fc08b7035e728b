using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Incompressible, non-deduplicable filler: eight xoshiro256+ generators seeded (through splitmix64) from
/// the database's random instance id, the page and its write generation; word i of the region comes from
/// generator i mod 8. Two databases never share a page image, and a rewritten page never repeats its
/// previous image. Database pages with a data profile (<see cref="DatabaseContent"/>) use the same generators for
/// the incompressible part of each block.
/// </summary>
/// <remarks>
/// Eight generators per region, not one: a single xoshiro chain is serial (each word waits on the last), so
/// a 32 KiB page took as long as its CRC, and every page a flush writes is filled anew. The
/// eight run side by side in the lanes of one AVX-512 register (two AVX2 registers where AVX-512 is
/// missing), which yields eight consecutive words per step, stored as they come. Without either, the same
/// eight generators run in scalar code, word for word the same bytes (a test holds the paths equal).
/// xoshiro256+ (the output is s0 + s3), not xoshiro256** (rotl(s1 * 5, 7) * 9): the scrambler was five of the
/// step's twelve vector operations, all on the one port that shifts and rotates, and a page filled in 1.25 µs
/// instead of 0.85. What + gives up — its lowest bits are a linear sequence, which statistical test
/// suites detect — no compressor or deduplicating array can use: the bytes are as uniform and as unique.
/// </remarks>
public static class PageContent
{
    private const int Lanes = 8;

    /// <summary>The generators' state: four words for each of the eight lanes (<see cref="Seed(ulong*, ulong, long, long)"/>, <see cref="Generate"/>).</summary>
    public const int StateWords = 4 * Lanes;

    [MethodImpl(MethodImplOptions.AggressiveOptimization)] // every page written goes through here: no slow first tier
    public static unsafe void Fill(Span<byte> target, ulong instanceId, long page, long generation)
    {
        ulong* state = stackalloc ulong[StateWords];
        Seed(state, instanceId, page, generation);
        fixed (byte* basePtr = target) Generate(state, basePtr, target.Length);
    }

    /// <summary>Seeds the eight generators of one region (or of several that <see cref="Generate"/> continues across).</summary>
    public static unsafe void Seed(ulong* state, ulong instanceId, long page, long generation)
    {
        // Lane k's state is (state[k], state[8 + k], state[16 + k], state[24 + k]).
        ulong seed = Seed(instanceId, page, generation);
        for (int lane = 0; lane < Lanes; lane++)
            for (int k = 0; k < 4; k++) state[k * Lanes + lane] = SplitMix(ref seed);
    }

    /// <summary>
    /// Writes <paramref name="length"/> bytes from the generators, continuing where the last call left them (a data
    /// profile fills the incompressible part of each block this way, seeded once per page). Lengths other than a whole
    /// number of words belong to the last call only: the partial word's other bytes are dropped.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static unsafe void Generate(ulong* state, byte* basePtr, int length)
    {
        int words = length / 8;
        int word = 0;
        if (Avx512F.IsSupported)
        {
            Vector512<ulong> s0 = Avx512F.LoadVector512(state), s1 = Avx512F.LoadVector512(state + 8), s2 = Avx512F.LoadVector512(state + 16), s3 = Avx512F.LoadVector512(state + 24);
            for (; word + Lanes <= words; word += Lanes)
                Avx512F.Store((ulong*)(basePtr + word * 8), Next(ref s0, ref s1, ref s2, ref s3));
            Avx512F.Store(state, s0); Avx512F.Store(state + 8, s1); Avx512F.Store(state + 16, s2); Avx512F.Store(state + 24, s3);
        }
        else if (Avx2.IsSupported)
        {
            // Lanes 0-3 in one register set, 4-7 in the other: each step stores words w..w+3, then w+4..w+7.
            Vector256<ulong> a0 = Avx.LoadVector256(state), a1 = Avx.LoadVector256(state + 8), a2 = Avx.LoadVector256(state + 16), a3 = Avx.LoadVector256(state + 24);
            Vector256<ulong> b0 = Avx.LoadVector256(state + 4), b1 = Avx.LoadVector256(state + 12), b2 = Avx.LoadVector256(state + 20), b3 = Avx.LoadVector256(state + 28);
            for (; word + Lanes <= words; word += Lanes)
            {
                Avx.Store((ulong*)(basePtr + word * 8), Next(ref a0, ref a1, ref a2, ref a3));
                Avx.Store((ulong*)(basePtr + word * 8 + 32), Next(ref b0, ref b1, ref b2, ref b3));
            }
            Avx.Store(state, a0); Avx.Store(state + 8, a1); Avx.Store(state + 16, a2); Avx.Store(state + 24, a3);
            Avx.Store(state + 4, b0); Avx.Store(state + 12, b1); Avx.Store(state + 20, b2); Avx.Store(state + 28, b3);
        }
        for (; word < words; word++) BinaryPrimitives.WriteUInt64LittleEndian(new Span<byte>(basePtr + word * 8, 8), NextScalar(state, word % Lanes));
        int tail = length - words * 8;
        if (tail > 0)
        {
            // The last partial word: the low bytes of the next word of its generator.
            ulong last = NextScalar(state, words % Lanes);
            for (int i = 0; i < tail; i++) basePtr[words * 8 + i] = (byte)(last >> (8 * i));
        }
    }

    /// <summary>The bytes one step of the eight generators writes (a word a lane).</summary>
    public const int StepBytes = 8 * Lanes;

    /// <summary>
    /// A data profile's sectors (<see cref="DatabaseContent"/>): <paramref name="sectors"/> sectors of <paramref name="sectorBytes"/>
    /// from <paramref name="basePtr"/>, each its first <paramref name="randomBytes"/>[s mod length] bytes from the generators (the
    /// first sector's from <paramref name="skip"/>), continuing where the last sector left them, then <paramref name="word"/>
    /// repeated to its end. Each sector's random bytes are written in whole steps (<see cref="StepBytes"/>): the excess lies in its
    /// run, written after it, or (the first sector past <paramref name="skip"/> only) in the next sector's random bytes. The same
    /// bytes as <see cref="Generate"/> per sector with that rounded length, with the generators kept in registers across sectors
    /// (one call a page, not one a sector; the share's index wraps by a compare, not a division). Each random share is whole words and, but for the first sector's, not zero: the
    /// first sector's excess lies in the next sector's random bytes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static unsafe void GenerateSectors(ulong* state, byte* basePtr, int sectors, int sectorBytes, ReadOnlySpan<int> randomBytes, int skip, ulong word)
    {
        if (Avx512F.IsSupported)
        {
            Vector512<ulong> s0 = Avx512F.LoadVector512(state), s1 = Avx512F.LoadVector512(state + 8), s2 = Avx512F.LoadVector512(state + 16), s3 = Avx512F.LoadVector512(state + 24);
            var run = Vector512.Create(word);
            for (int s = 0, k = 0; s < sectors; s++, k = k + 1 == randomBytes.Length ? 0 : k + 1)
            {
                byte* sector = basePtr + s * sectorBytes;
                int from = s == 0 ? skip : 0;
                int random = Math.Max(randomBytes[k], from);
                for (byte* p = sector + from; p < sector + random; p += StepBytes) Avx512F.Store((ulong*)p, Next(ref s0, ref s1, ref s2, ref s3));
                Run(sector + random, sector + sectorBytes, run);
            }
            Avx512F.Store(state, s0); Avx512F.Store(state + 8, s1); Avx512F.Store(state + 16, s2); Avx512F.Store(state + 24, s3);
            return;
        }
        if (Avx2.IsSupported)
        {
            Vector256<ulong> a0 = Avx.LoadVector256(state), a1 = Avx.LoadVector256(state + 8), a2 = Avx.LoadVector256(state + 16), a3 = Avx.LoadVector256(state + 24);
            Vector256<ulong> b0 = Avx.LoadVector256(state + 4), b1 = Avx.LoadVector256(state + 12), b2 = Avx.LoadVector256(state + 20), b3 = Avx.LoadVector256(state + 28);
            var run = Vector256.Create(word);
            for (int s = 0, k = 0; s < sectors; s++, k = k + 1 == randomBytes.Length ? 0 : k + 1)
            {
                byte* sector = basePtr + s * sectorBytes;
                int from = s == 0 ? skip : 0;
                int random = Math.Max(randomBytes[k], from);
                for (byte* p = sector + from; p < sector + random; p += StepBytes)
                {
                    Avx.Store((ulong*)p, Next(ref a0, ref a1, ref a2, ref a3));
                    Avx.Store((ulong*)(p + 32), Next(ref b0, ref b1, ref b2, ref b3));
                }
                Run(sector + random, sector + sectorBytes, run);
            }
            Avx.Store(state, a0); Avx.Store(state + 8, a1); Avx.Store(state + 16, a2); Avx.Store(state + 24, a3);
            Avx.Store(state + 4, b0); Avx.Store(state + 12, b1); Avx.Store(state + 20, b2); Avx.Store(state + 28, b3);
            return;
        }
        for (int s = 0; s < sectors; s++)
        {
            byte* sector = basePtr + s * sectorBytes;
            int from = s == 0 ? skip : 0;
            int random = Math.Max(randomBytes[s % randomBytes.Length], from);
            if (random > from) Generate(state, sector + from, (random - from + StepBytes - 1) / StepBytes * StepBytes);
            for (byte* p = sector + random; p < sector + sectorBytes; p += 8) *(ulong*)p = word;
        }
    }

    /// <summary>
    /// [<paramref name="from"/>, <paramref name="to"/>) filled with the repeated word <paramref name="run"/> holds, whole words: a
    /// run repeats every 8 bytes from a word boundary, so a store at any word boundary writes the same bytes, and stores may
    /// overlap (never the bytes before <paramref name="from"/>). Aligned where the run starts on a word boundary in memory:
    /// a store across two cache lines costs about two, and a sector's run starts anywhere in a line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe void Run<T>(byte* from, byte* to, T run) where T : unmanaged
    {
        int size = sizeof(T);
        if (to - from < size)
        {
            ulong word = *(ulong*)&run;
            for (byte* q = from; q < to; q += 8) *(ulong*)q = word;
            return;
        }
        byte* p = from;
        if (((nuint)from & 7) == 0)
        {
            // Stores that do not straddle cache lines: one at the start, then from the next aligned address (a word boundary
            // too, the run starting on one), the last ending at the end.
            *(T*)p = run;
            p = (byte*)(((nuint)from + (nuint)size) & ~(nuint)(size - 1));
        }
        for (; p + size <= to; p += size) *(T*)p = run;
        if (p < to) *(T*)(to - size) = run;
    }

    /// <summary>One xoshiro256+ step of generator <paramref name="lane"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static unsafe ulong NextScalar(ulong* state, int lane)
    {
        ulong s0 = state[lane], s1 = state[Lanes + lane], s2 = state[2 * Lanes + lane], s3 = state[3 * Lanes + lane];
        ulong result = s0 + s3;
        ulong t = s1 << 17;
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t;
        s3 = BitOperations.RotateLeft(s3, 45);
        state[lane] = s0; state[Lanes + lane] = s1; state[2 * Lanes + lane] = s2; state[3 * Lanes + lane] = s3;
        return result;
    }

    /// <summary>One xoshiro256+ step in each of eight lanes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ulong> Next(ref Vector512<ulong> s0, ref Vector512<ulong> s1, ref Vector512<ulong> s2, ref Vector512<ulong> s3)
    {
        Vector512<ulong> result = Avx512F.Add(s0, s3);
        Vector512<ulong> t = Avx512F.ShiftLeftLogical(s1, 17);
        s2 = Avx512F.Xor(s2, s0);
        s3 = Avx512F.Xor(s3, s1);
        s1 = Avx512F.Xor(s1, s2);
        s0 = Avx512F.Xor(s0, s3);
        s2 = Avx512F.Xor(s2, t);
        s3 = Avx512F.RotateLeft(s3, 45);
        return result;
    }

    /// <summary>One xoshiro256+ step in each of four lanes (AVX2).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<ulong> Next(ref Vector256<ulong> s0, ref Vector256<ulong> s1, ref Vector256<ulong> s2, ref Vector256<ulong> s3)
    {
        Vector256<ulong> result = Avx2.Add(s0, s3);
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
