using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// One passive copy beside an active database (docs/load-model.md, "Passive copies on a volume"; the figures are
/// <see cref="PassiveCopyModel"/>'s): it follows what its active database has issued since the source was made — not a
/// planned rate — so a tuning or capacity step that moves the active copy moves its passive copies with it. It owes:
/// <list type="bullet">
/// <item>one copied-log write of <see cref="PassiveCopyModel.CopiedLogWriteBytes"/> for every whole megabyte of log the
/// active has written, sequentially through the copy's own circular log (one generation a write);</item>
/// <item>unless lagged, replay writes (<see cref="PassiveCopyModel.ReplayWrites"/> of the active's reads and writes, of the
/// active's average write size) and replay reads (<see cref="PassiveCopyModel.ReplayReads"/>, one 32 KiB page each), at
/// random pages of the copy's own database file.</item>
/// </list>
/// Each copy is two sources (<see cref="PassiveCopyPart"/>), so each stream's buffers are sized to its own I/O: the copied
/// log, one generation at a time in sequence; the replay, up to <see cref="ReplayDepthFor"/> I/Os in flight. What is owed is
/// issued as soon as the worker asks (replay writes before reads); nothing is owed ahead of the active's I/O. Runs on the
/// active database's worker.
/// </summary>
public sealed class PassiveCopySource : IIoSource
{
    /// <summary>The fewest replay I/Os of one passive copy in flight at once.</summary>
    public const int ReplayDepth = 4;

    /// <summary>The most replay I/Os of one passive copy in flight at once.</summary>
    public const int MaxReplayDepth = 32;

    /// <summary>
    /// Replay I/Os one passive copy may have in flight beside an active database run by <paramref name="sessions"/> sessions:
    /// as many as the sessions (from <see cref="ReplayDepth"/> to <see cref="MaxReplayDepth"/>). Replay owes half the
    /// active's database I/Os; on storage whose latency bounds the load, a copy allowed fewer I/Os in flight than the active
    /// database's sessions would fall behind it and put less than the model on the disk.
    /// </summary>
    public static int ReplayDepthFor(int sessions) => Math.Clamp(sessions, ReplayDepth, MaxReplayDepth);

    /// <summary>Copied-log writes of one passive copy in flight at once: its log is written in sequence.</summary>
    public const int CopiedLogDepth = 1;

    /// <summary>I/Os owed and not yet issued: what the copy is behind its active database (0 when it keeps up).</summary>
    public long Backlog => _part == PassiveCopyPart.CopiedLog
        ? Math.Max(0, LogWritesOwed - _logWritesDone)
        : Math.Max(0, ReplayWritesOwed - _writesDone) + Math.Max(0, ReplayReadsOwed - _readsDone);

    /// <summary>I/Os issued so far.</summary>
    public long Issued => _part == PassiveCopyPart.CopiedLog ? _logWritesDone : _writesDone + _readsDone;

    /// <summary>Pages a replay write may cover at most (the active's scavenger writes runs of a few pages).</summary>
    private const int MaxWritePages = 4;

    private readonly InstanceWorkload _w;
    private readonly PassiveCopyFiles _copy;
    private readonly PassiveCopyPart _part;
    private readonly long _reads0, _writes0, _writeBytes0, _log0;
    private long _readsDone, _writesDone, _writeBytesDone, _logWritesDone;
    private long _generation;
    private long _stampGeneration = 1;

    public PassiveCopySource(InstanceWorkload active, PassiveCopyFiles copy, PassiveCopyPart part)
    {
        if (part == PassiveCopyPart.Replay && copy.Lagged) throw new ArgumentException("A lagged copy replays nothing: it has no replay source.", nameof(part));
        _w = active;
        _copy = copy;
        _part = part;
        (_reads0, _writes0, _writeBytes0, _log0) = (active.DatabaseReadsIssued, active.DatabaseWritesIssued, active.DatabaseWriteBytesIssued, active.LogBytesWritten);
        _generation = 1 + (long)(active.Next() % (ulong)copy.LogFileIndexes.Length);
    }

    public int MaxLength => _part == PassiveCopyPart.CopiedLog ? PassiveCopyModel.CopiedLogWriteBytes : MaxWritePages * PageFormat.PageSize;

    /// <summary>The copied-log writes owed so far: one per whole megabyte the active logged since the source was made.</summary>
    internal long LogWritesOwed => (_w.LogBytesWritten - _log0) / PassiveCopyModel.CopiedLogWriteBytes;

