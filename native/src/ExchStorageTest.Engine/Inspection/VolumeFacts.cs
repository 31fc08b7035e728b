using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Inspection;

public enum VolumePlatform
{
    Linux,
    Windows,
}

/// <summary>
/// What a platform probe found out about the volume under a path, before any judgement: the volume as the
/// results describe it, and what only the probe and the rules need. Unknowns stay null; <see cref="VolumeRules"/>
/// turns facts into findings.
/// </summary>
public sealed class VolumeFacts
{
    /// <summary>
    /// The volume as the results file reports it, filled in by the probe (one field list for both). Until
    /// <see cref="VolumeRules.ToReport"/>, its ClusterSizeBytes is only an authoritative allocation unit
    /// (NTFS boot sector / FSCTL, GetDiskFreeSpace), never the file system's block size.
    /// </summary>
    public VolumeReport Volume { get; } = new();
    public VolumePlatform Platform { get; set; }
    /// <summary>The existing, symlink-free path actually examined (the nearest existing ancestor).</summary>
    public string? ProbedPath { get; set; }
    public string? MountSource { get; set; }
    public string? ClusterSizeSource { get; set; }
    /// <summary>statvfs f_frsize on Linux: the file system's block size (not an NTFS cluster under FUSE).</summary>
    public long? FileSystemBlockBytes { get; set; }
    public string? DirectIoDetail { get; set; }
    public int MultipathUnhealthyPaths { get; set; }
    /// <summary>What compresses the data written here ("NTFS compression on E:\\DB1", "btrfs mount option compress=zstd:3"); null: none seen.</summary>
    public string? Compression { get; set; }
    /// <summary>ReFS integrity streams on the folder or its database files (new files inherit the folder's); null: none seen.</summary>
    public string? IntegrityStreams { get; set; }
    /// <summary>Per-file encryption (EFS) on the folder; null: none seen. Volume encryption is <see cref="VolumeEncryption"/>.</summary>
    public string? FileEncryption { get; set; }
    /// <summary>Deduplication of the volume or its files; null: none seen.</summary>
    public string? Deduplication { get; set; }
    /// <summary>Whole-volume encryption (BitLocker, dm-crypt): supported, reported.</summary>
    public string? VolumeEncryption { get; set; }
    public WriteCacheFacts? WriteCache { get; set; }
    /// <summary>Things the probe could not find out, reported as Info findings.</summary>
    public List<string> Notes { get; set; } = new();
}

/// <summary>
/// The device's write cache: whether it is on, whether it can be flushed (the OS's flush and write-through reach
/// the media), whether it is protected against power loss; null where the device did not say.
/// </summary>
public sealed record WriteCacheFacts(bool? Enabled, bool? Flushable, bool? PowerProtected, string Source);
