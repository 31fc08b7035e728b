using ExchStorageTest.Engine.Io;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// What a source wants done next: which file, where, how much, and which measured stream it counts
/// toward. The driver turns it into an <see cref="IoRequest"/> on a preallocated slot.
/// </summary>
public struct IoPlan
{
    /// <summary>Index into the driver's stream table (instance x stream name) for accounting.</summary>
    public int StreamId;
    /// <summary>Index into the driver's file table.</summary>
    public int FileIndex;
    public IoOperation Operation;
    public long Offset;
    public int Length;
    /// <summary>Free for the source (e.g. the page number or log generation the I/O concerns).</summary>
    public long Tag;
}
