using ExchStorageTest.Engine.Io;

namespace ExchStorageTest.Engine.Load.Sources;

/// <summary>
/// Random aligned blocks within a file region, reads and writes mixed by a read percentage
/// (e.g. 32 KiB random at 64% read). Reads and writes count toward their own stream ids.
/// </summary>
public sealed class RandomBlockSource : IIoSource
{
    private readonly int _fileIndex;
    private readonly int _readStreamId;
    private readonly int _writeStreamId;
    private readonly int _blockSize;
    private readonly long _regionStart;
    private readonly long _blocks;
    private readonly int _readPercent;
    private ulong _state;

    public RandomBlockSource(int fileIndex, long regionStart, long regionLength, int blockSize, int readPercent,
        int readStreamId, int writeStreamId, ulong seed)
    {
        if (blockSize <= 0 || blockSize % 512 != 0) throw new ArgumentOutOfRangeException(nameof(blockSize), blockSize, "Block size must be a positive multiple of 512.");
        if (regionLength < blockSize) throw new ArgumentOutOfRangeException(nameof(regionLength), regionLength, "The region must hold at least one block.");
        if (readPercent is < 0 or > 100) throw new ArgumentOutOfRangeException(nameof(readPercent), readPercent, "Read percentage must be 0..100.");
        _fileIndex = fileIndex;
        _regionStart = regionStart;
        _blocks = regionLength / blockSize;
        _blockSize = blockSize;
        _readPercent = readPercent;
        _readStreamId = readStreamId;
        _writeStreamId = writeStreamId;
        _state = seed | 1;
    }

    public int MaxLength => _blockSize;

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        ulong r = WriteContent.Next(ref _state);
        bool read = (int)(r % 100) < _readPercent;
        long block = (long)((r >> 8) % (ulong)_blocks);
        plan.FileIndex = _fileIndex;
        plan.Offset = _regionStart + block * _blockSize;
        plan.Length = _blockSize;
        plan.Operation = read ? IoOperation.Read : IoOperation.Write;
        plan.StreamId = read ? _readStreamId : _writeStreamId;
        if (!read) WriteContent.Stamp(buffer[.._blockSize], plan.Offset, ref _state);
        return true;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer) { }
}
