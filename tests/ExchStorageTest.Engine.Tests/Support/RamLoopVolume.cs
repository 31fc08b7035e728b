using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests;

/// <summary>Skips (with the reason) unless a RAM-backed ext4 volume can be built: Linux, root, a loop driver, /dev/shm as tmpfs.</summary>
public sealed class RamLoopFactAttribute : FactAttribute
{
    public RamLoopFactAttribute() { Skip = Prerequisites.NotRootWithLoop ?? Prerequisites.NoShm; }
}

/// <summary>
/// A real block device in memory: a file in /dev/shm attached to a loop device,
/// formatted ext4 and mounted under /var/tmp. Everything it made is removed on dispose.
/// </summary>
public sealed class RamLoopVolume : IDisposable
{
    private readonly string _image;
    private string? _loop;
    private bool _mounted;

    public RamLoopVolume(int sizeMiB)
    {
        string id = Guid.NewGuid().ToString("N")[..12];
        _image = $"/dev/shm/exchstoragetest-ram-{id}.img";
        MountPoint = $"/var/tmp/exchstoragetest-ram-{id}";
        try
        {
            using (var fs = new FileStream(_image, FileMode.CreateNew)) fs.SetLength((long)sizeMiB << 20);
            _loop = Tool.Run("losetup", "-f", "--show", _image).Trim();
            Tool.Run("mkfs.ext4", "-q", "-F", "-m", "0", _loop);
            Directory.CreateDirectory(MountPoint);
            Tool.Run("mount", _loop, MountPoint);
            _mounted = true;
        }
        catch
        {
            Dispose();
            throw;
        }
    }

    public string MountPoint { get; }
    public string Device => _loop!;

    public void Dispose()
    {
        if (_mounted)
        {
            try { Tool.Run("umount", MountPoint); _mounted = false; }
            catch (InvalidOperationException) { try { Tool.Run("umount", "-l", MountPoint); } catch (InvalidOperationException) { } }
        }
        if (_loop is not null) { try { Tool.Run("losetup", "-d", _loop); } catch (InvalidOperationException) { } }
        try { if (Directory.Exists(MountPoint)) Directory.Delete(MountPoint, recursive: true); } catch (IOException) { }
        try { File.Delete(_image); } catch (IOException) { }
    }
}
