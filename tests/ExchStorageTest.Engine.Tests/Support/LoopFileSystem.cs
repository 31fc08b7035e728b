using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests;

/// <summary>
/// A small real ext4 file system on a loop device (root only): for full disks (ENOSPC), other
/// sector sizes, or over a faulty backing file (nbdkit through nbdfuse). Unmounted and detached on dispose.
/// </summary>
public sealed class LoopFileSystem : IDisposable
{
    private readonly string? _loop;

    /// <param name="dir">Where the mount point (and, without <paramref name="backingFile"/>, the image) is made.</param>
    /// <param name="sizeMiB">Size of the image made when no backing file is given.</param>
    /// <param name="sectorBytes">The loop device's logical sector size (512 or 4096).</param>
    /// <param name="backingFile">An existing file to use as the disk (an nbdfuse export); read and written with direct I/O.</param>
    /// <param name="name">Name of the mount point (and image).</param>
    /// <param name="fileSystem">ext4, or ext2 (no journal) for a disk that will fail: mounted errors=continue so a failed write stays an I/O error of the run instead of turning the volume read-only.</param>
    public LoopFileSystem(TestFolder dir, int sizeMiB = 16, int sectorBytes = 512, string? backingFile = null, string name = "fs", string fileSystem = "ext4")
    {
        string image = backingFile ?? dir.Combine(name + ".img");
        if (backingFile is null)
            using (var fs = File.Create(image)) fs.SetLength((long)sizeMiB << 20);
        Mount = dir.Combine(name);
        Directory.CreateDirectory(Mount);
        var args = new List<string> { "-f", "--show", "--sector-size", sectorBytes.ToString(System.Globalization.CultureInfo.InvariantCulture) };
        if (backingFile is not null) args.Add("--direct-io=on");
        args.Add(image);
        _loop = Tool.Run("losetup", args.ToArray()).Trim();
        try
        {
            Tool.Run("mkfs." + fileSystem, "-q", "-F", "-m", "0", _loop);
            if (fileSystem == "ext2") Tool.Run("mount", "-o", "errors=continue,noatime", _loop, Mount);
            else Tool.Run("mount", _loop, Mount);
        }
        catch
        {
            Tool.Run("losetup", "-d", _loop);
            throw;
        }
    }

    public string Mount { get; }

    /// <summary>A path inside the mounted file system.</summary>
    public string Combine(params string[] parts) => Path.Combine(new[] { Mount }.Concat(parts).ToArray());

    /// <summary>Fills the file system with a filler file until writes fail with ENOSPC; returns its path.</summary>
    public string Fill(string name = "filler")
    {
        string path = Combine(name);
        var block = new byte[1 << 16];
        using var fs = new FileStream(path, FileMode.Create, FileAccess.Write, FileShare.None, 1 << 16);
        try
        {
            while (true) fs.Write(block);
        }
        catch (IOException)
        {
            // ENOSPC: full.
        }
        try { fs.Flush(flushToDisk: true); } catch (IOException) { }
        return path;
    }

    public void Dispose()
    {
        try { Tool.Run("umount", Mount); } catch (InvalidOperationException) { Tool.Run("umount", "-l", Mount); }
        if (_loop is null) return;
        Tool.Run("losetup", "-d", _loop);
        WaitDetached(_loop);
    }

    /// <summary>
    /// losetup -d only marks a busy loop device for detaching: until the kernel lets go of the backing file, an
    /// nbdfuse export under it cannot be unmounted. Waits a few seconds for that; the export's own dispose copes if not.
    /// </summary>
    private static void WaitDetached(string loop)
    {
        string backing = $"/sys/block/{Path.GetFileName(loop)}/loop/backing_file";
        var waited = System.Diagnostics.Stopwatch.StartNew();
        while (File.Exists(backing) && waited.Elapsed < TimeSpan.FromSeconds(5)) Thread.Sleep(50);
    }
}

/// <summary>
/// A disk whose writes can be made to fail with EIO on demand: an nbdkit memory disk behind its error
/// filter (triggered by a file), exposed by nbdfuse, under an ext2 file system on a direct-I/O loop device.
/// </summary>
public sealed class FaultyDisk : IDisposable
{
    private readonly NbdFuseDisk _nbd;
    private readonly string _trigger;

    public FaultyDisk(TestFolder dir, int sizeMiB = 128)
    {
        _trigger = dir.Combine("fail-writes");
        _nbd = new NbdFuseDisk(dir, "--filter=error", "memory", $"{sizeMiB}M", "error-pwrite-rate=100%", $"error-pwrite-file={_trigger}", "error=EIO");
        try { FileSystem = new LoopFileSystem(dir, backingFile: _nbd.FilePath, name: "faulty", fileSystem: "ext2"); }
        catch
        {
            _nbd.Dispose();
            throw;
        }
    }

    public LoopFileSystem FileSystem { get; }

    /// <summary>From now on every write to the disk fails with EIO.</summary>
    public void FailWrites() => File.WriteAllText(_trigger, "");

    public void HealWrites() => File.Delete(_trigger);

    public void Dispose()
    {
        if (File.Exists(_trigger)) HealWrites();
        FileSystem.Dispose();
        _nbd.Dispose();
    }
}
