namespace ExchStorageTest.Engine.Inspection;

/// <summary>What the planned run needs from a volume.</summary>
public sealed class VolumeCheckOptions
{
    /// <summary>Bytes the run will write here (databases and logs); 0 when unknown.</summary>
    public long PlannedBytes { get; set; }
    /// <summary>The storage array's cache size when the user knows it; null skips the cache rule.</summary>
    public long? ArrayCacheBytes { get; set; }
    /// <summary>Create and delete a small probe file to test unbuffered I/O.</summary>
    public bool ProbeDirectIo { get; set; } = true;
    /// <summary>
    /// The caller's run already opened its files here unbuffered (O_DIRECT / FILE_FLAG_NO_BUFFERING):
    /// direct I/O is then a fact of the run, recorded as supported, and no probe is needed.
    /// </summary>
    public bool DirectIoInUse { get; set; }
}
