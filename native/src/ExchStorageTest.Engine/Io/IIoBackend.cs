namespace ExchStorageTest.Engine.Io;

/// <summary>
/// The one small interface every I/O backend implements. A backend belongs to one worker thread:
/// that thread queues, submits and reaps (io_uring ring or IOCP per worker, no hand-off threads).
/// Nothing here allocates per I/O.
/// </summary>
public interface IIoBackend : IDisposable
{
    /// <summary>Named in every result, e.g. "io_uring", "pread-threads", "sync", "iocp".</summary>
    string Name { get; }

    /// <summary>Most requests that may be in flight at once (queued + submitted, not yet reaped).</summary>
    int Depth { get; }

    /// <summary>Queues one request without entering the kernel; false when <see cref="Depth"/> is reached.</summary>
    bool TryQueue(in IoRequest request);

    /// <summary>Hands every queued request to the OS; returns how many were submitted.</summary>
    int Submit();

    /// <summary>
    /// Copies finished I/Os into <paramref name="completions"/>. Blocks until at least
    /// <paramref name="minComplete"/> are available (0 = never block) or <paramref name="timeoutMs"/> passes.
    /// </summary>
    int Reap(Span<IoCompletion> completions, int minComplete, int timeoutMs = 1000);

    /// <summary>
    /// Names the files requests will carry (a request's <see cref="IoRequest.FileIndex"/> indexes this
    /// list) and the native memory every request's buffer lies in, before the first request. A backend
    /// takes what it can use once here rather than per I/O: io_uring registers the buffers and files
    /// with the kernel; IOCP opens its own handles (a handle belongs to one port for life, so each
    /// worker opens its own, as DiskSpd does). Whatever is refused falls back to the plain path and is
    /// said in <see cref="Features"/>.
    /// </summary>
    void Attach(IReadOnlyList<IoFile> files, AlignedBuffer? buffers) { }

    /// <summary>What this backend does beyond its plain path, and why not where it could not (see <see cref="IoFeature"/>).</summary>
    IReadOnlyList<IoFeature> Features => Array.Empty<IoFeature>();

    /// <summary>
    /// True when <see cref="Submit"/> performs the I/O before returning (the synchronous path).
    /// The driver then submits and reaps one I/O at a time so each latency is timed on its own.
    /// </summary>
    bool CompletesOnSubmit => false;

    /// <summary>
    /// True when <see cref="Reap"/> first hands the OS whatever is queued, in the same system call as its
    /// wait (io_uring: one io_uring_enter submits and waits). A caller may then leave the last request
    /// it queued for the reap that follows instead of calling <see cref="Submit"/> for it; elsewhere
    /// every queued request must be submitted before a blocking reap, or that reap waits for nothing.
    /// </summary>
    bool SubmitsOnReap => false;
}
