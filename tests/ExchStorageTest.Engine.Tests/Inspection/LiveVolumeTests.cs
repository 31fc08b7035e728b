using ExchStorageTest.Engine.Inspection;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>VolumeInspector on real volumes of this host: NTFS loop images (when possible) and the test's own directory.</summary>
public class LiveVolumeTests
{
    [NtfsLoopFact]
    public void Ntfs_with_64K_clusters_has_no_cluster_warning()
    {
        using var vol = new LoopNtfsVolume(65536);
        string dbDir = Path.Combine(vol.MountPoint, "DB1");
        Directory.CreateDirectory(dbDir);
        var r = VolumeInspector.Inspect(Path.Combine(dbDir, "db1.edb"), 16L << 20);

        Assert.Equal("NTFS", r.FileSystem);
        Assert.Equal("fuseblk", r.FileSystemDriver);
        Assert.Equal(65536, r.ClusterSizeBytes);
        Assert.Equal(vol.MountPoint, r.MountPoint);
        Assert.Equal(vol.LoopDevice, r.Device);
        Assert.Equal(0, r.PartitionOffsetBytes); // a whole loop device, no partition table
        Assert.Equal(512, r.LogicalSectorBytes);
        Assert.True(r.TotalBytes > 60L << 20 && r.TotalBytes <= 64L << 20);
        Assert.True(r.FreeBytes > 16L << 20);
        Assert.DoesNotContain(r.Findings, f => f.Code == FindingCodes.ClusterSize);
        Assert.DoesNotContain(r.Findings, f => f.Severity == Severities.Error);
        Assert.Contains(r.Findings, f => f.Code == FindingCodes.VolumeUtilisation);
        Assert.NotNull(r.DirectIoSupported);
        Assert.Empty(Directory.GetFiles(dbDir)); // the direct-I/O probe cleaned up
    }

    [NtfsLoopFact]
    public void Ntfs_with_4K_clusters_warns_naming_4096()
    {
        using var vol = new LoopNtfsVolume(4096);
        var r = VolumeInspector.Inspect(Path.Combine(vol.MountPoint, "not-yet-created", "db.edb"), 0);
        Assert.Equal("NTFS", r.FileSystem);
        Assert.Equal(4096, r.ClusterSizeBytes);
        var w = Assert.Single(r.Findings, f => f.Code == FindingCodes.ClusterSize);
        Assert.Equal(Severities.Warning, w.Severity);
        Assert.Contains("4096", w.Message);
    }

    [NtfsLoopFact]
    public void Planned_bytes_beyond_free_space_is_an_error_and_inspect_command_reports_each_path()
    {
        using var vol = new LoopNtfsVolume(65536);
        var reports = InspectCommand.Run(new[] { vol.MountPoint, "" }, 1L << 40);
        Assert.Equal(2, reports.Count);
        Assert.Contains(reports[0].Findings, f => f.Code == FindingCodes.InsufficientFreeSpace && f.Severity == Severities.Error);
        Assert.Equal("InvalidVolumePath", Assert.Single(reports[1].Findings).Code);
    }

    [Fact]
    public void Inspects_the_volume_under_the_test_directory()
    {
        if (!OperatingSystem.IsLinux()) return;
        var r = VolumeInspector.Inspect(AppContext.BaseDirectory, new VolumeCheckOptions { PlannedBytes = 1 << 20 });
        Assert.NotNull(r.FileSystem);
        Assert.NotNull(r.MountPoint);
        Assert.True(r.TotalBytes > 0);
        Assert.True(r.FreeBytes > 0);
        Assert.StartsWith(r.MountPoint!, AppContext.BaseDirectory, StringComparison.Ordinal);
        Assert.NotEmpty(r.Findings);
        if (!VolumeRules.IsExchangeFileSystem(r.FileSystem))
            Assert.Contains(r.Findings, f => f.Code == FindingCodes.FileSystemNotExchange && f.Severity == Severities.Info);
    }

    [Fact]
    public void A_tmpfs_or_proc_path_reports_without_throwing()
    {
        if (!OperatingSystem.IsLinux()) return;
        var r = VolumeInspector.Inspect("/proc/self", new VolumeCheckOptions { ProbeDirectIo = false });
        Assert.Equal("proc", r.FileSystem);
        Assert.Null(r.Device);
        Assert.Contains(r.Findings, f => f.Code == FindingCodes.PartitionOffsetUnknown);
        Assert.Contains(r.Findings, f => f.Code == FindingCodes.DirectIoNotProbed);
        Assert.Contains(r.Findings, f => f.Code == FindingCodes.MemoryFileSystem);
    }
}
