using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

/// <summary>
/// Rules over all the volumes of one layout: every copy of a database must sit on disks of one sector format
/// (512-byte native, 512-byte emulation on 4 KiB media, 4 KiB native), or log shipping and replay between them fails
/// (the Exchange team, "Exchange 2010 database availability groups and disk sector sizes"; Exchange 2016 and later
/// support 4 KiB native disks, and the rule that all copies share a format stands).
/// </summary>
public static class LayoutRules
{
    /// <summary>"512n", "512e", "4Kn"; null when the sector sizes are not known.</summary>
    public static string? SectorFormat(VolumeReport v) => (v.LogicalSectorBytes, v.PhysicalSectorBytes) switch
    {
        (512, 512) => "512n",
        (512, 4096) => "512e",
        (4096, _) => "4Kn",
        (int l, int p) => $"{l}/{p}",
        _ => null,
    };

    public static List<Finding> Evaluate(IReadOnlyList<VolumeReport> volumes)
    {
        var list = new List<Finding>();
        var formats = volumes.Select(v => (v.Path, Format: SectorFormat(v))).Where(x => x.Format != null)
            .GroupBy(x => x.Format!).OrderBy(g => g.Key, StringComparer.Ordinal).ToList();
        if (formats.Count > 1)
            list.Add(SupportRules.Make(Severities.Warning, FindingCodes.MixedSectorFormats,
                "The layout mixes disk sector formats (" + string.Join("; ", formats.Select(g => $"{g.Key}: {string.Join(", ", g.Select(x => x.Path))}")) +
                "); every copy of a database must be on disks of one format, so these volumes cannot hold copies of the same databases.",
                "Build each database's copies on disks of one sector format (Get-Disk's LogicalSectorSize/PhysicalSectorSize; fsutil fsinfo sectorinfo)."));
        return list;
    }
}
