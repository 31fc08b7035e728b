namespace ExchStorageTest.Engine.Io;

/// <summary>
/// Chooses the I/O backend for a worker at run time. Preference order is the platform's best
/// (io_uring / IOCP) with fallbacks; the chosen backend's name goes into every result.
/// </summary>
public static class IoBackendFactory
{
    /// <summary>Creates a backend for one worker thread with up to <paramref name="depth"/> I/Os in flight.</summary>
    public static IIoBackend Create(int depth, string? preferred = null)
    {
        // The synchronous backend is always available; asynchronous backends are added by the engine work.
        return new SyncBackend(depth);
    }
}
