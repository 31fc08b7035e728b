namespace ExchStorageTest.Engine.Workload;

/// <summary>Outcome of touching a page in the cache model.</summary>
public enum CacheAccess : byte
{
    Hit,
    /// <summary>Not resident: a buffer was allocated and the page must be read (the session waits).</summary>
    Miss,
    /// <summary>Not resident and no buffer available: a Database Page Fault Stall (the session waits for the flusher).</summary>
    Stall,
}

/// <summary>
/// The database cache of one instance, as ESE runs it: a fixed number of 32 KiB buffers, CLOCK
/// replacement, and an available pool kept between the flush thresholds. When available buffers
/// drop below the start threshold the scavenger evicts clean pages and writes dirty ones (oldest
/// first by the clock hand, coalescing a dirty neighbour into one 2-page write) until available
/// plus in-flight flushes reach the stop threshold. The thresholds are the configured ones or, when
/// the load asks for more, the pool <see cref="PoolTarget"/> sized to it (<see cref="FlushSizing"/>).
/// A page fault that finds no available buffer is a stall. Single-threaded (owned by one worker; the
/// sampler only reads counters); no allocation after construction.
/// </summary>
public sealed class CacheModel
{
    private const byte Free = 0, Reading = 1, Clean = 2, Dirty = 3, Flushing = 4;
    private readonly int[] _page;
    private readonly byte[] _state;
    private readonly bool[] _ref;
    private readonly bool[] _dirtyAfter;
    private readonly PageTable _map;
    private readonly int[] _free;
    private int _freeCount;
    private int _hand;
    private bool _scavenging;

    public CacheModel(int capacityPages, int startThresholdPages, int stopThresholdPages)
    {
        if (capacityPages < 4) throw new ArgumentOutOfRangeException(nameof(capacityPages), capacityPages, "The cache model needs at least 4 buffers.");
        Capacity = capacityPages;
        ConfiguredStartThreshold = Math.Clamp(startThresholdPages, 1, capacityPages / 2);
        ConfiguredStopThreshold = Math.Clamp(stopThresholdPages, ConfiguredStartThreshold + 1, capacityPages / 2 + 1);
        _start = ConfiguredStartThreshold;
        _stop = ConfiguredStopThreshold;
        _page = new int[capacityPages];
        _state = new byte[capacityPages];
        _ref = new bool[capacityPages];
        _dirtyAfter = new bool[capacityPages];
        _map = new PageTable(capacityPages);
        _free = new int[capacityPages];
        for (int i = 0; i < capacityPages; i++) _free[i] = capacityPages - 1 - i;
        _freeCount = capacityPages;
    }

    public int Capacity { get; }
    /// <summary>The flush thresholds the profile's cache sets (ESE's ~1% and ~2%): what the test log states.</summary>
    public int ConfiguredStartThreshold { get; }
    public int ConfiguredStopThreshold { get; }
    private int _start, _stop, _poolTarget;
    /// <summary>Scavenging starts below this many available buffers: the configured threshold, or the pool target when larger.</summary>
    public int StartThreshold => _start;
    /// <summary>Scavenging stops at this many available and in-flight buffers: the configured threshold, or twice the pool target when larger.</summary>
    public int StopThreshold => _stop;

    /// <summary>
    /// The available buffers the load needs over one write latency (<see cref="FlushSizing"/>); raises the
    /// thresholds above the configured ones when larger, never beyond an eighth of the cache for the start.
    /// </summary>
    public int PoolTarget
    {
        get => _poolTarget;
        set
        {
            _poolTarget = Math.Clamp(value, 0, Capacity / 8);
            _start = Math.Max(ConfiguredStartThreshold, _poolTarget);
            _stop = Math.Max(ConfiguredStopThreshold, 2 * _poolTarget);
        }
    }

    /// <summary>Buffers the scavenger still has to free to reach its stop threshold (0 while the pool is full).</summary>
    public int FlushBacklog => Math.Max(0, _stop - _freeCount - FlushingCount);

    /// <summary>Buffers handed out to pages (misses and new pages): the demand <see cref="FlushSizing"/> measures.</summary>
    public long Allocations { get; private set; }
    /// <summary>Buffers holding a page (Database Cache Size / page size).</summary>
    public int Resident => Capacity - _freeCount;
    public int Available => _freeCount;
    public int DirtyCount { get; private set; }
    public int FlushingCount { get; private set; }
    public long Hits { get; private set; }
    public long Misses { get; private set; }
    public long Stalls { get; private set; }
    public long PagesFlushed { get; private set; }

