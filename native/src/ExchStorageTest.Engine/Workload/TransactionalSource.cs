using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// The transactional load of one instance: sessions (Jetstress threads) run transactions of the
/// operation mix against the cache model. A miss is a 32 KiB page read the session waits for; a
/// non-lazy commit waits for the log write that carries it (group commit: one log write in flight,
/// commits arriving meanwhile ride the next one); the scavenger's dirty-page writes (single or
/// coalesced 2-page) run in the background. Every read is verified (identity and page checksum, `PageFormat.Verify`).
/// Paced (see <see cref="SessionPacer"/>), a session thinks before each transaction until the
/// instance's schedule allows it. Inserts grow the database by new pages (written, never read
/// first). A clean shutdown (<see cref="BeginShutdown"/>) ends the transactions, writes the log and
/// every new page, as ESE does before it detaches a database.
/// No allocation per call: runs in the I/O loop on the instance's worker thread.
/// </summary>
public sealed class TransactionalSource : ITimedSource
{
    private const long KindRead = 0, KindFlush = 1, KindLogBlock = 2, KindLogHeader = 3, KindLogRead = 4;
    private const byte Ready = 0, WaitRead = 1, WaitLog = 2, Stalled = 3, Thinking = 4, Parked = 5;

    private readonly InstanceWorkload _w;
    private readonly WorkloadShape _shape;
    private readonly int _sessions;
    private readonly bool _grow;
    private readonly byte[] _state;
    private readonly int[] _opsLeft;
    private readonly bool[] _modified;
    private readonly int[] _touchPage;     // page of the current touch, -1 = op not generated
    private readonly bool[] _touchModify;
    private readonly bool[] _touchNew;     // the touch is a page the database grows by
    private readonly int[] _secondPage;     // a second touch of the same op (-1 = none)
    private readonly int[] _opLogBytes;
    private readonly SessionQueue _ready;
    private readonly SessionQueue _thinking;
    private readonly int[] _stalled;
    private readonly long[] _stalledSince; // per session: when its page fault stalled (Stopwatch ticks)
    private int _stalledCount;
    private readonly FlushSizing _flushSizing;
    private readonly long _quickFlushWriteTicks;
    private readonly int _urgentFlushLimit;
    private readonly int[] _waitNext;
    private int _waitNextCount;
    private readonly int[] _waitInFlight;
    private int _waitInFlightCount;
    private readonly long _lazyFlushTicks;
    private readonly long _logReadIntervalTicks;
    private long _nextLogRead;
    private readonly int _opsUniformMost, _opsLongerPerMille;
    private int _flushesInFlight;
    private int _readsInFlight;
    private int _parkedCount;
    private volatile bool _shutdownRequested;
    private volatile bool _shutdownComplete;

    /// <summary>Sessions for <paramref name="workload"/>; <paramref name="grow"/>: inserts grow the database file (not in soft recovery, whose replay reads every page a log names).</summary>
    public TransactionalSource(InstanceWorkload workload, int sessions, WorkloadShape shape, bool grow = false)
    {
        if (sessions < 1) throw new ArgumentOutOfRangeException(nameof(sessions));
        _w = workload;
        _shape = shape;
        _sessions = sessions;
        _grow = grow;
        _state = new byte[sessions];
        _opsLeft = new int[sessions];
        _modified = new bool[sessions];
        _touchPage = new int[sessions];
        _touchModify = new bool[sessions];
        _touchNew = new bool[sessions];
        _secondPage = new int[sessions];
        _opLogBytes = new int[sessions];
        _ready = new SessionQueue(sessions);
        _thinking = new SessionQueue(sessions);
        _stalled = new int[sessions];
        _stalledSince = new long[sessions];
        _flushSizing = new FlushSizing(workload.Cache);
        _quickFlushWriteTicks = (long)(shape.QuickFlushWriteMs * System.Diagnostics.Stopwatch.Frequency / 1000);
        _urgentFlushLimit = Math.Max(shape.MaxFlushesInFlight, shape.UrgentFlushesInFlight);
        _waitNext = new int[sessions];
        _waitInFlight = new int[sessions];
        for (int s = 0; s < sessions; s++)
        {
            _touchPage[s] = -1;
            _secondPage[s] = -1;
            _ready.Push(s);
        }
        long frequency = System.Diagnostics.Stopwatch.Frequency;
        _lazyFlushTicks = frequency * shape.LazyFlushMilliseconds / 1000;
        _logReadIntervalTicks = shape.TransactionalLogReadsPerSecond > 0 ? (long)(frequency / shape.TransactionalLogReadsPerSecond) : 0;
        MaxLength = Math.Max(2 * PageFormat.PageSize, shape.MaxLogWriteBytes);
        // Mean m of a mix of uniform 1..n and 1..n+1: n = floor(2m - 1), share of the longer p = 2m - 1 - n.
        double spread = Math.Max(1, 2 * shape.MeanOperationsPerTransaction - 1);
        _opsUniformMost = (int)spread;
        _opsLongerPerMille = (int)Math.Round((spread - _opsUniformMost) * 1000);
    }

