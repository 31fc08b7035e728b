using System.Buffers.Binary;
using System.Text;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Load.StreamMix;

/// <summary>
/// A raw test file of ours: a 1 MiB header region marked "EXSTRAW1" (so we never take over a file we
/// did not create) followed by data written in full with random bytes, so reads hit real blocks.
/// </summary>
public static class StreamFile
{
    public const long DataOffset = 1 << 20;
    private static readonly byte[] Magic = Encoding.ASCII.GetBytes("EXSTRAW1");

    /// <summary>The size our header records, or null when the file is not ours (no "EXSTRAW1" header).</summary>
    public static long? ReadHeader(string path)
    {
        var head = new byte[16];
        int got;
        using (var fs = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite))
            got = fs.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
        if (got < head.Length || !head.AsSpan(0, 8).SequenceEqual(Magic)) return null;
        return BinaryPrimitives.ReadInt64LittleEndian(head.AsSpan(8));
    }

    /// <summary>Creates the file (or re-uses ours of the same size); refuses anyone else's file.</summary>
    public static void Ensure(string path, long size, Action<double>? progress = null)
    {
        bool exists = File.Exists(path);
        if (exists)
        {
            long? recorded = ReadHeader(path)
                ?? throw new EngineException("ForeignFile", ErrorCategories.ResourceUnavailable,
                    $"'{path}' exists and was not created by ExchStorageTest; it is never overwritten. Choose another path or remove it yourself.", path);
            if (recorded == size && new FileInfo(path).Length == size) return;
            // Ours, but another size: re-create below (ours to replace).
        }
        // A temporary file of our own (exclusive create, fresh name): nobody else's file is ever consumed.
        string tmp = Results.OutputFile.TemporaryName(path, "creating");
        ulong state = (ulong)size ^ 0x9E3779B97F4A7C15UL ^ (ulong)path.GetHashCode(StringComparison.Ordinal);
        var block = new byte[1 << 20];
        var words = System.Runtime.InteropServices.MemoryMarshal.Cast<byte, ulong>(block.AsSpan());
        bool created = false;
        try
        {
            using (var fs = new FileStream(tmp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 20, FileOptions.WriteThrough))
            {
                created = true;
                Magic.CopyTo(block, 0);
                BinaryPrimitives.WriteInt64LittleEndian(block.AsSpan(8), size);
                fs.Write(block);
                for (long done = DataOffset; done < size; done += block.Length)
                {
                    // Incompressible data at memory speed (xorshift), not Random.NextBytes (seconds per GiB).
                    for (int i = 0; i < words.Length; i++) words[i] = Sources.WriteContent.Next(ref state);
                    fs.Write(block, 0, (int)Math.Min(block.Length, size - done));
                    progress?.Invoke(100.0 * done / size);
                }
                fs.Flush(flushToDisk: true);
            }
            // Onto our own file of another size, or onto nothing: never over a file that appeared meanwhile.
            File.Move(tmp, path, overwrite: exists);
        }
        catch (IOException ex) when (created)
        {
            // Our own half-written temporary file: remove it, then say what happened.
            Results.OutputFile.TryDelete(tmp);
            throw new EngineException("FileCreateFailed", ErrorCategories.WriteError, $"Creating '{path}' ({size:N0} bytes) failed: {ex.Message}", path, ex);
        }
    }
}
