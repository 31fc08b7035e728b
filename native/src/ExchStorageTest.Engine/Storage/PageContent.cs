using System.Buffers.Binary;
using System.Numerics;
using System.Runtime.InteropServices;

namespace ExchStorageTest.Engine.Storage;

/// <summary>
/// Incompressible, non-deduplicable filler: xoshiro256** seeded (through splitmix64) from the
/// database's random instance id, the page and its write generation. Two databases never share a
/// page image, and a rewritten page never repeats its previous image.
/// </summary>
public static class PageContent
{
    public static void Fill(Span<byte> target, ulong instanceId, long page, long generation)
    {
        ulong seed = instanceId ^ ((ulong)page * 0x9E3779B97F4A7C15UL) ^ ((ulong)generation * 0xC2B2AE3D27D4EB4FUL);
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

    private static ulong SplitMix(ref ulong x)
    {
        ulong z = x += 0x9E3779B97F4A7C15UL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
        return z ^ (z >> 31);
    }
}