    /// <summary>Sessions this source runs against its database (the results record it per instance).</summary>
    public int Sessions => _sessions;

    /// <summary>Slots the driver must give this stream: sessions + flushes + the log writer + the log reader.</summary>
    public int Depth => _sessions + _urgentFlushLimit + 2;
    public int MaxLength { get; }
    /// <summary>The think time of these sessions (the run thread sets its rate).</summary>
    public SessionPacer Pacer { get; } = new();

    /// <summary>Ends the transactions: sessions finish the one they are in, then the log and every new page are written.</summary>
    public void BeginShutdown() => _shutdownRequested = true;

    /// <summary>True once a shutdown has written the log and every page the database grew by.</summary>
    public bool ShutdownComplete => _shutdownComplete;

    public long WakeTicks
    {
        get
        {
            if (_ready.Count > 0) return 0; // yielded with sessions ready (everything hit the cache)
            long wake = long.MaxValue;
            if (_thinking.Count > 0) wake = Pacer.Paced ? Pacer.NextStart : 0;
            if ((_w.PendingLogBytes > 0 || _w.PendingPageCount > 0) && !_w.LogInFlight && !_w.LogFull) wake = Math.Min(wake, _w.LastLogWriteTicks + _lazyFlushTicks);
            if (_logReadIntervalTicks > 0 && _w.LogReadStream >= 0) wake = Math.Min(wake, _nextLogRead);
            return wake;
        }
    }

    public bool TryNext(ref IoPlan plan, Span<byte> buffer)
    {
        if (_shutdownRequested) return TryShutdown(ref plan, buffer);
        long now = System.Diagnostics.Stopwatch.GetTimestamp();
        Pacer.Refresh(now);
        _flushSizing.Update(now, _flushesInFlight, _w);
        if (TryLogRead(ref plan, now)) return true;
        if (TryLogWrite(ref plan, buffer, now)) return true;
        if (TryFlush(ref plan, buffer)) return true;
        WakeStalled();
        // One thinking session at a time: the one woken starts I/O, which moves the schedule on
        // before the next is considered (the worker asks again at once while this returns true).
        if (_thinking.Count > 0 && Pacer.MayStart(now)) WakeOneThinking(now);
        if (RunReadySessions(ref plan)) return true;
        // The sessions just run may now wait for a log write (a non-lazy commit) or for the
        // scavenger (a stall): start that I/O now. Returning without it left a session waiting on
        // an I/O nobody had started until the worker next polled this source, which it does only
        // after some other completion or a paced arrival: one session per database spent ~80% of
        // its time there, and the first extra session hid it (a ~10x jump from 1 to 2 sessions).
        return TryLogWrite(ref plan, buffer, now) || TryFlush(ref plan, buffer);
    }

    /// <summary>
    /// Sessions that stalled for want of a buffer go on once the scavenger has freed one; how long each
    /// waited is kept (<see cref="InstanceWorkload.StallWaitTicks"/>): the evidence that tells a flush that
    /// fell behind on a busy host from writes the storage was slow to finish.
    /// </summary>
    private void WakeStalled()
    {
        if (_stalledCount == 0 || _w.Cache.Available == 0) return;
        long now = System.Diagnostics.Stopwatch.GetTimestamp();
        for (int i = 0; i < _stalledCount; i++)
        {
            int s = _stalled[i];
            _w.StallWaitTicks += now - _stalledSince[s];
            _w.StallsEnded++;
            _state[s] = Ready;
            _ready.Push(s);
        }
        _stalledCount = 0;
    }

