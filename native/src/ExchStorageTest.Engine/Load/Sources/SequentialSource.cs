using ExchStorageTest.Engine.Io;

namespace ExchStorageTest.Engine.Load.Sources;

/// <summary>
/// Sequential reads or writes through a file region, wrapping at its end (log appends, maintenance
/// scans, backup reads, large sequential transfers).
/// </summary>
public sealed class SequentialSource : IIoSource
{
    private readonly int _fileIndex;
    private readonly int _streamId;
    private readonly IoOperation _operation;
    private readonly int _blockSize;
    private readonly long _regionStart;
    private readonly long _regionEnd;
    private long _next;
    private ulong _state;

    public SequentialSource(int fileIndex, long regionStart, long regionLength, int blockSize, IoOperation operation, int streamId, ulong seed = 0x9E3779B97F4A7C15)
    {
        if (blockSize <= 0 || blockSize % 512 != 0) throw new ArgumentOutOfRangeException(nameof(blockSize), blockSize, "Block size must be a positive multiple of 512.");
        if (regionLength < blockSize) throw new ArgumentOutOfRangeException(nameof(regionLength), regionLength, "The region must hold at least one block.");
        _fileIndex = fileIndex;
        _regionStart = regionStart;
        _regionEnd = regionStart + regionLength / blockSize * blockSize;
        _next = regionStart;
        _blockSize = blockSize;
        _operation = operation;
        _streamId = streamId;
        _state = seed | 1;
    }

    public int MaxLength => _blockSize;

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        if (_next >= _regionEnd) _next = _regionStart;
        plan.FileIndex = _fileIndex;
        plan.Offset = _next;
        plan.Length = _blockSize;
        plan.Operation = _operation;
        plan.StreamId = _streamId;
        _next += _blockSize;
        if (_operation == IoOperation.Write) WriteContent.Stamp(buffer[.._blockSize], plan.Offset, ref _state);
        return true;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer) { }
}
