namespace ExchStorageTest.Engine.Inspection;

/// <summary>Stable finding codes (Test-StorageVolume output; scripts key on them).</summary>
public static class FindingCodes
{
    public const string ClusterSize = "ClusterSizeNot64K";
    public const string ClusterSizeUnknown = "ClusterSizeUnknown";
    public const string FileSystemNotSupported = "FileSystemNotSupported";
    public const string FileSystemNotExchange = "FileSystemNotExchange";
    public const string FileSystemUnknown = "FileSystemUnknown";
    public const string MemoryFileSystem = "MemoryFileSystem";
    public const string PartitionMisaligned = "PartitionMisaligned";
    public const string PartitionOffsetUnknown = "PartitionOffsetUnknown";
    public const string InsufficientFreeSpace = "InsufficientFreeSpace";
    public const string FreeSpaceUnknown = "FreeSpaceUnknown";
    public const string VolumeUtilisation = "VolumeUtilisation";
    public const string TestFilesFitInCache = "TestFilesFitInArrayCache";
    public const string DirectIoUnsupported = "DirectIoUnsupported";
    public const string DirectIoNotProbed = "DirectIoNotProbed";
    public const string MultipathDegraded = "MultipathDegraded";
    public const string MultipathSinglePath = "MultipathSinglePath";
    public const string ProbeNote = "ProbeNote";
    // The platform that decides support (SupportRules, LayoutRules, HostRules).
    public const string IntegrityStreams = "IntegrityStreamsEnabled";
    public const string Compression = "CompressionEnabled";
    public const string FileEncryption = "FileEncryptionEnabled";
    public const string Deduplication = "DeduplicationEnabled";
    public const string VolumeEncryption = "VolumeEncrypted";
    public const string WriteCacheNotFlushable = "WriteCacheNotFlushable";
    public const string WriteCacheEnabled = "WriteCacheEnabled";
    public const string MixedSectorFormats = "MixedSectorFormats";
    public const string Virtualised = "Virtualised";
    public const string SocketsAboveGuidance = "SocketsAboveGuidance";
    public const string ProcessorsAboveGuidance = "ProcessorsAboveGuidance";
    public const string PowerPolicyNotFullSpeed = "PowerPolicyNotFullSpeed";
    public const string DefragScheduled = "DefragScheduled";
}

/// <summary>Finding severities (strings in the results model).</summary>
public static class Severities
{
    public const string Info = "Info";
    public const string Warning = "Warning";
    public const string Error = "Error";
}
