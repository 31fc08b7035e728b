using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Linux;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>The ESRP "Storage model and OS/firmware revision": the device's own strings, PCI vendor ids named.</summary>
public class StorageModelTests
{
    private static readonly string Sys = Path.Combine(EnvFixtures.Dir, "sysfs");

    private static VolumeReport Volume(SysBlockDevice d) => new() { Vendor = d.Vendor, Model = d.Model, FirmwareRevision = d.FirmwareRevision, BusType = d.BusType };

    [Fact]
    public void Scsi_disk_reports_vendor_model_and_firmware_revision()
    {
        var d = SysBlockDevice.FromDeviceNumber(Sys, 8, 0)!;
        Assert.Equal("TN05", d.FirmwareRevision);
        Assert.Equal("SEAGATE ST4000NM0025, firmware TN05", StorageModel.Describe(Volume(d)));
    }

    [Fact]
    public void Nvme_namespace_takes_model_and_firmware_from_its_controller_and_names_the_pci_vendor()
    {
        var d = SysBlockDevice.FromDeviceNumber(Sys, 259, 0)!;
        Assert.Equal("0x144d", d.Vendor);
        Assert.Equal("Samsung SSD 970 EVO Plus 1TB", d.Model);
        Assert.Equal("Samsung Electronics Co Ltd (PCI vendor 0x144d) Samsung SSD 970 EVO Plus 1TB, firmware 2B2QEXM7", StorageModel.Describe(Volume(d)));
    }

    [Fact]
    public void Virtio_disk_names_its_vendor_and_says_it_reports_no_model()
    {
        var d = SysBlockDevice.FromDeviceNumber(Sys, 252, 16)!;
        Assert.Null(d.Model);
        Assert.Equal("Red Hat, Inc. (PCI vendor 0x1af4), no model string reported", StorageModel.Describe(Volume(d)));
    }

    [Theory]
    [InlineData("0x1af4", "Red Hat, Inc. (PCI vendor 0x1af4)")]
    [InlineData("0x8086", "Intel Corporation (PCI vendor 0x8086)")]
    [InlineData("0xABCD", "PCI vendor 0xabcd (not a vendor this tool can name)")]
    [InlineData("NETAPP  ", "NETAPP")]
    [InlineData("0x", "0x")]
    public void Vendor_ids_are_named_and_names_kept(string reported, string expected) => Assert.Equal(expected, StorageModel.Vendor(reported));

    [Fact]
    public void Nothing_known_gives_no_description()
    {
        Assert.Null(StorageModel.Describe(new VolumeReport()));
        Assert.Equal("FlashArray, firmware 6.1", StorageModel.Describe(new VolumeReport { Model = "FlashArray", FirmwareRevision = "6.1" }));
    }

    [Theory]
    [InlineData("/sys/devices/pci0000:00/0000:00:02.0/virtio1/block/vda", "virtio")]
    [InlineData("/sys/devices/pci0000:00/0000:00:04.0/virtio2/host0/target0:0:0/0:0:0:0/block/sda", "virtio")]
    [InlineData("/sys/devices/pci0000:00/0000:00:1d.0/0000:3d:00.0/nvme/nvme0/nvme0n1", "NVMe")]
    [InlineData("/sys/devices/pci0000:00/0000:00:1f.2/ata1/host0/target0:0:0/0:0:0:0/block/sda", "SATA")]
    [InlineData("/sys/devices/pci0000:00/0000:00:03.0/0000:05:00.0/host4/rport-4:0-2/target4:0:0/4:0:0:1/block/sdc", "Fibre Channel")]
    [InlineData("/sys/devices/platform/host6/session1/target6:0:0/6:0:0:0/block/sdd", "iSCSI")]
    [InlineData("/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/host0/port-0:0/end_device-0:0/target0:0:0/0:0:0:0/block/sdb", "SAS")]
    [InlineData("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host7/target7:0:0/7:0:0:0/block/sde", "USB")]
    [InlineData("/sys/devices/virtual/block/dm-0", null)]
    [InlineData(null, null)]
    public void Bus_type_comes_from_the_place_in_the_device_tree(string? path, string? expected) => Assert.Equal(expected, SysBlockDevice.BusTypeOf(path));

    [Fact]
    public void This_hosts_volume_under_var_tmp_is_described_by_what_its_device_reports()
    {
        if (!OperatingSystem.IsLinux()) return;
        var v = VolumeInspector.Inspect("/var/tmp", new VolumeCheckOptions { ProbeDirectIo = false });
        // Whatever the device, a bare PCI id is never what the report prints.
        string? described = StorageModel.Describe(v);
        if (described is null) return; // e.g. a loop or overlay device reports nothing
        Assert.DoesNotMatch(@"^0x[0-9a-f]+$", described);
        if (v.Device == "/dev/vda" && v.Vendor == "0x1af4") Assert.Equal("virtio", v.BusType);
    }
}