    /// <summary>Runs ready sessions until one needs a read (true: in <paramref name="plan"/>); bounded, so a fully cached database yields.</summary>
    private bool RunReadySessions(ref IoPlan plan)
    {
        int budget = 4 * _sessions + 16;
        while (_ready.Count > 0 && budget-- > 0)
        {
            if (RunSession(_ready.Pop(), ref plan)) return true;
        }
        return false;
    }

    /// <summary>Advances session <paramref name="s"/> until it needs I/O (true: a read in <paramref name="plan"/>) or blocks/yields.</summary>
    private bool RunSession(int s, ref IoPlan plan)
    {
        for (int guard = 0; guard < 64; guard++)
        {
            if (_touchPage[s] < 0)
            {
                if (_opsLeft[s] == 0)
                {
                    if (_modified[s] && Commit(s)) return false; // waits for the log
                    if (_shutdownRequested) { Park(s); return false; }
                    if (Pacer.Paced && !Pacer.MayStart(System.Diagnostics.Stopwatch.GetTimestamp())) { Think(s); return false; }
                    _opsLeft[s] = OperationsInTransaction();
                    _modified[s] = false;
                }
                NewOperation(s);
            }
            int slot;
            var access = _touchNew[s] ? _w.Cache.AccessNew(_touchPage[s], out slot) : _w.Cache.Access(_touchPage[s], _touchModify[s], out slot);
            if (access == CacheAccess.Stall)
            {
                _state[s] = Stalled;
                _stalledSince[s] = System.Diagnostics.Stopwatch.GetTimestamp();
                _stalled[_stalledCount++] = s;
                return false;
            }
            if (access == CacheAccess.Miss)
            {
                _state[s] = WaitRead;
                Pacer.Charge();
                _readsInFlight++;
                _w.DatabaseReadsIssued++;
                plan.StreamId = _w.DatabaseReadStream;
                plan.FileIndex = _w.DatabaseFileIndex;
                plan.Operation = IoOperation.Read;
                plan.Offset = (long)_touchPage[s] * PageFormat.PageSize;
                plan.Length = PageFormat.PageSize;
                plan.Tag = (KindRead << 60) | ((long)s << 30) | (uint)slot;
                return true;
            }
            TouchDone(s);
        }
        _ready.Push(s); // yield: everything hit the cache
        return false;
    }

    /// <summary>Uniform in 1..n (or 1..n+1 for the share that makes the mean <see cref="WorkloadShape.MeanOperationsPerTransaction"/>).</summary>
    private int OperationsInTransaction()
    {
        int most = _opsUniformMost + ((int)(_w.Next() % 1000) < _opsLongerPerMille ? 1 : 0);
        return 1 + (int)(_w.Next() % (ulong)most);
    }

    private void NewOperation(int s)
    {
        int roll = (int)(_w.Next() % 100);
        long pages = _w.PageCount;
        int page = 1 + (int)(_w.Next() % (ulong)(pages - 1));
        _secondPage[s] = -1;
        _touchNew[s] = false;
        if (roll < _shape.InsertPercent)
        {
            if (_grow && _w.Room.UnderLimit(_w.NextNewPage) && ++_w.NetRecords >= _shape.RecordsPerNewPage && _w.Room.Allows(_w.NextNewPage))
            {
                // Records inserted and not deleted fill a new page: the database grows by it, into the room its file
                // was extended by (without room yet, this insert goes to an existing page and the next ones catch up).
                _w.NetRecords -= _shape.RecordsPerNewPage;
                page = (int)_w.NextNewPage++;
                _touchNew[s] = true;
            }
            else if ((int)(_w.Next() % 100) < _shape.AppendInsertPercent)
            {
                if (++_w.AppendRecords >= _shape.RecordsPerAppendPage)
                {
                    _w.AppendRecords = 0;
                    _w.AppendCursor = _w.AppendCursor + 1 >= pages ? 1 : _w.AppendCursor + 1;
                }
                page = (int)_w.AppendCursor;
            }
            Set(s, page, true, _shape.InsertLogBytes);
        }
        else if (roll < _shape.InsertPercent + _shape.DeletePercent)
        {
            if (_grow && _w.Room.UnderLimit(_w.NextNewPage)) _w.NetRecords--;
            Set(s, page, true, _shape.DeleteLogBytes);
        }
        else if (roll < _shape.InsertPercent + _shape.DeletePercent + _shape.ReplacePercent) Set(s, page, true, _shape.ReplaceLogBytes);
        else
        {
            Set(s, page, false, 0);
            if ((int)(_w.Next() % 100) < _shape.LongValueReadPercent) _secondPage[s] = 1 + (int)(_w.Next() % (ulong)(pages - 1));
        }
    }

