namespace ExchStorageTest.Engine.Load;

/// <summary>A failed I/O as the driver saw it (kept off the hot path: only built on failure).</summary>
public readonly record struct IoErrorEvent(DateTime TimeUtc, int StreamId, int FileIndex, long Offset, int Length, int ErrorCode, bool ShortTransfer);
