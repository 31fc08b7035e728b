namespace ExchStorageTest.Engine.Tests.Io;

/// <summary>
/// The nbdkit rigs leave nothing mounted: a FUSE mount left behind outlives the test run as a dead mount
/// (its daemon gone) under /var/tmp/exst-tests, and its folder cannot be removed.
/// </summary>
public class NbdFuseDiskTests
{
    [NbdkitLoopFact]
    public void A_file_system_on_an_nbdfuse_disk_leaves_no_mount_behind()
    {
        string path;
        using (var folder = new TestFolder("nbdmount"))
        {
            path = folder.Path;
            using (var nbd = new NbdFuseDisk(folder, "memory", "64M"))
            using (var fs = new LoopFileSystem(folder, backingFile: nbd.FilePath, name: "fs"))
            {
                File.WriteAllBytes(fs.Combine("data"), new byte[1 << 20]);
                Assert.Equal(2, MountTable.Under(folder.Path).Count);
            }
            Assert.Empty(MountTable.Under(folder.Path));
        }
        Assert.False(Directory.Exists(path), $"{path} was not removed");
    }

    [NbdkitLoopFact]
    public void An_nbdfuse_disk_still_held_open_by_a_loop_device_is_unmounted_on_dispose()
    {
        using var folder = new TestFolder("nbdbusy");
        var nbd = new NbdFuseDisk(folder, "memory", "16M");
        string mount = Path.GetDirectoryName(nbd.FilePath)!;
        // A loop device over the export keeps it open: fusermount -u refuses with "Device or resource busy",
        // as it does when a loop device's detach is deferred by the kernel.
        string loop = Tool.Run("losetup", "-f", "--show", "--direct-io=on", nbd.FilePath).Trim();
        try
        {
            Assert.True(MountTable.IsMounted(mount));
            nbd.Dispose();
            Assert.False(MountTable.IsMounted(mount), $"{mount} is still mounted after dispose");
        }
        finally
        {
            Tool.Run("losetup", "-d", loop);
        }
    }
}
