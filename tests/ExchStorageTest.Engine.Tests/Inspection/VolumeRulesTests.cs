using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class VolumeRulesTests
{
    private const long GiB = 1L << 30;

    private static VolumeFacts Good(VolumePlatform platform = VolumePlatform.Windows) => new()
    {
        Platform = platform,
        Volume =
        {
            Path = @"E:\DB1",
            MountPoint = @"E:\",
            FileSystem = "NTFS",
            ClusterSizeBytes = 65536,
            PartitionOffsetBytes = 1 << 20,
            TotalBytes = 1000 * GiB,
            FreeBytes = 900 * GiB,
            DirectIoSupported = true,
        },
    };

    private static List<Finding> Eval(VolumeFacts f, long planned = 0, long? cache = null) =>
        VolumeRules.Evaluate(f, new VolumeCheckOptions { PlannedBytes = planned, ArrayCacheBytes = cache });

    private static string[] Codes(List<Finding> list, string severity) =>
        list.Where(f => f.Severity == severity).Select(f => f.Code).ToArray();

    [Fact]
    public void A_best_practice_volume_has_no_warnings_or_errors()
    {
        var list = Eval(Good(), planned: 400 * GiB, cache: 16 * GiB);
        Assert.Empty(Codes(list, Severities.Warning));
        Assert.Empty(Codes(list, Severities.Error));
        var util = Assert.Single(list, f => f.Code == FindingCodes.VolumeUtilisation);
        Assert.Contains("50%", util.Message);
    }

    [Theory]
    [InlineData("NTFS", 4096L)]
    [InlineData("ReFS", 4096L)]
    [InlineData("NTFS", 131072L)]
    public void Clusters_other_than_64K_warn_naming_the_size(string fs, long cluster)
    {
        var f = Good();
        f.Volume.FileSystem = fs;
        f.Volume.ClusterSizeBytes = cluster;
        var w = Assert.Single(Eval(f), x => x.Code == FindingCodes.ClusterSize);
        Assert.Equal(Severities.Warning, w.Severity);
        Assert.Contains(cluster.ToString(), w.Message);
        Assert.Contains("AllocationUnitSize 65536", w.Advice);
    }

    [Fact]
    public void Windows_fat_is_a_warning_but_linux_ext4_is_info()
    {
        var win = Good();
        win.Volume.FileSystem = "exFAT";
        Assert.Contains(FindingCodes.FileSystemNotSupported, Codes(Eval(win), Severities.Warning));

        var lin = Good(VolumePlatform.Linux);
        lin.Volume.FileSystem = "ext4";
        lin.Volume.ClusterSizeBytes = null;
        lin.FileSystemBlockBytes = 4096;
        var list = Eval(lin);
        Assert.Empty(Codes(list, Severities.Warning));
        var info = Assert.Single(list, x => x.Code == FindingCodes.FileSystemNotExchange);
        Assert.Equal(Severities.Info, info.Severity);
        Assert.Contains("not an Exchange-supported file system", info.Message);
        Assert.Contains("4096", info.Message);
        Assert.Equal(4096, VolumeRules.ToReport(lin, list).ClusterSizeBytes);
    }

    [Theory]
    [InlineData("tmpfs")]
    [InlineData("ramfs")]
    public void Memory_file_systems_warn_even_when_direct_io_works(string fs)
    {
        var f = Good(VolumePlatform.Linux);
        f.Volume.FileSystem = fs;
        var w = Assert.Single(Eval(f), x => x.Severity == Severities.Warning);
        Assert.Equal(FindingCodes.MemoryFileSystem, w.Code);
        Assert.Contains("RAM", w.Message);
    }

    [Fact]
    public void Ntfs_seen_from_linux_is_judged_like_windows()
    {
        var f = Good(VolumePlatform.Linux);
        f.Volume.ClusterSizeBytes = 4096;
        var w = Assert.Single(Eval(f), x => x.Code == FindingCodes.ClusterSize);
        Assert.Contains("mkntfs -c 65536", w.Advice);
    }

    [Fact]
    public void Unknown_cluster_file_system_and_offset_are_info()
    {
        var f = Good();
        f.Volume.ClusterSizeBytes = null;
        f.Volume.PartitionOffsetBytes = null;
        var list = Eval(f);
        Assert.Contains(FindingCodes.ClusterSizeUnknown, Codes(list, Severities.Info));
        Assert.Contains(FindingCodes.PartitionOffsetUnknown, Codes(list, Severities.Info));
        f.Volume.FileSystem = null;
        Assert.Contains(FindingCodes.FileSystemUnknown, Codes(Eval(f), Severities.Info));
    }

    [Theory]
    [InlineData(32256L, true)]      // 63 sectors: the pre-2008 default
    [InlineData(65536L, true)]
    [InlineData(1048576L, false)]
    [InlineData(135266304L, false)] // 129 MiB
    [InlineData(0L, false)]         // whole-disk device
    public void Partition_alignment_to_1_MiB(long offset, bool warns)
    {
        var f = Good();
        f.Volume.PartitionOffsetBytes = offset;
        var list = Eval(f);
        Assert.Equal(warns, Codes(list, Severities.Warning).Contains(FindingCodes.PartitionMisaligned));
        if (warns) Assert.Contains(offset.ToString(), list.Single(x => x.Code == FindingCodes.PartitionMisaligned).Message);
    }

    [Fact]
    public void Not_enough_free_space_is_an_error()
    {
        var f = Good();
        f.Volume.FreeBytes = 100 * GiB;
        var e = Assert.Single(Eval(f, planned: 200 * GiB), x => x.Severity == Severities.Error);
        Assert.Equal(FindingCodes.InsufficientFreeSpace, e.Code);
        Assert.Contains("200 GiB", e.Message);
        Assert.Contains("100 GiB", e.Message);
        Assert.DoesNotContain(Eval(f, planned: 100 * GiB), x => x.Severity == Severities.Error);
    }

    [Fact]
    public void Unknown_free_space_with_a_plan_is_info_and_no_plan_means_no_space_findings()
    {
        var f = Good();
        f.Volume.FreeBytes = null;
        Assert.Contains(FindingCodes.FreeSpaceUnknown, Codes(Eval(f, planned: GiB), Severities.Info));
        Assert.DoesNotContain(Eval(Good()), x => x.Code is FindingCodes.VolumeUtilisation or FindingCodes.FreeSpaceUnknown);
    }

    [Theory]
    [InlineData(47L, true)]
    [InlineData(48L, false)]
    public void Test_files_under_three_times_the_array_cache_warn(long plannedGiB, bool warns)
    {
        var list = Eval(Good(), planned: plannedGiB * GiB, cache: 16 * GiB);
        Assert.Equal(warns, Codes(list, Severities.Warning).Contains(FindingCodes.TestFilesFitInCache));
    }

    [Fact]
    public void Cache_rule_needs_a_known_cache()
    {
        Assert.DoesNotContain(Eval(Good(), planned: GiB), x => x.Code == FindingCodes.TestFilesFitInCache);
    }

    [Fact]
    public void Direct_io_refused_warns_and_unknown_is_info()
    {
        var f = Good();
        f.Volume.DirectIoSupported = false;
        f.DirectIoDetail = "open with O_DIRECT failed with EINVAL";
        var w = Assert.Single(Eval(f), x => x.Code == FindingCodes.DirectIoUnsupported);
        Assert.Equal(Severities.Warning, w.Severity);
        Assert.Contains("EINVAL", w.Message);
        f.Volume.DirectIoSupported = null;
        Assert.Contains(FindingCodes.DirectIoNotProbed, Codes(Eval(f), Severities.Info));
    }

    [Fact]
    public void Multipath_single_and_degraded_paths_warn()
    {
        var f = Good();
        f.Volume.Multipath = new MultipathReport { Name = "mpatha", PathCount = 2, PathStates = { "sdb: running", "sdc: offline" } };
        f.MultipathUnhealthyPaths = 1;
        var list = Eval(f);
        Assert.Contains(FindingCodes.MultipathDegraded, Codes(list, Severities.Warning));
        Assert.DoesNotContain(FindingCodes.MultipathSinglePath, Codes(list, Severities.Warning));
        f.Volume.Multipath.PathCount = 1;
        f.MultipathUnhealthyPaths = 0;
        Assert.Equal(new[] { FindingCodes.MultipathSinglePath }, Codes(Eval(f), Severities.Warning));
    }

    [Fact]
    public void The_report_is_the_probed_volume_with_its_findings()
    {
        var f = Good();
        f.Volume.Device = @"\\.\PhysicalDrive3";
        f.Volume.Vendor = "NETAPP";
        f.Volume.BusType = "Fibre Channel";
        f.Notes.Add("something odd");
        var findings = Eval(f);
        var r = VolumeRules.ToReport(f, findings);
        Assert.Equal(@"E:\DB1", r.Path);
        Assert.Equal(@"E:\", r.MountPoint);
        Assert.Equal(65536, r.ClusterSizeBytes);
        Assert.Equal("NETAPP", r.Vendor);
        Assert.Equal("Fibre Channel", r.BusType);
        Assert.True(r.DirectIoSupported);
        Assert.Same(findings, r.Findings);
        Assert.Contains(r.Findings, x => x.Code == FindingCodes.ProbeNote && x.Message == "something odd");
    }

    [Theory]
    [InlineData("ext4", 4096L)]
    [InlineData("NTFS", null)]
    public void Only_a_file_system_without_the_cluster_rule_reports_its_block_size_as_the_cluster_size(string fs, long? reported)
    {
        var f = Good(VolumePlatform.Linux);
        f.Volume.FileSystem = fs;
        f.Volume.ClusterSizeBytes = null;
        f.FileSystemBlockBytes = 4096;
        Assert.Equal(reported, VolumeRules.ToReport(f, Eval(f)).ClusterSizeBytes);
    }
}
