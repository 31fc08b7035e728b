using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.SystemLog;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>
/// Which devices a run's storage lives on, as the kernel names them in its messages, from a sysfs tree laid out as
/// the kernel lays it out (class/block entries linking into the device tree); and which system-log errors count.
/// </summary>
public class StorageDevicesTests
{
    /// <summary>A fake sysfs: disks and partitions in devices/, class/block/NAME linking to each, dev numbers, slaves.</summary>
    private sealed class FakeSys : IDisposable
    {
        public FakeSys() => Root = Directory.CreateTempSubdirectory("exst-sysfs-").FullName;

        public string Root { get; }

        public void Device(string name, string number, string? disk = null, params string[] slaves)
        {
            string real = disk is null ? Path.Combine(Root, "devices", "virtual", "block", name) : Path.Combine(Root, "devices", "virtual", "block", disk, name);
            Directory.CreateDirectory(real);
            File.WriteAllText(Path.Combine(real, "dev"), number + "\n");
            if (disk is not null) File.WriteAllText(Path.Combine(real, "partition"), "1\n");
            foreach (var slave in slaves)
            {
                Directory.CreateDirectory(Path.Combine(real, "slaves"));
                File.WriteAllText(Path.Combine(real, "slaves", slave), "");
            }
            Directory.CreateDirectory(Path.Combine(Root, "class", "block"));
            Directory.CreateSymbolicLink(Path.Combine(Root, "class", "block", name), real);
        }

        public void Dispose() => Directory.Delete(Root, recursive: true);
    }

    [Fact]
    public void A_partition_brings_its_disk_a_multipath_map_its_paths_and_each_its_device_number()
    {
        if (OperatingSystem.IsWindows()) return; // symbolic links to folders need privileges there
        using var sys = new FakeSys();
        sys.Device("sda", "8:0");
        sys.Device("sda1", "8:1", disk: "sda");
        sys.Device("sdb", "8:16");
        sys.Device("sdc", "8:32");
        sys.Device("dm-0", "253:0", null, "sdb", "sdc");
        sys.Device("loop0", "7:0");

        var devices = StorageDevices.Of(new[] { "/dev/sda1", "/dev/dm-0", null }, sys.Root);

        Assert.Equal(new[] { "253:0", "8:0", "8:1", "8:16", "8:32", "dm-0", "sda", "sda1", "sdb", "sdc" }, devices.Order(StringComparer.Ordinal));
        Assert.DoesNotContain("loop0", devices);
    }

    [Fact]
    public void An_nvme_namespace_brings_its_controller()
    {
        var devices = StorageDevices.Of(new[] { "/dev/nvme1n1p2" }, "/nonexistent-sysfs");
        Assert.Contains("nvme1n1p2", devices);
        Assert.Contains("nvme1", devices);
    }

    [Fact]
    public void Another_devices_storage_error_is_information_and_one_naming_no_device_counts()
    {
        var devices = new HashSet<string> { "vdb", "vdb1" };
        var fileSystems = new HashSet<string> { "xfs" };
        SystemLogEntry Entry(string? device) => HostEnvironment.Entry(
            new SystemLogEvent(DateTime.UtcNow, "kernel", null, "Error", $"I/O error, dev {device}, sector 8", true, device), devices, fileSystems);

        Assert.True(Entry("loop0").OtherDevice);
        Assert.False(Entry("loop0").Judged);
        Assert.True(Entry("vdb").Judged);
        Assert.True(Entry(null).Judged);
        // Devices not known (Windows): every storage error counts.
        Assert.True(HostEnvironment.Entry(new SystemLogEvent(DateTime.UtcNow, "disk", 7, "Error", "bad block", true, "Harddisk1"), new HashSet<string>(), fileSystems).Judged);
    }

    [Fact]
    public void A_file_system_error_naming_no_device_is_another_devices_when_no_test_volume_uses_that_file_system()
    {
        var devices = new HashSet<string> { "vdb", "vdb1" };
        SystemLogEntry Entry(string message, params string[] fileSystems)
        {
            var c = KernelLogClassifier.Classify(message)!.Value;
            return HostEnvironment.Entry(new SystemLogEvent(DateTime.UtcNow, "kernel", null, "Error", message, true, c.Device, c.Reason, c.FileSystem),
                devices, new HashSet<string>(fileSystems, StringComparer.OrdinalIgnoreCase));
        }

        const string deviceless = "EXT4-fs error: ext4_journal_check_start:83: comm kworker: Detected aborted journal";
        Assert.False(Entry(deviceless, "xfs", "fuseblk").Judged);
        Assert.True(Entry(deviceless, "ext4").Judged);
        Assert.True(Entry(deviceless).Judged); // the test's file systems not known: it may be the test's
        Assert.True(Entry("BTRFS error (device vdb1): bdev /dev/vdb1 errs: wr 1", "xfs").Judged); // a named device decides
        // printk's rate-limit summary is not an error of its own (its printed lines were counted).
        Assert.Null(KernelLogClassifier.Classify("EXT4-fs error: 800 callbacks suppressed"));
    }
}
