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

    /// <summary>Creates the file (or re-uses ours of the same size); refuses anyone else's file.</summary>
    public static void Ensure(string path, long size, Action<double>? progress = null)
    {
        if (File.Exists(path))
        {
            var head = new byte[16];
            int got;
            using (var fs = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite))
                got = fs.ReadAtLeast(head, head.Length, throwOnEndOfStream: false);
            if (got < head.Length || !head.AsSpan(0, 8).SequenceEqual(Magic))
                throw new EngineException("ForeignFile", ErrorCategories.InvalidOperation,
                    $"'{path}' exists and was not created by ExchStorageTest; it is never overwritten. Choose another path or remove it yourself.", path);
            if (BinaryPrimitives.ReadInt64LittleEndian(head.AsSpan(8)) == size && new FileInfo(path).Length == size) return;
            // Ours, but another size: re-create below (ours to replace).
        }
        string folder = System.IO.Path.GetDirectoryName(System.IO.Path.GetFullPath(path))!;
        Directory.CreateDirectory(folder);
        string tmp = path + ".creating";
        ulong state = (ulong)size ^ 0x9E3779B97F4A7C15UL ^ (ulong)path.GetHashCode(StringComparison.Ordinal);
        var block = new byte[1 << 20];
        var words = System.Runtime.InteropServices.MemoryMarshal.Cast<byte, ulong>(block.AsSpan());
        try
        {
            using var fs = new FileStream(tmp, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 20, FileOptions.WriteThrough);
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
        catch (IOException ex)
        {
            // Our own half-written temporary file: remove it, then say what happened.
            try { File.Delete(tmp); } catch (IOException) { }
            throw new EngineException("FileCreateFailed", ErrorCategories.WriteError, $"Creating '{path}' ({size:N0} bytes) failed: {ex.Message}", path, ex);
        }
        File.Move(tmp, path, overwrite: true);
    }
}