    public bool IsResident(int page) => _map.ContainsKey(page);

    /// <summary>Touches <paramref name="page"/>; <paramref name="modify"/> dirties it (now or once read).</summary>
    public CacheAccess Access(int page, bool modify, out int slot)
    {
        if (_map.TryGetValue(page, out slot))
        {
            Hits++;
            _ref[slot] = true;
            if (modify)
            {
                switch (_state[slot])
                {
                    case Clean: _state[slot] = Dirty; DirtyCount++; break;
                    case Reading: _dirtyAfter[slot] = true; break;
                    case Flushing: _dirtyAfter[slot] = true; break; // re-dirtied while being written: stays resident
                }
            }
            return CacheAccess.Hit;
        }
        if (_freeCount == 0)
        {
            Stalls++;
            slot = -1;
            return CacheAccess.Stall;
        }
        Misses++;
        Allocations++;
        slot = _free[--_freeCount];
        _page[slot] = page;
        _state[slot] = Reading;
        _ref[slot] = true;
        _dirtyAfter[slot] = modify;
        _map.Set(page, slot);
        return CacheAccess.Miss;
    }

    /// <summary>
    /// Touches a page the database has just grown by (an insert that needed a new page): a new
    /// page is not read, it is formatted in a buffer and is dirty at once. Hit, or Stall when no
    /// buffer is available.
    /// </summary>
    public CacheAccess AccessNew(int page, out int slot)
    {
        if (_map.ContainsKey(page)) return Access(page, modify: true, out slot);
        if (_freeCount == 0)
        {
            Stalls++;
            slot = -1;
            return CacheAccess.Stall;
        }
        Allocations++;
        slot = _free[--_freeCount];
        _page[slot] = page;
        _state[slot] = Dirty;
        DirtyCount++;
        _ref[slot] = true;
        _dirtyAfter[slot] = false;
        _map.Set(page, slot);
        return CacheAccess.Hit;
    }

    /// <summary>
    /// Shutdown: the next dirty page in [<paramref name="from"/>, <paramref name="to"/>) to write,
    /// with its dirty successor coalesced (false when none is left). Walks the range, so it is for
    /// the few pages a run grew by, not the hot path.
    /// </summary>
    public bool NextDirtyIn(int from, int to, out int firstPage, out int pages, out int slot1, out int slot2)
    {
        firstPage = -1; pages = 0; slot1 = -1; slot2 = -1;
        for (int p = from; p < to; p++)
        {
            if (!_map.TryGetValue(p, out int s) || _state[s] != Dirty) continue;
            _state[s] = Flushing; DirtyCount--; FlushingCount++;
            firstPage = p; pages = 1; slot1 = s;
            if (p + 1 < to && _map.TryGetValue(p + 1, out int n) && _state[n] == Dirty)
            {
                _state[n] = Flushing; DirtyCount--; FlushingCount++;
                slot2 = n; pages = 2;
            }
            PagesFlushed += pages;
            return true;
        }
        return false;
    }

    /// <summary>True when some page in [<paramref name="from"/>, <paramref name="to"/>) is dirty or being written.</summary>
    public bool AnyUnwrittenIn(int from, int to)
    {
        for (int p = from; p < to; p++)
            if (_map.TryGetValue(p, out int s) && _state[s] is Dirty or Flushing or Reading) return true;
        return false;
    }

    /// <summary>The read for a missed page finished: the buffer now holds it (dirty if a writer was waiting).</summary>
    public void ReadCompleted(int slot)
    {
        if (_state[slot] != Reading) return;
        if (_dirtyAfter[slot]) { _state[slot] = Dirty; DirtyCount++; }
        else _state[slot] = Clean;
        _dirtyAfter[slot] = false;
    }

    /// <summary>A read failed: forget the page, give the buffer back.</summary>
    public void ReadFailed(int slot)
    {
        if (_state[slot] != Reading) return;
        Evict(slot);
    }

    /// <summary>True while the scavenger should run (hysteresis between the start and stop thresholds).</summary>
    public bool WantsScavenge
    {
        get
        {
            if (_freeCount < _start) _scavenging = true;
            if (_freeCount + FlushingCount >= _stop) _scavenging = false;
            return _scavenging;
        }
    }

