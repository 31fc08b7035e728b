namespace ExchStorageTest.Engine.Io;

/// <summary>
/// One optimisation a backend tries beyond its plain path (registered buffers, skipping the completion
/// port on inline success, ...): whether this backend uses it, and if not, why. Results carry them in
/// the engine section (<c>engine.ioFeatures[]</c>), so a figure is never read without knowing how it was
/// reached.
/// </summary>
public readonly record struct IoFeature(string Name, bool Used, string? Reason)
{
    public static IoFeature On(string name) => new(name, true, null);
    public static IoFeature Off(string name, string reason) => new(name, false, reason);
}

/// <summary>The names of <see cref="IoFeature"/>s, as they appear in the results.</summary>
public static class IoFeatureNames
{
    /// <summary>io_uring: the worker's buffers pinned once (IORING_REGISTER_BUFFERS), I/O as READ_FIXED/WRITE_FIXED.</summary>
    public const string RegisteredBuffers = "registeredBuffers";
    /// <summary>io_uring: the test files registered once (IORING_REGISTER_FILES), I/O with IOSQE_FIXED_FILE.</summary>
    public const string RegisteredFiles = "registeredFiles";
    /// <summary>IOCP: FILE_SKIP_COMPLETION_PORT_ON_SUCCESS; an I/O finished inline is completed without a port packet.</summary>
    public const string SkipCompletionPortOnSuccess = "skipCompletionPortOnSuccess";
    /// <summary>IOCP: SetFileIoOverlappedRange over the preallocated OVERLAPPEDs (needs SeLockMemoryPrivilege).</summary>
    public const string OverlappedRange = "overlappedRange";
}
