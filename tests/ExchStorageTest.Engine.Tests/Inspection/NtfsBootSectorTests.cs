using ExchStorageTest.Engine.Inspection;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Tests.Inspection;

public class NtfsBootSectorTests
{
    [Theory]
    [InlineData("ntfs-boot-4096.bin", 8, 4096L)]
    [InlineData("ntfs-boot-65536.bin", 128, 65536L)]
    [InlineData("ntfs-boot-131072.bin", 256, 131072L)]
    public void Parses_mkntfs_boot_sectors(string file, int sectorsPerCluster, long cluster)
    {
        var b = NtfsBootSector.Parse(EnvFixtures.Bytes(file));
        Assert.Equal(512, b.BytesPerSector);
        Assert.Equal(sectorsPerCluster, b.SectorsPerCluster);
        Assert.Equal(cluster, b.BytesPerCluster);
        Assert.Equal(2048, b.HiddenSectors);
        Assert.Equal(1L << 20, b.HiddenSectorsBytes);
        // mkntfs on a 16 MiB image leaves the last sector for the backup boot sector.
        Assert.Equal(16L * 1024 * 1024 / 512 - 1, b.TotalSectors);
        Assert.Equal(1024, b.BytesPerFileRecord);
        Assert.True(b.MftLcn > 0);
        Assert.NotEqual(b.MftLcn, b.MftMirrorLcn);
        Assert.NotEqual(0UL, b.SerialNumber);
    }

    [Fact]
    public void Index_block_size_uses_the_signed_encoding()
    {
        // 4 KB clusters: index block byte is 1 (one cluster = 4096); 64 KB clusters: 0xF4 = -12 -> 4096 bytes.
        Assert.Equal(4096, NtfsBootSector.Parse(EnvFixtures.Bytes("ntfs-boot-4096.bin")).BytesPerIndexBlock);
        Assert.Equal(4096, NtfsBootSector.Parse(EnvFixtures.Bytes("ntfs-boot-65536.bin")).BytesPerIndexBlock);
    }

    [Theory]
    [InlineData(0x01, 1)]
    [InlineData(0x80, 128)]
    [InlineData(0xF8, 256)]
    [InlineData(0xF4, 4096)]
    [InlineData(0x00, 0)]
    [InlineData(0x03, 0)]
    [InlineData(0x81, 0)]
    public void Sectors_per_cluster_encoding(byte value, int expected) =>
        Assert.Equal(expected, NtfsBootSector.DecodeSectorsPerCluster(value));

    [Fact]
    public void Rejects_a_fat_boot_sector_naming_the_oem_id()
    {
        var e = Assert.Throws<EngineException>(() => NtfsBootSector.Parse(EnvFixtures.Bytes("fat-boot.bin")));
        Assert.Equal("NotNtfsBootSector", e.Code);
        Assert.Contains("mkfs.fat", e.Message);
    }

    [Fact]
    public void Rejects_zeros_short_buffers_and_a_missing_signature()
    {
        Assert.Throws<EngineException>(() => NtfsBootSector.Parse(new byte[512]));
        Assert.Throws<EngineException>(() => NtfsBootSector.Parse(new byte[100]));
        var bytes = EnvFixtures.Bytes("ntfs-boot-65536.bin");
        bytes[0x1FF] = 0;
        var e = Assert.Throws<EngineException>(() => NtfsBootSector.Parse(bytes));
        Assert.Contains("55AA", e.Message);
    }

    [Fact]
    public void Rejects_an_invalid_sectors_per_cluster_byte()
    {
        var bytes = EnvFixtures.Bytes("ntfs-boot-65536.bin");
        bytes[0x0D] = 3;
        Assert.Throws<EngineException>(() => NtfsBootSector.Parse(bytes));
    }
}
