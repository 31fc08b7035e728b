using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Inspection.Windows;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>
/// The platform pre-flight's rules, each both ways, on hand-made facts and on recorded answers of the OS
/// (IOCTL buffers, schtasks output, a fake sysfs tree): unsupported refuses, doubtful warns, supported is reported.
/// </summary>
public class PlatformRulesTests
{
    private static VolumeFacts Good(VolumePlatform platform = VolumePlatform.Windows) => new()
    {
        Platform = platform,
        Volume = { Path = @"E:\DB1", MountPoint = @"E:\", FileSystem = "ReFS", ClusterSizeBytes = 65536, PartitionOffsetBytes = 1 << 20, DirectIoSupported = true },
    };

    private static List<Finding> Eval(VolumeFacts f) => VolumeRules.Evaluate(f, new VolumeCheckOptions());

    public static TheoryData<string, Action<VolumeFacts>> Unsupported => new()
    {
        { FindingCodes.IntegrityStreams, f => f.IntegrityStreams = @"ReFS integrity streams on E:\DB1" },
        { FindingCodes.Compression, f => f.Compression = @"NTFS compression on E:\DB1" },
        { FindingCodes.FileEncryption, f => f.FileEncryption = @"EFS encryption on E:\DB1" },
        { FindingCodes.Deduplication, f => f.Deduplication = @"ReFS deduplication on the volume of E:\DB1" },
    };

    [Theory]
    [MemberData(nameof(Unsupported))]
    public void Each_unsupported_feature_is_an_error_the_preflight_refuses_and_absent_it_is_silent(string code, Action<VolumeFacts> set)
    {
        Assert.DoesNotContain(Eval(Good()), f => f.Code == code || SupportRules.Refuses(f));
        var facts = Good();
        set(facts);
        var e = Assert.Single(Eval(facts), f => f.Code == code);
        Assert.Equal(Severities.Error, e.Severity);
        Assert.True(SupportRules.Refuses(e));
        Assert.Contains(@"E:\DB1", e.Message + e.Advice);
        Assert.Contains("does not support", e.Message);
    }

    [Fact]
    public void Linux_compression_advises_the_linux_remedy()
    {
        var f = Good(VolumePlatform.Linux);
        f.Compression = "btrfs mount option compress=zstd:3 on /srv";
        Assert.Contains("chattr -c", Assert.Single(Eval(f), x => x.Code == FindingCodes.Compression).Advice);
    }

    [Fact]
    public void Volume_encryption_is_reported_as_supported()
    {
        var f = Good();
        Assert.DoesNotContain(Eval(f), x => x.Code == FindingCodes.VolumeEncryption);
        f.VolumeEncryption = "BitLocker";
        var i = Assert.Single(Eval(f), x => x.Code == FindingCodes.VolumeEncryption);
        Assert.Equal(Severities.Info, i.Severity);
        Assert.False(SupportRules.Refuses(i));
    }

    [Fact]
    public void A_write_cache_that_cannot_be_flushed_warns_a_flushed_or_protected_one_is_reported_an_off_one_is_silent()
    {
        var f = Good();
        f.WriteCache = new WriteCacheFacts(true, false, false, "test");
        Assert.Equal(Severities.Warning, Assert.Single(Eval(f), x => x.Code == FindingCodes.WriteCacheNotFlushable).Severity);
        f.WriteCache = new WriteCacheFacts(true, false, true, "test");
        Assert.Equal(Severities.Info, Assert.Single(Eval(f), x => x.Code == FindingCodes.WriteCacheEnabled).Severity);
        f.WriteCache = new WriteCacheFacts(true, true, null, "test");
        Assert.Contains("flushed by the OS", Assert.Single(Eval(f), x => x.Code == FindingCodes.WriteCacheEnabled).Message);
        f.WriteCache = new WriteCacheFacts(false, null, null, "test");
        Assert.DoesNotContain(Eval(f), x => x.Code is FindingCodes.WriteCacheEnabled or FindingCodes.WriteCacheNotFlushable);
    }

    /// <summary>STORAGE_WRITE_CACHE_PROPERTY as a SATA disk with its volatile cache on answers, and one whose cache cannot be flushed.</summary>
    [Fact]
    public void Write_cache_property_is_decoded()
    {
        byte[] Answer(int enabled, byte flush, byte userProtected, byte nv)
        {
            var b = new byte[StorageWriteCache.Size];
            BitConverter.GetBytes(1).CopyTo(b, 0);
            BitConverter.GetBytes(StorageWriteCache.Size).CopyTo(b, 4);
            BitConverter.GetBytes(2).CopyTo(b, 8); // WriteCacheTypeWriteBack
            BitConverter.GetBytes(enabled).CopyTo(b, 12);
            BitConverter.GetBytes(2).CopyTo(b, 16);
            BitConverter.GetBytes(2).CopyTo(b, 20);
            b[24] = flush; b[25] = userProtected; b[26] = nv;
            return b;
        }
        var on = StorageWriteCache.Parse(Answer(2, 1, 0, 0))!;
        Assert.Equal(new StorageWriteCache(true, true, false), on);
        Assert.Equal(new WriteCacheFacts(true, true, false, "IOCTL_STORAGE_QUERY_PROPERTY (StorageDeviceWriteCacheProperty)"), on.ToFacts());
        Assert.Equal(new StorageWriteCache(true, false, true), StorageWriteCache.Parse(Answer(2, 0, 0, 1)));
        Assert.False(StorageWriteCache.Parse(Answer(1, 1, 0, 0))!.Enabled);
        Assert.Null(StorageWriteCache.Parse(Answer(0, 1, 0, 0))!.Enabled);
        Assert.Null(StorageWriteCache.Parse(new byte[10]));
    }

    [Fact]
    public void File_attributes_name_compression_efs_and_integrity_streams()
    {
        Assert.Equal(new FileFeatures(null, null, null), FileFeatures.Of(@"E:\DB1", FileAttributes.Directory));
        var all = FileFeatures.Of(@"E:\DB1", FileAttributes.Directory | FileAttributes.Compressed | FileAttributes.Encrypted | FileAttributes.IntegrityStream);
        Assert.Equal(@"NTFS compression on E:\DB1", all.Compression);
        Assert.Equal(@"EFS encryption on E:\DB1", all.FileEncryption);
        Assert.Equal(@"ReFS integrity streams on E:\DB1", all.IntegrityStreams);
    }

    [Fact]
    public void Mixed_sector_formats_in_one_layout_warn()
    {
        VolumeReport V(string path, int logical, int physical) => new() { Path = path, LogicalSectorBytes = logical, PhysicalSectorBytes = physical };
        Assert.Empty(LayoutRules.Evaluate(new[] { V("E:", 512, 4096), V("F:", 512, 4096), new VolumeReport { Path = "G:" } }));
        var w = Assert.Single(LayoutRules.Evaluate(new[] { V("E:", 512, 4096), V("F:", 4096, 4096) }));
        Assert.Equal(FindingCodes.MixedSectorFormats, w.Code);
        Assert.Equal(Severities.Warning, w.Severity);
        Assert.Contains("512e: E:", w.Message);
        Assert.Contains("4Kn: F:", w.Message);
        Assert.Equal("512n", LayoutRules.SectorFormat(V("x", 512, 512)));
    }

    private static PlatformFacts Host(VolumePlatform platform = VolumePlatform.Windows) => new()
    {
        Platform = platform, LogicalProcessors = 16, Sockets = 2, PhysicalCores = 16, PowerPolicy = "High performance", FullSpeed = true, DefragTask = "Disabled",
    };

    private static string[] Codes(PlatformFacts f, ModelledExchange? model = null) =>
        HostRules.Evaluate(f, model ?? ModelledExchange.Jetstress).Select(x => x.Code).ToArray();

    [Fact]
    public void A_host_within_the_guidance_has_no_findings()
    {
        Assert.Empty(Codes(Host()));
        Assert.Empty(Codes(Host(VolumePlatform.Linux)));
    }

    [Fact]
    public void Sockets_and_logical_processors_are_judged_against_the_modelled_version()
    {
        var f = Host();
        f.Sockets = 4;
        Assert.Equal(new[] { FindingCodes.SocketsAboveGuidance }, Codes(f));
        f = Host();
        f.LogicalProcessors = 32;
        var w = Assert.Single(HostRules.Evaluate(f, ModelledExchange.Jetstress));
        Assert.Equal(FindingCodes.ProcessorsAboveGuidance, w.Code);
        Assert.Contains("Exchange 2013/2016 guidance is at most 24", w.Message);
        Assert.Empty(Codes(f, ModelledExchange.PreferredArchitecture2019));
        f.LogicalProcessors = 64;
        Assert.Equal(new[] { FindingCodes.ProcessorsAboveGuidance }, Codes(f, ModelledExchange.PreferredArchitecture2019));
    }

    [Theory]
    [InlineData(VolumePlatform.Windows, "Balanced", "High performance")]
    [InlineData(VolumePlatform.Linux, "powersave", "cpupower")]
    public void A_power_policy_below_full_speed_warns(VolumePlatform platform, string policy, string remedy)
    {
        var f = Host(platform);
        f.PowerPolicy = policy;
        f.FullSpeed = false;
        var w = Assert.Single(HostRules.Evaluate(f, ModelledExchange.Jetstress));
        Assert.Equal(FindingCodes.PowerPolicyNotFullSpeed, w.Code);
        Assert.Equal(Severities.Warning, w.Severity);
        Assert.Contains(policy, w.Message);
        Assert.Contains(remedy, w.Advice);
        f.FullSpeed = null; // a custom plan: not judged
        Assert.Empty(Codes(f));
    }

    [Fact]
    public void A_scheduled_defragmentation_warns_and_a_disabled_one_does_not()
    {
        const string ready = "\"\\Microsoft\\Windows\\Defrag\\ScheduledDefrag\",\"N/A\",\"Ready\"\r\n";
        const string disabled = "\"\\Microsoft\\Windows\\Defrag\\ScheduledDefrag\",\"N/A\",\"Disabled\"\r\n";
        Assert.Equal("Ready", DefragTask.ParseStatus(ready));
        Assert.Null(DefragTask.ParseStatus("ERROR: The system cannot find the file specified.\r\n"));
        var f = Host();
        f.DefragTask = DefragTask.ParseStatus(ready);
        Assert.Equal(new[] { FindingCodes.DefragScheduled }, Codes(f));
        f.DefragTask = DefragTask.ParseStatus(disabled);
        Assert.Empty(Codes(f));
    }

    [Fact]
    public void A_hypervisor_is_reported()
    {
        var f = Host();
        f.Hypervisor = Hypervisors.FromFirmware("VMware, Inc.", "VMware7,1");
        var i = Assert.Single(HostRules.Evaluate(f, ModelledExchange.Jetstress));
        Assert.Equal((FindingCodes.Virtualised, Severities.Info), (i.Code, i.Severity));
        Assert.Contains("VMware", i.Message);
        Assert.Equal("Hyper-V", Hypervisors.FromFirmware("Microsoft Corporation", "Virtual Machine"));
        Assert.Equal("KVM/QEMU", Hypervisors.FromFirmware("QEMU", "Standard PC (Q35 + ICH9, 2009)"));
        Assert.Null(Hypervisors.FromFirmware("Dell Inc.", "PowerEdge R760"));
        Assert.Null(Hypervisors.FromFirmware(null, null));
    }

    [Fact]
    public void Power_schemes_are_named_and_judged()
    {
        Assert.Equal("High performance", PowerSchemes.Name(PowerSchemes.HighPerformance));
        Assert.True(PowerSchemes.FullSpeed(PowerSchemes.UltimatePerformance));
        Assert.False(PowerSchemes.FullSpeed(PowerSchemes.Balanced));
        var custom = Guid.Parse("11111111-2222-3333-4444-555555555555");
        Assert.Null(PowerSchemes.FullSpeed(custom));
        Assert.Contains(custom.ToString(), PowerSchemes.Name(custom));
    }

    /// <summary>GetLogicalProcessorInformationEx's records: 2 packages, 4 cores, a cache and a NUMA record between them.</summary>
    [Fact]
    public void Processor_topology_counts_packages_and_cores()
    {
        var buffer = new List<byte>();
        void Record(int relation, int size)
        {
            var r = new byte[size];
            BitConverter.GetBytes(relation).CopyTo(r, 0);
            BitConverter.GetBytes(size).CopyTo(r, 4);
            buffer.AddRange(r);
        }
        foreach (var relation in new[] { 3, 0, 0, 2, 3, 0, 1, 0 }) Record(relation, relation == 2 ? 48 : 80);
        Assert.Equal((2, 4), ProcessorTopology.Parse(buffer.ToArray()));
        Assert.Equal((0, 0), ProcessorTopology.Parse(new byte[4]));
    }

    [Fact]
    public void Btrfs_compression_mount_options_are_read()
    {
        MountInfoEntry Mount(string fs, string options) => new(1, 0, 0, 40, "/", "/srv", "rw,relatime", fs, "/dev/sdb1", options);
        Assert.Equal("btrfs mount option compress=zstd:3 on /srv", Mount("btrfs", "rw,compress=zstd:3,ssd,space_cache=v2").Compression());
        Assert.Equal("btrfs mount option compress-force=lzo on /srv", Mount("btrfs", "rw,compress-force=lzo").Compression());
        Assert.Null(Mount("btrfs", "rw,ssd,space_cache=v2").Compression());
        Assert.Null(Mount("ext4", "rw,errors=remount-ro").Compression());
        Assert.True(InodeFlags.Compressed(0x4 | 0x80000));
        Assert.False(InodeFlags.Compressed(0x80000));
    }

    [Fact]
    public void Sysfs_write_cache_and_dm_crypt_are_read()
    {
        SysBlockDevice Dev(string? cache, string? dmUuid) => new("dm-0", "dm-0", false, null, 512, 4096, null, null, null, null, false, "data", dmUuid, cache);
        Assert.Equal(new WriteCacheFacts(true, true, null, "/sys/block/dm-0/queue/write_cache: write back"), Dev("write back", null).WriteCacheFacts());
        Assert.False(Dev("write through", null).WriteCacheFacts()!.Enabled);
        Assert.Null(Dev(null, null).WriteCacheFacts());
        Assert.Equal("dm-crypt (LUKS2)", Dev(null, "CRYPT-LUKS2-0123456789abcdef-data").Encryption());
        Assert.Null(Dev(null, "LVM-abcdef").Encryption());
    }

    [Fact]
    public void Linux_host_facts_come_from_a_sysfs_tree()
    {
        using var root = new TestFolder("hostsys");
        void Put(string relative, string text)
        {
            string p = Path.Combine(root.Path, relative);
            Directory.CreateDirectory(Path.GetDirectoryName(p)!);
            File.WriteAllText(p, text + "\n");
        }
        // Two sockets of two cores with two threads each: 8 logical processors.
        for (int cpu = 0; cpu < 8; cpu++)
        {
            Put($"sys/devices/system/cpu/cpu{cpu}/topology/physical_package_id", (cpu / 4).ToString());
            Put($"sys/devices/system/cpu/cpu{cpu}/topology/core_id", (cpu % 4 / 2).ToString());
            Put($"sys/devices/system/cpu/cpu{cpu}/cpufreq/scaling_governor", cpu == 0 ? "powersave" : "performance");
        }
        Directory.CreateDirectory(Path.Combine(root.Path, "sys/devices/system/cpu/cpufreq"));
        Put("sys/class/dmi/id/sys_vendor", "QEMU");
        Put("sys/class/dmi/id/product_name", "Standard PC (i440FX + PIIX, 1996)");
        Put("proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu vme hypervisor\n");

        var f = LinuxHostProbe.Probe(Path.Combine(root.Path, "sys"), Path.Combine(root.Path, "proc"));
        Assert.Equal((8, 2, 4), (f.LogicalProcessors, f.Sockets, f.PhysicalCores));
        Assert.Equal("performance, powersave", f.PowerPolicy);
        Assert.False(f.FullSpeed);
        Assert.Equal("KVM/QEMU", f.Hypervisor);
        Assert.Empty(f.Notes);

        // Without cpufreq or DMI: the policy is said to be unread; the CPU flag still says a hypervisor runs it.
        var bare = LinuxHostProbe.Probe(Path.Combine(root.Path, "nothing"), Path.Combine(root.Path, "proc"));
        Assert.Null(bare.FullSpeed);
        Assert.Contains(bare.Notes, n => n.Contains("governor", StringComparison.Ordinal));
        Assert.StartsWith("a hypervisor", bare.Hypervisor);
    }

    [Fact]
    public void The_preflight_passes_a_supported_folder_and_refuses_an_unsupported_one_naming_each_finding_and_the_override()
    {
        using var folder = new TestFolder("preflight");
        Preflight.Check(new[] { folder.Path }, allowUnsupported: false); // this machine's volume: nothing unsupported

        var facts = Good(VolumePlatform.Linux);
        facts.Volume.Path = "/srv/DB1";
        facts.Compression = "btrfs mount option compress=zstd:3 on /srv";
        facts.WriteCache = new WriteCacheFacts(true, false, false, "test"); // a doubt: never refuses
        var compressed = VolumeRules.ToReport(facts, Eval(facts));
        var plain = VolumeRules.ToReport(Good(), Eval(Good()));
        Preflight.Refuse(new[] { plain });

        var refused = Assert.Throws<EngineException>(() => Preflight.Refuse(new[] { plain, compressed }));
        Assert.Equal(ErrorCodes.PlatformUnsupported.Code, refused.Code);
        Assert.Contains("CompressionEnabled: btrfs mount option compress=zstd:3 on /srv", refused.Message);
        Assert.DoesNotContain(FindingCodes.WriteCacheNotFlushable, refused.Message);
        Assert.Contains("-AllowUnsupportedPlatform", refused.Message);
        Assert.Equal("/srv/DB1", Assert.Single(Preflight.Unsupported(new[] { plain, compressed })).Path);
    }
}