    /// <summary>
    /// Runs the scavenger until it has a dirty page to write (true: write <paramref name="pages"/>
    /// pages from <paramref name="firstPage"/>, buffers <paramref name="slot1"/>/<paramref name="slot2"/>),
    /// or until the stop threshold is reached by evicting clean pages (false).
    /// </summary>
    public bool NextFlush(out int firstPage, out int pages, out int slot1, out int slot2)
    {
        firstPage = -1; pages = 0; slot1 = -1; slot2 = -1;
        for (int steps = 0; steps < 2 * Capacity; steps++)
        {
            if (!WantsScavenge) return false;
            int s = _hand;
            _hand = _hand + 1 == Capacity ? 0 : _hand + 1;
            byte st = _state[s];
            if (st != Clean && st != Dirty) continue;
            if (_ref[s]) { _ref[s] = false; continue; }
            if (st == Clean) { Evict(s); continue; }
            int p = _page[s];
            _state[s] = Flushing; DirtyCount--; FlushingCount++;
            firstPage = p; pages = 1; slot1 = s;
            // Coalesce with the next page when it is dirty too (ESE's write coalescing: one 64 KiB write).
            if (_map.TryGetValue(p + 1, out int n) && _state[n] == Dirty)
            {
                _state[n] = Flushing; DirtyCount--; FlushingCount++;
                slot2 = n; pages = 2;
            }
            else if (_map.TryGetValue(p - 1, out int b) && _state[b] == Dirty)
            {
                _state[b] = Flushing; DirtyCount--; FlushingCount++;
                slot2 = slot1; slot1 = b; firstPage = p - 1; pages = 2;
            }
            PagesFlushed += pages;
            return true;
        }
        return false;
    }

    /// <summary>
    /// The scavenger while every flush slot is busy: evicts the clean pages the clock hand passes (no write
    /// needed) and stops at the first dirty one, which waits for a slot (<see cref="NextFlush"/> writes it
    /// next), so the write-back order is the clock's either way. Without it the pool ran dry while writes
    /// were in flight though clean pages stood next in line: stalls the storage had no part in.
    /// </summary>
    public void EvictClean()
    {
        for (int steps = 0; steps < 2 * Capacity && WantsScavenge; steps++)
        {
            int s = _hand;
            byte st = _state[s];
            if (st == Dirty && !_ref[s]) return;
            _hand = _hand + 1 == Capacity ? 0 : _hand + 1;
            if (st != Clean && st != Dirty) continue;
            if (_ref[s]) { _ref[s] = false; continue; }
            Evict(s);
        }
    }

    /// <summary>A flush write finished: the page becomes available (or stays, dirty again, if re-dirtied meanwhile).</summary>
    public void FlushCompleted(int slot)
    {
        if (slot < 0 || _state[slot] != Flushing) return;
        FlushingCount--;
        if (_dirtyAfter[slot]) { _dirtyAfter[slot] = false; _state[slot] = Dirty; DirtyCount++; return; }
        Evict(slot);
    }

    /// <summary>A flush failed: keep the page dirty so it is written again.</summary>
    public void FlushFailed(int slot)
    {
        if (slot < 0 || _state[slot] != Flushing) return;
        FlushingCount--;
        _dirtyAfter[slot] = false;
        _state[slot] = Dirty; DirtyCount++;
    }

    private void Evict(int slot)
    {
        _map.Remove(_page[slot]);
        _state[slot] = Free;
        _ref[slot] = false;
        _dirtyAfter[slot] = false;
        _free[_freeCount++] = slot;
    }

    /// <summary>
    /// A database's cache holds at most 1/this of its pages. A cache near the database's size would serve reads from
    /// memory and make dirty pages meet their neighbours (coalesced writes) far more often than in Jetstress, whose
    /// 1 GB cache faced terabytes. The reports say so when it cuts the configured cache (ReportText.DatabaseCache).
    /// </summary>
    public const int DatabaseShare = 32;

    /// <summary>Per-instance cache sizing: the profile's cache split over the databases, scaled down for tiny databases.</summary>
    public static (int Capacity, int Start, int Stop) Size(long maxCacheBytesPerInstance, long databasePages)
    {
        long pages = maxCacheBytesPerInstance / Storage.PageFormat.PageSize;
        pages = Math.Min(pages, Math.Max(16, databasePages / DatabaseShare));
        pages = Math.Clamp(pages, 16, int.MaxValue / 4);
        int cap = (int)pages;
        // ESE's thresholds are ~1% and ~2% of the cache; a small cache still keeps a few buffers
        // free, or every miss that meets a flush in flight would stall.
        return (cap, Math.Max(8, cap / 100), Math.Max(16, cap / 50));
    }
}