    private void Set(int s, int page, bool modify, int logBytes)
    {
        _touchPage[s] = page;
        _touchModify[s] = modify;
        _opLogBytes[s] = logBytes;
    }

    /// <summary>The current touch is satisfied: move to the second page of the op, or finish the op.</summary>
    private void TouchDone(int s)
    {
        if (_touchModify[s])
        {
            _modified[s] = true;
            _w.PendingLogBytes += _opLogBytes[s];
            if (_w.PendingPageCount < _w.PendingPages.Length) _w.PendingPages[_w.PendingPageCount++] = _touchPage[s];
        }
        _touchNew[s] = false;
        if (_secondPage[s] >= 0)
        {
            _touchPage[s] = _secondPage[s];
            _touchModify[s] = false;
            _opLogBytes[s] = 0;
            _secondPage[s] = -1;
            return;
        }
        _touchPage[s] = -1;
        _opsLeft[s]--;
    }

    /// <summary>Commits the session's transaction; true when it must wait for the log write (non-lazy).</summary>
    private bool Commit(int s)
    {
        _modified[s] = false;
        _w.Transactions++;
        _w.PendingLogBytes += _shape.CommitLogBytes;
        if ((int)(_w.Next() % 100) < _shape.LazyCommitPercent) return false;
        _state[s] = WaitLog;
        _waitNext[_waitNextCount++] = s;
        _opsLeft[s] = 0;
        return true;
    }

    /// <summary>
    /// The transactional log reads seen in Jetstress's counters (~0.15/s of ~4 KB per instance in one
    /// published report, none in another): the current log file's header, on a clock.
    /// </summary>
    private bool TryLogRead(ref IoPlan plan, long now)
    {
        if (_logReadIntervalTicks == 0 || _w.LogReadStream < 0) return false;
        if (_nextLogRead == 0) _nextLogRead = now + _logReadIntervalTicks / 2;
        if (now < _nextLogRead) return false;
        _nextLogRead = Math.Max(_nextLogRead + _logReadIntervalTicks, now - _logReadIntervalTicks);
        plan.StreamId = _w.LogReadStream;
        plan.FileIndex = _w.LogSlot(_w.Generation);
        plan.Operation = IoOperation.Read;
        plan.Offset = 0;
        plan.Length = _shape.TransactionalLogReadBytes;
        plan.Tag = KindLogRead << 60;
        return true;
    }

