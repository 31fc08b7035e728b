using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

public enum VolumePlatform
{
    Linux,
    Windows,
}

/// <summary>
/// What a platform probe found out about the volume under a path, before any judgement.
/// Unknowns stay null; <see cref="VolumeRules"/> turns facts into findings.
/// </summary>
public sealed class VolumeFacts
{
    public string Path { get; set; } = "";
    public VolumePlatform Platform { get; set; }
    /// <summary>The existing, symlink-free path actually examined (the nearest existing ancestor).</summary>
    public string? ProbedPath { get; set; }
    public string? MountPoint { get; set; }
    public string? MountSource { get; set; }
    /// <summary>"NTFS", "ReFS", "ext4", ... (on Linux, "NTFS" once the boot sector confirmed it).</summary>
    public string? FileSystem { get; set; }
    public string? FileSystemDriver { get; set; }
    /// <summary>Allocation unit from an authoritative source (NTFS boot sector / FSCTL, GetDiskFreeSpace).</summary>
    public long? ClusterSizeBytes { get; set; }
    public string? ClusterSizeSource { get; set; }
    /// <summary>statvfs f_frsize on Linux: the file system's block size (not an NTFS cluster under FUSE).</summary>
    public long? FileSystemBlockBytes { get; set; }
    public int? LogicalSectorBytes { get; set; }
    public int? PhysicalSectorBytes { get; set; }
    public long? PartitionOffsetBytes { get; set; }
    public long? TotalBytes { get; set; }
    public long? FreeBytes { get; set; }
    public string? Device { get; set; }
    public string? Vendor { get; set; }
    public string? Model { get; set; }
    public string? FirmwareRevision { get; set; }
    public string? BusType { get; set; }
    public bool? DirectIoSupported { get; set; }
    public string? DirectIoDetail { get; set; }
    public MultipathReport? Multipath { get; set; }
    public int MultipathUnhealthyPaths { get; set; }
    /// <summary>Things the probe could not find out, reported as Info findings.</summary>
    public List<string> Notes { get; set; } = new();
}
