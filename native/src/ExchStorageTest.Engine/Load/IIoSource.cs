namespace ExchStorageTest.Engine.Load;

/// <summary>
/// Produces the I/O of one load stream (random pages, log appends, a sequential scan, a cache model).
/// Called only from the worker thread that owns the stream, so sources need no locks. Must not
/// allocate per call: it runs in the I/O loop.
/// </summary>
public interface IIoSource
{
    /// <summary>Largest request this source issues; sizes the stream's preallocated buffers.</summary>
    int MaxLength { get; }

    /// <summary>
    /// Fills <paramref name="plan"/> for the next I/O and, for writes, the content in <paramref name="buffer"/>.
    /// Returns false when nothing is due now (the driver asks again on its next turn).
    /// </summary>
    bool TryNext(ref IoPlan plan, Span<byte> buffer);

    /// <summary>Called when the I/O finished; <paramref name="result"/> is bytes or a negated OS error.</summary>
    void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer);
}