    private bool TryLogWrite(ref IoPlan plan, Span<byte> buffer, long now)
    {
        if (_w.LogInFlight) return false;
        bool pending = _w.PendingLogBytes > 0 || _w.PendingPageCount > 0;
        bool due = _waitNextCount > 0 || _w.PendingLogBytes >= _shape.LazyFlushBytes
            || (pending && (now - _w.LastLogWriteTicks > _lazyFlushTicks || _shutdownRequested));
        if (!due && !_w.NeedLogHeader) return false;
        if (!due && _w.NeedLogHeader && _w.PendingLogBytes == 0) return false;
        plan.StreamId = _w.LogWriteStream;
        plan.Operation = IoOperation.Write;
        if (_w.NeedLogHeader)
        {
            LogFormat.WriteFileHeader(buffer, _w.Index, _w.InstanceId, _w.Generation, DateTime.UtcNow);
            plan.FileIndex = _w.LogSlot(_w.Generation);
            plan.Offset = 0;
            plan.Length = LogFormat.Sector;
            plan.Tag = KindLogHeader << 60;
            _w.NeedLogHeader = false;
            _w.LogOffset = LogFormat.FileHeaderBytes;
            _w.BlockSequence = 0;
            _w.LogInFlight = true;
            return true;
        }
        int records = _w.PendingPageCount;
        long wanted = LogFormat.BlockHeaderBytes + 4L * records + _w.PendingLogBytes;
        int length = (int)Math.Min(_shape.MaxLogWriteBytes, (wanted + LogFormat.Sector - 1) / LogFormat.Sector * LogFormat.Sector);
        length = Math.Max(length, LogFormat.Sector);
        if (_w.LogOffset + length > LogFormat.FileSize)
        {
            // The generation is full: roll to the next one (its header is the next log write).
            if (_w.Generation >= _w.GenerationLimit) { _w.LogFull = true; return false; }
            _w.LastClosedLogEnd = _w.LogOffset;
            _w.Generation++;
            _w.NeedLogHeader = true;
            return TryLogWrite(ref plan, buffer, now);
        }
        records = Math.Min(records, LogFormat.MaxRecords(length));
        LogFormat.WriteBlock(buffer, length, _w.BlockSequence, _w.Generation, _w.InstanceId, _w.PendingPages.AsSpan(0, records));
        long carried = length - LogFormat.BlockHeaderBytes - 4L * records;
        _w.PendingLogBytes = Math.Max(0, _w.PendingLogBytes - carried);
        if (records < _w.PendingPageCount) Array.Copy(_w.PendingPages, records, _w.PendingPages, 0, _w.PendingPageCount - records);
        _w.PendingPageCount -= records;
        plan.FileIndex = _w.LogSlot(_w.Generation);
        plan.Offset = _w.LogOffset;
        plan.Length = length;
        plan.Tag = KindLogBlock << 60;
        _w.LogOffset += length;
        _w.LogBytesWritten += length;
        _w.BlockSequence++;
        _w.LogInFlight = true;
        _w.LastLogWriteTicks = now;
        for (int i = 0; i < _waitNextCount; i++) _waitInFlight[_waitInFlightCount++] = _waitNext[i];
        _waitNextCount = 0;
        return true;
    }

    /// <summary>
    /// The dirty-page writes the scavenger may have in flight now: the urgent limit while the pool is below its start
    /// threshold on storage that writes quickly, the usual one otherwise (<see cref="WorkloadShape.UrgentFlushesInFlight"/>).
    /// </summary>
    private int FlushLimit =>
        _w.Cache.Available < _w.Cache.StartThreshold && _flushSizing.WritesAverageAtMost(_quickFlushWriteTicks)
            ? _urgentFlushLimit
            : _shape.MaxFlushesInFlight;

    private bool TryFlush(ref IoPlan plan, Span<byte> buffer)
    {
        if (!_w.Cache.WantsScavenge) return false;
        if (_flushesInFlight >= FlushLimit) { _w.Cache.EvictClean(); return false; }
        if (!_w.Cache.NextFlush(out int first, out int pages, out int slot1, out int slot2)) return false;
        Pacer.Charge();
        PlanFlush(ref plan, buffer, first, pages, slot1, slot2);
        return true;
    }

    private void PlanFlush(ref IoPlan plan, Span<byte> buffer, int first, int pages, int slot1, int slot2)
    {
        PageFormat.StampRun(buffer.Slice(0, pages * PageFormat.PageSize), first, _w.Content, _w.WriteGeneration + 1, 1);
        _flushSizing.FlushIssued(slot1, System.Diagnostics.Stopwatch.GetTimestamp());
        _w.WriteGeneration += pages;
        _w.DatabaseWritesIssued++;
        _w.DatabaseWriteBytesIssued += pages * PageFormat.PageSize;
        plan.StreamId = _w.DatabaseWriteStream;
        plan.FileIndex = _w.DatabaseFileIndex;
        plan.Operation = IoOperation.Write;
        plan.Offset = (long)first * PageFormat.PageSize;
        plan.Length = pages * PageFormat.PageSize;
        plan.Tag = (KindFlush << 60) | ((long)(slot2 + 1) << 30) | (uint)slot1;
        _flushesInFlight++;
    }

