using System.Buffers.Binary;
using System.Numerics;

namespace ExchStorageTest.Engine.Storage;

/// <summary>CRC32C (Castagnoli), hardware-accelerated through <see cref="BitOperations.Crc32C(uint, ulong)"/>.</summary>
public static class Crc32C
{
    /// <summary>CRC32C of <paramref name="data"/> (standard init/final xor with 0xFFFFFFFF).</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => ~Append(0xFFFFFFFFu, data);

    /// <summary>Continues a raw (not finalised) CRC over more bytes.</summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        int i = 0;
        for (; i + 8 <= data.Length; i += 8)
            crc = BitOperations.Crc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(data.Slice(i)));
        for (; i < data.Length; i++)
            crc = BitOperations.Crc32C(crc, data[i]);
        return crc;
    }
}
