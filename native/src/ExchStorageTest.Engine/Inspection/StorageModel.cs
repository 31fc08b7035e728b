using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Says what storage a volume sits on in the words of the ESRP row "Storage model and OS/firmware
/// revision": the vendor, the model string the device reports and its firmware revision. Linux
/// reports NVMe and virtio vendors as PCI vendor ids ("0x1af4"); known ids are named (the names are
/// those of the PCI ID Repository, pci-ids.ucw.cz), unknown ones say they are a PCI id.
/// </summary>
public static class StorageModel
{
    /// <summary>PCI vendor ids of storage controllers and drives (NVMe, virtual disks, HBAs).</summary>
    private static readonly Dictionary<int, string> PciVendors = new()
    {
        [0x1000] = "Broadcom / LSI",
        [0x1022] = "Advanced Micro Devices, Inc. [AMD]",
        [0x1028] = "Dell",
        [0x103c] = "Hewlett-Packard Company",
        [0x1077] = "QLogic Corp.",
        [0x10df] = "Emulex Corporation",
        [0x1179] = "Toshiba Corporation",
        [0x126f] = "Silicon Motion, Inc.",
        [0x1344] = "Micron Technology Inc",
        [0x1414] = "Microsoft Corporation",
        [0x144d] = "Samsung Electronics Co Ltd",
        [0x1590] = "Hewlett Packard Enterprise",
        [0x15ad] = "VMware",
        [0x15b7] = "Sandisk Corp",
        [0x1987] = "Phison Electronics Corporation",
        [0x19e5] = "Huawei Technologies Co., Ltd.",
        [0x1ae0] = "Google, Inc.",
        [0x1af4] = "Red Hat, Inc.",
        [0x1b4b] = "Marvell Technology Group Ltd.",
        [0x1bb1] = "Seagate Technology PLC",
        [0x1c58] = "HGST, Inc.",
        [0x1c5c] = "SK hynix",
        [0x1cc1] = "ADATA Technology Co., Ltd.",
        [0x1d0f] = "Amazon.com, Inc.",
        [0x1e0f] = "KIOXIA Corporation",
        [0x1e49] = "Yangtze Memory Technologies Co.,Ltd",
        [0x2646] = "Kingston Technology Company, Inc.",
        [0x8086] = "Intel Corporation",
        [0x9005] = "Adaptec",
    };

    /// <summary>The vendor as reported when it is a name; for a PCI id ("0x1af4"), its name and the id.</summary>
    public static string? Vendor(string? reported)
    {
        if (string.IsNullOrWhiteSpace(reported)) return null;
        string v = reported.Trim();
        if (PciId(v) is not int id) return v;
        string hex = "0x" + id.ToString("x4", CultureInfo.InvariantCulture);
        return PciVendors.TryGetValue(id, out var name) ? $"{name} (PCI vendor {hex})" : $"PCI vendor {hex} (not a vendor this tool can name)";
    }

    /// <summary>
    /// "Red Hat, Inc. (PCI vendor 0x1af4), no model string reported", "ATA Samsung SSD 860, firmware
    /// RVT04B6Q"; null when nothing about the device is known.
    /// </summary>
    public static string? Describe(VolumeReport v)
    {
        string? vendor = Vendor(v.Vendor);
        string? model = string.IsNullOrWhiteSpace(v.Model) ? null : v.Model.Trim();
        string? firmware = string.IsNullOrWhiteSpace(v.FirmwareRevision) ? null : v.FirmwareRevision.Trim();
        if (vendor is null && model is null) return null;
        string text = vendor is null ? model! : model is null ? vendor + ", no model string reported" : vendor + " " + model;
        return firmware is null ? text : $"{text}, firmware {firmware}";
    }

    private static int? PciId(string v) =>
        v.Length is > 2 and <= 6 && v.StartsWith("0x", StringComparison.OrdinalIgnoreCase)
        && int.TryParse(v.AsSpan(2), NumberStyles.AllowHexSpecifier, CultureInfo.InvariantCulture, out int id) ? id : null;
}
