using System.Buffers.Binary;
using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Linux;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class LinuxParserTests
{
    private static readonly List<MountInfoEntry> Mounts = MountInfo.Parse(EnvFixtures.Text("mountinfo.txt"));

    [Fact]
    public void Mountinfo_parses_fields_optional_tags_and_escapes()
    {
        Assert.Equal(8, Mounts.Count); // the junk line is skipped
        var db = Mounts.Single(m => m.MountId == 31);
        Assert.Equal("/mnt/exch db", db.MountPoint);
        Assert.Equal("xfs", db.FileSystemType);
        Assert.Equal("/dev/sdb1", db.Source);
        Assert.Equal((8, 17), (db.Major, db.Minor));
        Assert.Equal("rw,attr2,inode64,logbufs=8,noquota", db.SuperOptions);
    }

    [Theory]
    [InlineData("/mnt/exch db/DB1/db1.edb", "/mnt/exch db")]
    [InlineData("/mnt/exch dbx/file", "/")]
    [InlineData("/var/tmp/ntfs64", "/var/tmp/ntfs64")]
    [InlineData("/var/tmp/ntfs64/a/b", "/var/tmp/ntfs64")]
    [InlineData("/proc/self", "/proc")]
    [InlineData("/home/x", "/")]
    [InlineData("/exch/logsbackup/1", "/exch/logsbackup")]
    public void Longest_whole_component_prefix_wins(string path, string mountPoint) =>
        Assert.Equal(mountPoint, MountInfo.FindForPath(Mounts, path)!.MountPoint);

    [Fact]
    public void The_later_of_two_mounts_on_one_point_wins()
    {
        var m = MountInfo.FindForPath(Mounts, "/exch/logs/E00.log")!;
        Assert.Equal("tmpfs", m.FileSystemType);
        Assert.Equal(40, m.MountId);
    }

    [Theory]
    [InlineData(@"a\040b", "a b")]
    [InlineData(@"tab\011x", "tab\tx")]
    [InlineData(@"back\134slash", @"back\slash")]
    [InlineData(@"keep\09", @"keep\09")]
    [InlineData("plain", "plain")]
    public void Unescapes_octal(string raw, string expected) => Assert.Equal(expected, MountInfo.Unescape(raw));

    [Fact]
    public void Statvfs_layout_uses_frsize_for_sizes()
    {
        var b = new byte[112];
        long[] f = { 4096, 1024, 1000, 600, 500, 10, 5, 5, 0x1234, 0, 255 };
        for (int i = 0; i < f.Length; i++) BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(i * 8), f[i]);
        var s = StatVfs.Parse(b);
        Assert.Equal(4096, s.BlockSize);
        Assert.Equal(1024, s.FragmentSize);
        Assert.Equal(1000 * 1024, s.TotalBytes);
        Assert.Equal(500 * 1024, s.AvailableBytes);
        Assert.Equal(0x1234UL, s.FileSystemId);
        Assert.Equal(255, s.NameMax);
    }

    private static string Sys => Path.Combine(EnvFixtures.Dir, "sysfs");

    [Fact]
    public void Sysfs_partition_reports_its_disk_start_sector_sizes_and_model()
    {
        var d = SysBlockDevice.FromDeviceNumber(Sys, 8, 1)!;
        Assert.Equal("sda1", d.Name);
        Assert.Equal("sda", d.DiskName);
        Assert.True(d.IsPartition);
        Assert.Equal(2048, d.PartitionStartSectors512);
        Assert.Equal(1L << 20, d.PartitionOffsetBytes);
        Assert.Equal(512, d.LogicalBlockSize);
        Assert.Equal(4096, d.PhysicalBlockSize);
        Assert.Equal("SEAGATE", d.Vendor);
        Assert.Equal("ST4000NM0025", d.Model);
        Assert.True(d.Rotational);
        Assert.Equal("/dev/sda1", d.DevicePath);
    }

    [Fact]
    public void Sysfs_legacy_63_sector_partition_and_whole_disks()
    {
        Assert.Equal(63 * 512, SysBlockDevice.FromDeviceNumber(Sys, 8, 2)!.PartitionOffsetBytes);
        var disk = SysBlockDevice.FromDeviceNumber(Sys, 8, 0)!;
        Assert.False(disk.IsPartition);
        Assert.Equal(0, disk.PartitionOffsetBytes);
        Assert.Null(SysBlockDevice.FromDeviceNumber(Sys, 9, 9));
        Assert.Null(SysBlockDevice.FromDeviceNumber("/nonexistent-sysfs", 8, 0));
    }

    [Fact]
    public void Linux_probe_treats_fuseblk_and_ntfs3_as_ntfs_candidates()
    {
        Assert.True(LinuxVolumeProbe.IsNtfsCandidate("fuseblk"));
        Assert.True(LinuxVolumeProbe.IsNtfsCandidate("ntfs3"));
        Assert.False(LinuxVolumeProbe.IsNtfsCandidate("ext4"));
    }
}
