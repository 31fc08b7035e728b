using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// One passive copy pulling the log (log replication reads): it follows the instance's log writer
/// and reads what was written in sequential pieces of about a fifth of a log file (~200 KB, as
/// Jetstress's 204-212 KB averages), one piece as soon as that much is there, and the rest of a
/// generation when the writer has moved on. So the copy reads the log it generates, at the rate it
/// is generated (bytes read ~ bytes written). When it falls more than the circular log behind, it
/// skips to the oldest generation still kept.
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
        _offset = workload.NeedLogHeader ? LogFormat.FileHeaderBytes : workload.LogOffset; // starts at the log's end: nothing is owed yet
    }

    public int MaxLength { get; }

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        long oldest = Math.Max(1, _w.Generation - _w.LogFileIndexes.Length + 2);
        if (_generation < oldest) { _generation = oldest; _offset = LogFormat.FileHeaderBytes; }
        int length;
        if (_generation >= _w.Generation)
        {
            // The generation being written: only whole pieces, so reads keep their size.
            _generation = _w.Generation;
            int written = _w.NeedLogHeader ? LogFormat.FileHeaderBytes : _w.LogOffset;
            if (written - _offset < MaxLength) return false;
            length = MaxLength;
        }
        else
        {
            // A closed generation: what is left of it (the writer stopped where the next block did not fit).
            length = Math.Min(MaxLength, ClosedEnd() - _offset);
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

    /// <summary>Where the writer left a closed generation: the copy does not read its unused tail.</summary>
    private int ClosedEnd() => _generation == _w.Generation - 1 ? _w.LastClosedLogEnd : LogFormat.FileSize;

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer) { }
}
