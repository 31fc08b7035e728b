using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// A passive copy pulling the log (log replication reads): sequential ~200 KB reads that follow
/// the instance's log writer, paced open-loop by the driver at ~0.5 reads/s per extra copy. When
/// the copy falls more than the circular log behind, it skips to the oldest generation still kept.
/// </summary>
public sealed class ReplicationSource : IIoSource
{
    private readonly InstanceWorkload _w;
    private long _generation;
    private int _offset;

    public ReplicationSource(InstanceWorkload workload, int readBytes)
    {
        _w = workload;
        MaxLength = readBytes;
        _generation = workload.Generation;
        _offset = LogFormat.FileHeaderBytes;
    }

    public int MaxLength { get; }

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        long oldest = Math.Max(1, _w.Generation - _w.LogFileIndexes.Length + 2);
        if (_generation < oldest) { _generation = oldest; _offset = LogFormat.FileHeaderBytes; }
        int length;
        if (_generation >= _w.Generation)
        {
            _generation = _w.Generation;
            int written = _w.NeedLogHeader ? LogFormat.FileHeaderBytes : _w.LogOffset;
            length = Math.Min(MaxLength, written - _offset);
            if (length <= 0) return false;
        }
        else
        {
            length = Math.Min(MaxLength, LogFormat.FileSize - _offset);
            if (length <= 0)
            {
                _generation++;
                _offset = LogFormat.FileHeaderBytes;
                return TryNext(ref plan, buffer);
            }
        }
        plan.StreamId = _w.ReplicationStream;
        plan.FileIndex = _w.LogSlot(_generation);
        plan.Operation = IoOperation.Read;
        plan.Offset = _offset;
        plan.Length = length;
        _offset += length;
        return true;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer) { }
}