    /// <summary>
    /// Shutdown turn: sessions finish their transaction (reads, commits) and park; the log is
    /// written out and so is every page the database grew by, so the file holds each of them.
    /// </summary>
    private bool TryShutdown(ref IoPlan plan, Span<byte> buffer)
    {
        if (_shutdownComplete) return false;
        while (_thinking.Count > 0) Park(_thinking.Pop());
        WakeStalled();
        long now = System.Diagnostics.Stopwatch.GetTimestamp();
        if (TryLogWrite(ref plan, buffer, now) || TryFlush(ref plan, buffer)) return true;
        if (RunReadySessions(ref plan)) return true; // sessions finish the transaction they are in, then park
        if (TryLogWrite(ref plan, buffer, now) || TryFlush(ref plan, buffer)) return true;
        if (_parkedCount < _sessions) return false; // sessions still in a transaction
        int from = (int)_w.PageCount, to = (int)_w.NextNewPage;
        if (_flushesInFlight < _shape.MaxFlushesInFlight && _w.Cache.NextDirtyIn(from, to, out int first, out int pages, out int s1, out int s2))
        {
            PlanFlush(ref plan, buffer, first, pages, s1, s2);
            return true;
        }
        if (_flushesInFlight == 0 && _readsInFlight == 0 && !_w.LogInFlight && _w.PendingLogBytes == 0 && _w.PendingPageCount == 0
            && !_w.Cache.AnyUnwrittenIn(from, to))
            _shutdownComplete = true;
        return false;
    }

    public void Completed(in IoPlan plan, int result, ReadOnlySpan<byte> buffer)
    {
        long kind = plan.Tag >> 60;
        bool ok = result == plan.Length;
        if (kind == KindRead)
        {
            int s = (int)((plan.Tag >> 30) & 0x3FFFFFFF);
            int slot = (int)(plan.Tag & 0x3FFFFFFF);
            _readsInFlight--;
            if (ok)
            {
                var check = PageFormat.Verify(buffer, plan.Offset / PageFormat.PageSize, _w.InstanceId);
                if (!check.Ok) _w.ReportBadPage(check, "database read");
                _w.Cache.ReadCompleted(slot);
            }
            else _w.Cache.ReadFailed(slot);
            TouchDone(s);
            _state[s] = Ready;
            _ready.Push(s);
        }
        else if (kind == KindFlush)
        {
            int slot1 = (int)(plan.Tag & 0x3FFFFFFF);
            int slot2 = (int)((plan.Tag >> 30) & 0x3FFFFFFF) - 1;
            _flushSizing.FlushCompleted(slot1, System.Diagnostics.Stopwatch.GetTimestamp());
            if (ok) { _w.Cache.FlushCompleted(slot1); _w.Cache.FlushCompleted(slot2); }
            else { _w.Cache.FlushFailed(slot1); _w.Cache.FlushFailed(slot2); }
            _flushesInFlight--;
        }
        else if (kind == KindLogRead)
        {
            // The header may be rewritten at any moment by the log writer: not verified.
        }
        else
        {
            _w.LogInFlight = false;
            if (kind == KindLogBlock)
            {
                for (int i = 0; i < _waitInFlightCount; i++)
                {
                    int s = _waitInFlight[i];
                    _state[s] = Ready;
                    _ready.Push(s);
                }
                _waitInFlightCount = 0;
            }
        }
    }

    private void Think(int s)
    {
        _state[s] = Thinking;
        _thinking.Push(s);
    }

    private static readonly long LateWakeTicks = (long)(SessionPacer.LateWakeMilliseconds * System.Diagnostics.Stopwatch.Frequency / 1000);

    /// <summary>Wakes one thinking session; how late against the schedule is the host-limited evidence (<see cref="InstanceWorkload.ThinkLagTicks"/>).</summary>
    private void WakeOneThinking(long now)
    {
        if (Pacer.Paced)
        {
            long lag = Math.Max(0, now - Pacer.NextStart);
            _w.ThinkWakes++;
            _w.ThinkLagTicks += lag;
            if (lag > LateWakeTicks) _w.LateThinkWakes++;
        }
        int s = _thinking.Pop();
        _state[s] = Ready;
        _ready.Push(s);
    }

    private void Park(int s)
    {
        _state[s] = Parked;
        _parkedCount++;
    }
}
