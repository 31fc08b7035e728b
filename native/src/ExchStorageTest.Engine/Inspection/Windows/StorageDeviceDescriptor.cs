using System.Buffers.Binary;
using System.Text;

namespace ExchStorageTest.Engine.Inspection.Windows;

/// <summary>
/// STORAGE_DEVICE_DESCRIPTOR (IOCTL_STORAGE_QUERY_PROPERTY, StorageDeviceProperty): a 40-byte header
/// whose offsets point at NUL-terminated ASCII strings later in the same buffer (0 = absent).
/// </summary>
public sealed record StorageDeviceDescriptor(
    int Version,
    int Size,
    byte DeviceType,
    byte DeviceTypeModifier,
    bool RemovableMedia,
    bool CommandQueueing,
    string? VendorId,
    string? ProductId,
    string? ProductRevision,
    string? SerialNumber,
    int BusType)
{
    public const int HeaderSize = 40;
    public const int PropertyId = 0;

    public string BusTypeName => StorageBusTypes.Name(BusType);

    public static StorageDeviceDescriptor Parse(ReadOnlySpan<byte> b)
    {
        IoctlBuffer.RequireLength(b, HeaderSize, "STORAGE_DEVICE_DESCRIPTOR");
        return new StorageDeviceDescriptor(
            BinaryPrimitives.ReadInt32LittleEndian(b),
            BinaryPrimitives.ReadInt32LittleEndian(b[4..]),
            b[8],
            b[9],
            b[10] != 0,
            b[11] != 0,
            StringAt(b, BinaryPrimitives.ReadInt32LittleEndian(b[12..])),
            StringAt(b, BinaryPrimitives.ReadInt32LittleEndian(b[16..])),
            StringAt(b, BinaryPrimitives.ReadInt32LittleEndian(b[20..])),
            StringAt(b, BinaryPrimitives.ReadInt32LittleEndian(b[24..])),
            BinaryPrimitives.ReadInt32LittleEndian(b[28..]));
    }

    /// <summary>Vendors pad these with spaces; an offset of 0 or outside the buffer means "not reported".</summary>
    private static string? StringAt(ReadOnlySpan<byte> b, int offset)
    {
        if (offset <= 0 || offset >= b.Length) return null;
        var rest = b[offset..];
        int end = rest.IndexOf((byte)0);
        if (end < 0) end = rest.Length;
        string s = Encoding.ASCII.GetString(rest[..end]).Trim();
        return s.Length == 0 ? null : s;
    }
}

/// <summary>STORAGE_BUS_TYPE names (winioctl.h).</summary>
public static class StorageBusTypes
{
    private static readonly string[] Names =
    {
        "Unknown", "SCSI", "ATAPI", "ATA", "1394", "SSA", "Fibre Channel", "USB", "RAID", "iSCSI",
        "SAS", "SATA", "SD", "MMC", "Virtual", "File Backed Virtual", "Storage Spaces", "NVMe",
        "SCM", "UFS", "NVMe-oF",
    };

    public static string Name(int busType) =>
        busType >= 0 && busType < Names.Length ? Names[busType] : $"BusType {busType}";
}
