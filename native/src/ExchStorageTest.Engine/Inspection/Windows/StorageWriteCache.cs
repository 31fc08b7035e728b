using System.Buffers.Binary;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// STORAGE_WRITE_CACHE_PROPERTY (IOCTL_STORAGE_QUERY_PROPERTY, StorageDeviceWriteCacheProperty): Version, Size,
/// WriteCacheType, WriteCacheEnabled, WriteCacheChangeable, WriteThroughSupported (DWORDs), then the BOOLEANs
/// FlushCacheSupported, UserDefinedPowerProtection, NVCacheEnabled.
/// </summary>
public sealed record StorageWriteCache(bool? Enabled, bool FlushSupported, bool PowerProtected)
{
    public const int PropertyId = 4;
    public const int Size = 28;

    public static StorageWriteCache? Parse(ReadOnlySpan<byte> b)
    {
        if (b.Length < 27) return null;
        int enabled = BinaryPrimitives.ReadInt32LittleEndian(b[12..]); // 0 unknown, 1 disabled, 2 enabled
        return new StorageWriteCache(enabled switch { 1 => false, 2 => true, _ => null }, b[24] != 0, b[25] != 0 || b[26] != 0);
    }

    public WriteCacheFacts ToFacts() => new(Enabled, Enabled == true ? FlushSupported : null, PowerProtected, "IOCTL_STORAGE_QUERY_PROPERTY (StorageDeviceWriteCacheProperty)");
}
