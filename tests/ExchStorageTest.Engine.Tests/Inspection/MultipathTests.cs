using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.Multipath;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class MultipathTests
{
    private static string Sys => Path.Combine(EnvFixtures.Dir, "sysfs");

    [Fact]
    public void Dm_multipath_map_from_fake_sysfs()
    {
        var map = DmMultipath.Read(Sys, "dm-0")!;
        Assert.Equal("mpatha", map.Name);
        Assert.StartsWith("mpath-", map.Uuid);
        Assert.Equal(new[] { "sdb", "sdc" }, map.Paths.Select(p => p.Device));
        Assert.Equal(new[] { "running", "offline" }, map.Paths.Select(p => p.State));
        Assert.Equal("NETAPP", map.Paths[0].Vendor);
        Assert.Equal(1, map.UnhealthyPathCount);
    }

    [Fact]
    public void Lvm_and_plain_disks_are_not_multipath_maps()
    {
        Assert.Null(DmMultipath.Read(Sys, "dm-1"));
        Assert.Null(DmMultipath.Read(Sys, "sda"));
        Assert.Equal(new[] { "mpatha", "mpathb" }, DmMultipath.ReadAll(Sys).Select(m => m.Name));
    }

    [Fact]
    public void Dmsetup_table_multibus_service_time()
    {
        var t = DmMultipathTable.Parse(EnvFixtures.Text("dmsetup-table.txt"));
        Assert.Equal("mpatha", t.MapName);
        Assert.Equal(new[] { "queue_if_no_path" }, t.Features);
        Assert.Equal(new[] { "alua" }, t.HardwareHandler);
        Assert.Single(t.Groups);
        Assert.Equal("service-time", t.Selector);
        Assert.Equal(new[] { "8:16", "8:32" }, t.Groups[0].Paths);
        Assert.Equal("multibus", t.Grouping);
        Assert.Equal("service-time (multibus)", t.PolicyDescription);
    }

    [Fact]
    public void Dmsetup_table_failover_groups()
    {
        var t = DmMultipathTable.Parse(EnvFixtures.Text("dmsetup-table-failover.txt"));
        Assert.Null(t.MapName);
        Assert.Equal(2, t.Features.Count);
        Assert.Empty(t.HardwareHandler);
        Assert.Equal(2, t.Groups.Count);
        Assert.Equal("round-robin", t.Selector);
        Assert.Equal("failover", t.Grouping);
        Assert.Equal(new[] { "8:64" }, t.Groups[1].Paths);
    }

    [Theory]
    [InlineData("0 100 linear 8:16 0")]
    [InlineData("mpatha: 0 209715200 multipath 1 queue_if_no_path 0 1 1 round-robin 0 2 1 8:16")]
    public void Dmsetup_table_refuses_non_multipath_or_truncated_lines(string line)
    {
        var e = Assert.Throws<EngineException>(() => DmMultipathTable.Parse(line));
        Assert.Equal("InvalidMultipathTable", e.Code);
    }

    [Fact]
    public void Dm_map_to_report_with_policy()
    {
        var r = DmMultipath.ToReport(DmMultipath.Read(Sys, "dm-0")!, DmMultipathTable.Parse(EnvFixtures.Text("dmsetup-table.txt")));
        Assert.Equal("mpatha", r.Name);
        Assert.Equal("Linux dm-multipath", r.Provider);
        Assert.Equal(2, r.PathCount);
        Assert.Equal("service-time (multibus)", r.Policy);
        Assert.Equal(new[] { "sdb: running", "sdc: offline" }, r.PathStates);
    }

    [Theory]
    [InlineData(1, "FOO", "Fail Over Only")]
    [InlineData(2, "RR", "Round Robin")]
    [InlineData(3, "RRWS", "Round Robin with Subset")]
    [InlineData(4, "LQD", "Least Queue Depth")]
    [InlineData(5, "WP", "Weighted Paths")]
    [InlineData(6, "LB", "Least Blocks")]
    [InlineData(7, "VS", "Vendor Specific")]
    public void Load_balance_policies(int value, string code, string name)
    {
        var p = LoadBalancePolicy.FromValue(value)!;
        Assert.Equal(code, p.Code);
        Assert.Equal(name, p.Name);
        Assert.Same(p, LoadBalancePolicy.FromCode(code.ToLowerInvariant()));
        Assert.Same(p, LoadBalancePolicy.FromName(name));
    }

    [Fact]
    public void Policy_edge_cases()
    {
        Assert.Null(LoadBalancePolicy.FromValue(0));
        Assert.Null(LoadBalancePolicy.FromValue(8));
        Assert.Equal("LQD", LoadBalancePolicy.FromName("Dynamic Least Queue Depth")!.Code);
    }

    [Fact]
    public void Mpclaim_disk_list()
    {
        var disks = Mpclaim.ParseDiskList(EnvFixtures.Text("mpclaim-s-d.txt"));
        Assert.Equal(2, disks.Count);
        Assert.Equal(new MpclaimDisk(1, 3, "RR", "Microsoft DSM"), disks[0]);
        Assert.Equal(new MpclaimDisk(0, 2, "LQD", "Microsoft DSM"), disks[1]);
        Assert.Equal("Least Queue Depth", disks[1].Policy!.Name);
    }

    [Fact]
    public void Mpclaim_disk_detail_and_report()
    {
        var d = Mpclaim.ParseDiskDetail(EnvFixtures.Text("mpclaim-s-d-1.txt"))!;
        Assert.Equal(1, d.MpioDisk);
        Assert.Equal(4, d.PathCount);
        Assert.Equal("Round Robin", d.PolicyName);
        Assert.Equal("ALUA Not Supported", d.AccessMode);
        Assert.Equal("Microsoft DSM", d.DsmName);
        Assert.Equal("6006016012345678ABCDEF", d.SerialNumber);
        Assert.Equal(new[] { "FOO", "RR", "RRWS", "LQD", "WP", "LB" }, d.SupportedPolicies);
        Assert.Equal(4, d.Paths.Count);
        Assert.Equal(new MpclaimPath("0000000077030003", "Active/Optimized", "003|000|003|001", 0), d.Paths[0]);
        Assert.Equal("Failed", d.Paths[3].State);
        var r = d.ToReport();
        Assert.Equal("MPIO Disk1", r.Name);
        Assert.Equal("Round Robin (RR)", r.Policy);
        Assert.Equal("Microsoft MPIO (Microsoft DSM)", r.Provider);
        Assert.Equal(4, r.PathCount);
        Assert.Null(Mpclaim.ParseDiskDetail("MPIO is not installed."));
    }

    [Fact]
    public void Cim_mpio_disk_info()
    {
        var drives = MpioCim.ParseDiskInfo(EnvFixtures.Text("mpio-disk-info.json"));
        Assert.Equal(2, drives.Count);
        Assert.Equal(new MpioDriveInfo("MPIO Disk0", 2, "600D0230006C1C4C0C5A9C1D7C2D6E00", "Microsoft DSM"), drives[0]);
        Assert.Equal(4, drives[1].NumberPaths);
    }

    [Fact]
    public void Cim_dsm_lb_policy_with_numeric_and_boolean_flags()
    {
        var pols = MpioCim.ParseLbPolicy(EnvFixtures.Text("dsm-lbpolicy.json"));
        Assert.Equal(2, pols.Count);
        Assert.Equal("Round Robin (RR)", pols[0].PolicyText);
        Assert.StartsWith(@"MPIO\Disk&Ven_DGC", pols[0].InstanceName);
        Assert.Equal(new[] { "Active/Optimized", "Standby" }, pols[0].Paths.Select(p => p.State));
        Assert.Equal(1996685314UL, pols[0].Paths[0].DsmPathId);
        Assert.Equal("VS", pols[1].Policy!.Code);
        Assert.Equal("Failed", Assert.Single(pols[1].Paths).State);

        var r = MpioCim.ToReport(MpioCim.ParseDiskInfo(EnvFixtures.Text("mpio-disk-info.json"))[0], pols[0]);
        Assert.Equal(2, r.PathCount);
        Assert.Equal("Round Robin (RR)", r.Policy);
        Assert.Equal("0000000077030002: Active/Optimized", r.PathStates[0]);
    }

    [Fact]
    public void Cim_bad_json_is_a_coded_error()
    {
        var e = Assert.Throws<EngineException>(() => MpioCim.ParseDiskInfo("{not json"));
        Assert.Equal("InvalidCimJson", e.Code);
    }

    [Fact]
    public void Storage_software_table()
    {
        var volumes = new[]
        {
            new VolumeReport { Multipath = new MultipathReport { Provider = "Microsoft MPIO (Microsoft DSM)", Policy = "Round Robin (RR)", PathCount = 4 } },
            new VolumeReport { Multipath = new MultipathReport { Provider = "Microsoft MPIO (Microsoft DSM)", Policy = "Round Robin (RR)", PathCount = 2 } },
            new VolumeReport(),
        };
        var t = StorageSoftware.Build(volumes, "Microsoft Windows Server 2019 Datacenter", StorageSoftware.DiscoverLinuxHbas(Sys));
        Assert.Equal("Microsoft MPIO (Microsoft DSM), Round Robin (RR) (2-4 paths per LUN)", t.Multipathing);
        Assert.Equal("Microsoft Windows Server 2019 Datacenter", t.HostOperatingSystem);
        Assert.Equal(2, t.HostBusAdapters.Count);
        Assert.Equal("FC host3: QLE2692 FW:v8.08.03 DVR:v10.02.00.106-k, WWPN 0x21000024ff7c1a2b, Online", t.HostBusAdapters[0]);
        Assert.Equal("None detected", StorageSoftware.Build(new[] { new VolumeReport() }, "Linux", Array.Empty<string>()).Multipathing);
    }
}

public class MultipathChainTests
{
    private static string Sys => Path.Combine(EnvFixtures.Dir, "sysfs");

    [Fact]
    public void Mount_device_number_leads_to_the_multipath_map_and_its_vendor()
    {
        // The chain LinuxVolumeProbe follows: mountinfo major:minor -> sysfs device -> dm map -> paths.
        var dev = SysBlockDevice.FromDeviceNumber(Sys, 253, 0)!;
        Assert.Equal("dm-0", dev.DiskName);
        Assert.Equal("mpatha", dev.DmName);
        Assert.Equal(4096, dev.PhysicalBlockSize);
        var map = DmMultipath.Read(Sys, dev.DiskName)!;
        var report = DmMultipath.ToReport(map, null);
        Assert.Null(report.Policy); // no dmsetup: policy unknown rather than guessed
        Assert.Equal(2, report.PathCount);
    }
}
