using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Io.Linux;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Io;

public class IoFileOpenerTests
{
    [ShmFact]
    public void TmpfsIsRefusedForDirectIoUnlessBufferedIsAllowed()
    {
        string path = "/dev/shm/est-io-" + Guid.NewGuid().ToString("N")[..12];
        try
        {
            EngineException e = Assert.Throws<EngineException>(() => IoFileOpener.Open(path, IoFileMode.CreateNew, writeThrough: true, allowBuffered: false));
            Assert.Equal("DirectIoUnsupported", e.Code);
            Assert.Equal(ErrorCategories.InvalidOperation, e.Category);
            Assert.Contains(path, e.Message, StringComparison.Ordinal);
            Assert.False(File.Exists(path), "A refused CreateNew must not leave a file behind.");

            using IoFile file = IoFileOpener.Open(path, IoFileMode.CreateNew, writeThrough: true, allowBuffered: true);
            Assert.False(file.Direct);
            Assert.True(file.WriteThrough);
        }
        finally
        {
            File.Delete(path);
        }
    }

    [LinuxFact]
    public void MissingPathIsObjectNotFoundWithThePathInTheMessage()
    {
        using var dir = new TestFolder("io");
        string path = dir.Combine("gone/missing.edb");
        EngineException e = Assert.Throws<EngineException>(() => IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: true, allowBuffered: false));
        Assert.Equal("FileOpenFailed", e.Code);
        Assert.Equal(ErrorCategories.ObjectNotFound, e.Category);
        Assert.Contains(path, e.Message, StringComparison.Ordinal);
        Assert.Contains("ENOENT", e.Message, StringComparison.Ordinal);
        Assert.Equal(path, e.Target);
    }

    [LinuxFact]
    public void FileThatVanishedAfterCreationIsObjectNotFoundOnReopen()
    {
        using var dir = new TestFolder("io");
        string path = dir.Combine("db.edb");
        using (IoFileOpener.Open(path, IoFileMode.CreateNew, writeThrough: false, allowBuffered: false)) { }
        File.Delete(path);
        EngineException e = Assert.Throws<EngineException>(() => IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: false, allowBuffered: false));
        Assert.Equal(ErrorCategories.ObjectNotFound, e.Category);
        Assert.Contains(path, e.Message, StringComparison.Ordinal);
    }

    [LinuxFact]
    public void CreateNewNeverOverwritesAnExistingFile()
    {
        using var dir = new TestFolder("io");
        string path = dir.Combine("db.edb");
        File.WriteAllText(path, "not ours");
        EngineException e = Assert.Throws<EngineException>(() => IoFileOpener.Open(path, IoFileMode.CreateNew, writeThrough: false, allowBuffered: false));
        Assert.Equal("FileExists", e.Code);
        Assert.Equal("not ours", File.ReadAllText(path));
    }

    [LinuxFact]
    public void AlignmentComesFromTheDevice()
    {
        using var dir = new TestFolder("io");
        using IoFile file = IoFileOpener.Open(dir.Combine("f"), IoFileMode.CreateNew, writeThrough: false, allowBuffered: false);
        DeviceAlignment a = DeviceAlignmentProbe.Probe((int)file.RawHandle);
        Assert.Equal(a.Effective, file.Alignment);
        Assert.True(file.Alignment >= 4096 && System.Numerics.BitOperations.IsPow2(file.Alignment));
        if (Environment.OSVersion.Version >= new Version(6, 1))
        {
            // ext4/xfs/btrfs on 6.1+ report STATX_DIOALIGN.
            Assert.StartsWith("statx", a.Source, StringComparison.Ordinal);
            Assert.True(a.DioOffsetAlignment >= 512);
        }
        if (a.PhysicalBlockSize != 0) Assert.True(file.Alignment >= a.PhysicalBlockSize);
    }
}

public class DeviceAlignmentTests
{
    [Theory]
    [InlineData(0, 0, 0, 0, 4096)]
    [InlineData(512, 512, 512, 512, 4096)]
    [InlineData(512, 512, 512, 4096, 4096)]
    [InlineData(4, 512, 512, 8192, 8192)]
    [InlineData(0, 0, 4096, 16384, 16384)]
    [InlineData(0, 0, 512, 12288, 16384)] // never a non-power-of-two: rounded up
    public void EffectiveIsTheLargestRequirementAndAtLeastAPage(int mem, int offset, int logical, int physical, int expected) =>
        Assert.Equal(expected, new DeviceAlignment(mem, offset, logical, physical, "t").Effective);

    [LinuxFact]
    public void SysfsOfAPartitionUsesItsDisksQueue()
    {
        using var dir = new TestFolder("io");
        string sys = dir.Path;
        // /sys/dev/block/8:1 -> ../../devices/pci/block/sda/sda1 (no queue/); /sys/dev/block/8:0 -> .../sda (queue/).
        string disk = Path.Combine(sys, "devices", "pci", "block", "sda");
        Directory.CreateDirectory(Path.Combine(disk, "queue"));
        Directory.CreateDirectory(Path.Combine(disk, "sda1"));
        File.WriteAllText(Path.Combine(disk, "queue", "logical_block_size"), "512\n");
        File.WriteAllText(Path.Combine(disk, "queue", "physical_block_size"), "4096\n");
        Directory.CreateDirectory(Path.Combine(sys, "dev", "block"));
        File.CreateSymbolicLink(Path.Combine(sys, "dev", "block", "8:0"), "../../devices/pci/block/sda");
        File.CreateSymbolicLink(Path.Combine(sys, "dev", "block", "8:1"), "../../devices/pci/block/sda/sda1");

        Assert.Equal((512, 4096), DeviceAlignmentProbe.ReadSysfs(sys, 8, 0));
        Assert.Equal((512, 4096), DeviceAlignmentProbe.ReadSysfs(sys, 8, 1));
        Assert.Equal((0, 0), DeviceAlignmentProbe.ReadSysfs(sys, 0, 42)); // anonymous device (tmpfs, btrfs subvolume)
    }
}
