using System.Buffers.Binary;
using System.Text;
using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Inspection.Windows;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Inspection;

/// <summary>Buffers laid out by hand from the winioctl.h offsets in research/windows.md section 2.</summary>
public class IoctlParserTests
{
    [Fact]
    public void Ntfs_volume_data_buffer()
    {
        var b = new byte[NtfsVolumeData.Size];
        BinaryPrimitives.WriteUInt64LittleEndian(b, 0x1122334455667788);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(8), 209715199);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(16), 1638399);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(24), 1600000);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(40), 512);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(44), 65536);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(48), 1024);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(64), 786432);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(72), 2);
        var d = NtfsVolumeData.Parse(b);
        Assert.Equal(0x1122334455667788UL, d.VolumeSerialNumber);
        Assert.Equal(209715199, d.NumberSectors);
        Assert.Equal(1638399, d.TotalClusters);
        Assert.Equal(1600000, d.FreeClusters);
        Assert.Equal(512, d.BytesPerSector);
        Assert.Equal(65536, d.BytesPerCluster);
        Assert.Equal(1024, d.BytesPerFileRecordSegment);
        Assert.Equal(786432, d.MftStartLcn);
        Assert.Equal(2, d.Mft2StartLcn);
        Assert.Throws<EngineException>(() => NtfsVolumeData.Parse(new byte[64]));
    }

    [Fact]
    public void Storage_access_alignment_descriptor_512e()
    {
        var b = new byte[28];
        int[] v = { 28, 28, 64, 0, 512, 4096, 0 };
        for (int i = 0; i < v.Length; i++) BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(i * 4), v[i]);
        var a = StorageAccessAlignment.Parse(b);
        Assert.Equal(512, a.BytesPerLogicalSector);
        Assert.Equal(4096, a.BytesPerPhysicalSector);
        Assert.Equal(64, a.BytesPerCacheLine);
        Assert.Equal(0, a.BytesOffsetForSectorAlignment);
    }

    [Fact]
    public void Storage_device_descriptor_strings_at_offsets()
    {
        var b = new byte[128];
        BinaryPrimitives.WriteInt32LittleEndian(b, 40);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(4), 128);
        b[8] = 0; b[10] = 0; b[11] = 1;
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(12), 40);  // vendor
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(16), 49);  // product
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(20), 66);  // revision
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(24), 0);   // no serial
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(28), 0x0A); // SAS
        Encoding.ASCII.GetBytes("NETAPP  \0").CopyTo(b, 40);
        Encoding.ASCII.GetBytes("LUN C-Mode      \0").CopyTo(b, 49);
        Encoding.ASCII.GetBytes("9700\0").CopyTo(b, 66);
        var d = StorageDeviceDescriptor.Parse(b);
        Assert.Equal("NETAPP", d.VendorId);
        Assert.Equal("LUN C-Mode", d.ProductId);
        Assert.Equal("9700", d.ProductRevision);
        Assert.Null(d.SerialNumber);
        Assert.True(d.CommandQueueing);
        Assert.False(d.RemovableMedia);
        Assert.Equal("SAS", d.BusTypeName);
    }

    [Theory]
    [InlineData(1, "SCSI")]
    [InlineData(3, "ATA")]
    [InlineData(6, "Fibre Channel")]
    [InlineData(9, "iSCSI")]
    [InlineData(0x0B, "SATA")]
    [InlineData(0x11, "NVMe")]
    [InlineData(99, "BusType 99")]
    public void Bus_type_names(int value, string name) => Assert.Equal(name, StorageBusTypes.Name(value));

    [Fact]
    public void Device_descriptor_offsets_outside_the_buffer_are_ignored()
    {
        var b = new byte[40];
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(12), 500);
        Assert.Null(StorageDeviceDescriptor.Parse(b).VendorId);
    }

    [Fact]
    public void Partition_information_ex_alignment_fields()
    {
        var b = new byte[PartitionInformation.Size];
        BinaryPrimitives.WriteInt32LittleEndian(b, 1);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(8), 135266304); // 129 MiB: after the MSR on GPT
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(16), 1L << 40);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(24), 2);
        var p = PartitionInformation.Parse(b);
        Assert.Equal("GPT", p.PartitionStyleName);
        Assert.Equal(135266304, p.StartingOffset);
        Assert.Equal(0, p.StartingOffset % (1 << 20));
        Assert.Equal(1L << 40, p.PartitionLength);
        Assert.Equal(2, p.PartitionNumber);
    }

    [Fact]
    public void Volume_disk_extents_two_disks()
    {
        var b = new byte[VolumeDiskExtents.BufferSize(2)];
        BinaryPrimitives.WriteInt32LittleEndian(b, 2);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(8), 3);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(16), 1048576);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(24), 1L << 30);
        BinaryPrimitives.WriteInt32LittleEndian(b.AsSpan(32), 4);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(40), 65536);
        BinaryPrimitives.WriteInt64LittleEndian(b.AsSpan(48), 1L << 31);
        var e = VolumeDiskExtents.Parse(b);
        Assert.Equal(new[] { new DiskExtent(3, 1048576, 1L << 30), new DiskExtent(4, 65536, 1L << 31) }, e);
    }

    [Fact]
    public void Volume_disk_extents_too_short_for_its_count_is_refused()
    {
        var b = new byte[32];
        BinaryPrimitives.WriteInt32LittleEndian(b, 2);
        Assert.Equal(2, VolumeDiskExtents.ReadCount(b));
        Assert.Throws<EngineException>(() => VolumeDiskExtents.Parse(b));
    }
}
