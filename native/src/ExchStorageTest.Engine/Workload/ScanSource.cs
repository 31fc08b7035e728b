using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// Sequential large reads of a database file, verifying every page: background database
/// maintenance (wraps around, paced open-loop by the driver) and backup reads (one pass, closed
/// loop, as fast as the storage allows). A page that is resident in the instance's cache model
/// may be mid-write by the flusher, so a mismatch there is counted as a race, not an error.
/// </summary>
public sealed class ScanSource : IIoSource
{
    private readonly InstanceWorkload _w;
    private readonly int _streamId;
    private readonly bool _wrap;
    private readonly bool _useCache;
    private readonly long _fileBytes;
    private long _next;
    private int _inFlight;

    public ScanSource(InstanceWorkload workload, int streamId, int readBytes, bool wrap, bool cacheAware, long startPage = 1)
    {
        _w = workload;
        _streamId = streamId;
        MaxLength = readBytes;
        _wrap = wrap;
        _useCache = cacheAware;
        _fileBytes = workload.PageCount * PageFormat.PageSize;
        _next = Math.Clamp(startPage, 0, workload.PageCount - 1) * PageFormat.PageSize;
    }

    public int MaxLength { get; }
    /// <summary>One pass done (backup) and every read completed.</summary>
    public bool Done => !_wrap && _next >= _fileBytes && _inFlight == 0;
    public long BytesRead { get; private set; }
    public long PagesChecked { get; private set; }
    /// <summary>Stopwatch ticks when the last read of the pass completed.</summary>
    public long FinishedTicks { get; private set; }

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        if (_next >= _fileBytes)
        {
            if (!_wrap) return false;
            _next = PageFormat.PageSize; // page 0 is the header
        }
        int length = (int)Math.Min(MaxLength, _fileBytes - _next);
        plan.StreamId = _streamId;
        plan.FileIndex = _w.DatabaseFileIndex;
        plan.Operation = IoOperation.Read;
        plan.Offset = _next;
        plan.Length = length;
        _next += length;
        _inFlight++;
        return true;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer)
    {
        _inFlight--;
        if (result > 0)
        {
            BytesRead += result;
            long firstPage = plan.Offset / PageFormat.PageSize;
            int pages = result / PageFormat.PageSize;
            for (int i = 0; i < pages; i++)
            {
                long page = firstPage + i;
                if (page == 0) continue;
                PagesChecked++;
                var check = PageFormat.Verify(buffer.Slice(i * PageFormat.PageSize, PageFormat.PageSize), page, _w.InstanceId);
                if (check.Ok) continue;
                if (_useCache && _w.Cache.IsResident((int)page)) _w.ChecksumRaces++;
                else _w.ReportBadPage(check, _wrap ? "maintenance read" : "backup read");
            }
        }
        if (!_wrap && _next >= _fileBytes && _inFlight == 0) FinishedTicks = System.Diagnostics.Stopwatch.GetTimestamp();
    }
}
