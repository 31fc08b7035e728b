using System.Security.Cryptography;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// How the tool writes the files it names (results, checkpoints, reports): a name is claimed with an
/// exclusive create (O_EXCL / CREATE_NEW), never taken over — when "stem.ext" exists (a user's file,
/// another host's run on the same share) the next free "stem_2.ext", "stem_3.ext" ... is claimed.
/// Contents are written to a temporary file of ours and renamed onto the claimed file, so a reader
/// (or a crash) never sees half a file; a failed write removes its own temporary file.
/// </summary>
public static class OutputFile
{
    private const int MaxAttempts = 1000;

    /// <summary>Claims "folder/stem.ext" (or the first free "stem_N.ext") by creating it empty and exclusively.</summary>
    public static string CreateUnique(string folder, string stem, string extension)
    {
        Directory.CreateDirectory(folder);
        for (int n = 1; n <= MaxAttempts; n++)
        {
            string path = Path.Combine(folder, (n == 1 ? stem : $"{stem}_{n}") + extension);
            try
            {
                using (new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.None)) { }
                return path;
            }
            catch (IOException) when (File.Exists(path) || Directory.Exists(path))
            {
                // Taken (by a user's file or another run): try the next name.
            }
        }
        throw new IOException($"No free name for '{Path.Combine(folder, stem + extension)}' after {MaxAttempts} attempts.");
    }

    /// <summary>A fresh temporary name beside <paramref name="path"/>: "name.&lt;8 hex&gt;.&lt;purpose&gt;".</summary>
    public static string TemporaryName(string path, string purpose)
    {
        Span<byte> b = stackalloc byte[4];
        RandomNumberGenerator.Fill(b);
        return $"{path}.{Convert.ToHexString(b).ToLowerInvariant()}.{purpose}";
    }

    /// <summary>
    /// Replaces the contents of <paramref name="ownPath"/> — a file this run claimed — atomically:
    /// write a new temporary file (created exclusively), flush it to disk, rename it over.
    /// </summary>
    public static void Replace(string ownPath, Action<Stream> write)
    {
        string tmp = TemporaryName(ownPath, "partial");
        bool created = false;
        try
        {
            using (var stream = new FileStream(tmp, FileMode.CreateNew, FileAccess.Write, FileShare.None, 1 << 16))
            {
                created = true;
                write(stream);
                stream.Flush(flushToDisk: true);
            }
            File.Move(tmp, ownPath, overwrite: true);
        }
        catch when (created)
        {
            TryDelete(tmp);
            throw;
        }
    }

    /// <summary>Claims a unique name and writes it; on failure nothing of ours is left behind.</summary>
    public static string WriteNew(string folder, string stem, string extension, Action<Stream> write)
    {
        string path = CreateUnique(folder, stem, extension);
        try
        {
            Replace(path, write);
            return path;
        }
        catch
        {
            TryDelete(path);
            throw;
        }
    }

    /// <summary>Removes a file this process created (a temporary or an empty claim); never throws.</summary>
    public static void TryDelete(string ownPath)
    {
        try { File.Delete(ownPath); } catch (IOException) { } catch (UnauthorizedAccessException) { }
    }
}
