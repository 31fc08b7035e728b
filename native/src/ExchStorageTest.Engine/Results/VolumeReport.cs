namespace ExchStorageTest.Engine.Results;

/// <summary>
/// What the engine knows about a volume under a database or log path: filled in by the platform probe
/// (<see cref="Inspection.VolumeFacts.Volume"/>), judged by the rules, written to the results file.
/// </summary>
public sealed class VolumeReport
{
    public string Path { get; set; } = "";
    /// <summary>Where the volume is mounted (Linux mount point, Windows volume root).</summary>
    public string? MountPoint { get; set; }
    /// <summary>"NTFS", "ReFS", "ext4", ... (on Linux, "NTFS" once the boot sector confirmed it).</summary>
    public string? FileSystem { get; set; }
    /// <summary>The driver's own name when it differs from the on-disk format (ntfs-3g reports "fuseblk").</summary>
    public string? FileSystemDriver { get; set; }
    /// <summary>The allocation unit; on a file system other than NTFS/ReFS, its block size when no cluster size is known.</summary>
    public long? ClusterSizeBytes { get; set; }
    public int? LogicalSectorBytes { get; set; }
    public int? PhysicalSectorBytes { get; set; }
    public long? PartitionOffsetBytes { get; set; }
    public long? TotalBytes { get; set; }
    public long? FreeBytes { get; set; }
    public string? Device { get; set; }
    public string? Vendor { get; set; }
    public string? Model { get; set; }
    /// <summary>The firmware revision the device reports (SCSI rev, NVMe firmware_rev, Windows ProductRevision).</summary>
    public string? FirmwareRevision { get; set; }
    /// <summary>How the host reaches the device: "SATA", "SAS", "Fibre Channel", "iSCSI", "NVMe", "virtio", "USB" (Windows: STORAGE_BUS_TYPE names).</summary>
    public string? BusType { get; set; }
    /// <summary>True when unbuffered I/O (O_DIRECT / FILE_FLAG_NO_BUFFERING) works here; null when not probed.</summary>
    public bool? DirectIoSupported { get; set; }
    public MultipathReport? Multipath { get; set; }
    public List<Finding> Findings { get; set; } = new();
}