    /// <summary>The replay writes owed so far (0 for a lagged copy).</summary>
    internal long ReplayWritesOwed => _copy.Lagged ? 0 : (long)PassiveCopyModel.ReplayWrites(_w.DatabaseReadsIssued - _reads0, _w.DatabaseWritesIssued - _writes0);

    /// <summary>The replay reads owed so far (0 for a lagged copy).</summary>
    internal long ReplayReadsOwed => _copy.Lagged ? 0 : (long)PassiveCopyModel.ReplayReads(_w.DatabaseReadsIssued - _reads0, _w.DatabaseWritesIssued - _writes0);

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        if (_part == PassiveCopyPart.CopiedLog)
        {
            if (_logWritesDone >= LogWritesOwed) return false;
            CopiedLog(ref plan, buffer);
            return true;
        }
        if (_writesDone < ReplayWritesOwed) { ReplayWrite(ref plan, buffer); return true; }
        if (_readsDone < ReplayReadsOwed) { ReplayRead(ref plan); return true; }
        return false;
    }

    /// <summary>A whole generation of copied log, written at once over the copy's log file (its header first: the file stays ours).</summary>
    private void CopiedLog(ref IoPlan plan, Span<byte> buffer)
    {
        var data = buffer.Slice(0, PassiveCopyModel.CopiedLogWriteBytes);
        Random.Shared.NextBytes(data.Slice(LogFormat.FileHeaderBytes)); // log records do not compress or deduplicate away
        LogFormat.WriteFileHeader(data, _w.Index, _copy.InstanceId, _generation, DateTime.UtcNow);
        plan.StreamId = _w.PassiveLogWriteStream;
        plan.FileIndex = _copy.LogFileIndexes[(int)((_generation - 1) % _copy.LogFileIndexes.Length)];
        plan.Operation = IoOperation.Write;
        plan.Offset = 0;
        plan.Length = PassiveCopyModel.CopiedLogWriteBytes;
        _generation++;
        _logWritesDone++;
    }

    /// <summary>
    /// Replay writing back the pages it modified: a run of pages sized so that the copy's writes average the active's
    /// write size, at a random place in the copy's database (page 0, the header, never).
    /// </summary>
    private void ReplayWrite(ref IoPlan plan, Span<byte> buffer)
    {
        long activeWrites = _w.DatabaseWritesIssued - _writes0;
        double averageBytes = activeWrites > 0 ? (double)(_w.DatabaseWriteBytesIssued - _writeBytes0) / activeWrites : PageFormat.PageSize;
        long behind = (long)(averageBytes * (_writesDone + 1)) - _writeBytesDone;
        int pages = (int)Math.Clamp((behind + PageFormat.PageSize / 2) / PageFormat.PageSize, 1, Math.Min(MaxWritePages, Math.Max(1, _copy.PageCount - 1)));
        long first = 1 + (long)(_w.Next() % (ulong)Math.Max(1, _copy.PageCount - pages));
        PageFormat.StampRun(buffer.Slice(0, pages * PageFormat.PageSize), first, _copy.Content, _stampGeneration, 1);
        _stampGeneration += pages;
        plan.StreamId = _w.PassiveReplayWriteStream;
        plan.FileIndex = _copy.DatabaseFileIndex;
        plan.Operation = IoOperation.Write;
        plan.Offset = first * PageFormat.PageSize;
        plan.Length = pages * PageFormat.PageSize;
        _writesDone++;
        _writeBytesDone += plan.Length;
    }

    /// <summary>Replay reading a page it is about to apply log records to: a random page of the copy's database.</summary>
    private void ReplayRead(ref IoPlan plan)
    {
        long page = 1 + (long)(_w.Next() % (ulong)Math.Max(1, _copy.PageCount - 1));
        plan.StreamId = _w.PassiveReplayReadStream;
        plan.FileIndex = _copy.DatabaseFileIndex;
        plan.Operation = IoOperation.Read;
        plan.Offset = page * PageFormat.PageSize;
        plan.Length = PassiveCopyModel.ReplayReadBytes;
        _readsDone++;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer) { }
}

/// <summary>The two streams of one passive copy: its replay of database pages, and its copied log.</summary>
public enum PassiveCopyPart
{
    /// <summary>Replay reads and writes of the copy's database pages (none for a lagged copy).</summary>
    Replay,
    /// <summary>The copied log, one 1 MiB generation a write.</summary>
    CopiedLog,
}
