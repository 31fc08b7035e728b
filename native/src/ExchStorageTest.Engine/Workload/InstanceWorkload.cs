using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// The state of one simulated database that outlives a single load driver (tuning steps, warm-up
/// and the measured window share it): its cache model, its log position, its counters.
/// Touched only by the worker thread that runs the instance's sources, or between drivers.
/// </summary>
public sealed class InstanceWorkload
{
    public InstanceWorkload(int index, ulong instanceId, long pageCount, int databaseFileIndex, int[] logFileIndexes, CacheModel cache, long lastLogGeneration, ulong seed)
    {
        Index = index;
        InstanceId = instanceId;
        Content = new DatabaseContent(instanceId);
        PageCount = pageCount;
        DatabaseFileIndex = databaseFileIndex;
        LogFileIndexes = logFileIndexes;
        Cache = cache;
        Generation = lastLogGeneration + 1;
        FirstGeneration = Generation;
        NeedLogHeader = true;
        LogOffset = LogFormat.FileHeaderBytes;
        Rng = seed == 0 ? 0x9E3779B97F4A7C15UL : seed;
        AppendCursor = 1 + (long)(Next() % (ulong)Math.Max(1, pageCount - 1));
        NextNewPage = pageCount;
        Room = GrowthRoom.WithoutExtension(limit: pageCount);
        PendingPages = new int[LogFormat.MaxRecords(64 * 1024) * 4];
    }

    public int Index { get; }
    public ulong InstanceId { get; }
    /// <summary>What the pages the run writes hold: the database's data profile (default: incompressible, unique).</summary>
    public DatabaseContent Content { get; init; }
    public long PageCount { get; }
    public int DatabaseFileIndex { get; }
    /// <summary>Driver file-table indexes of the log slots (generation g is in slot (g-1) mod count).</summary>
    public int[] LogFileIndexes { get; }
    public CacheModel Cache { get; }

    // Stream ids in the current driver (re-assigned for every driver).
    public int DatabaseReadStream = -1, DatabaseWriteStream = -1, LogWriteStream = -1, LogReadStream = -1, MaintenanceStream = -1, ReplicationStream = -1, BackupStream = -1;
    /// <summary>The passive copies' streams (all copies beside this database together); -1 without passive copies.</summary>
    public int PassiveReplayReadStream = -1, PassiveReplayWriteStream = -1, PassiveLogWriteStream = -1;

    /// <summary>The passive copies beside this database on its volume (docs/load-model.md); empty in the Jetstress model.</summary>
    public IReadOnlyList<PassiveCopyFiles> PassiveCopies { get; init; } = Array.Empty<PassiveCopyFiles>();

    // What the active database has issued since the run began (written by the owning worker): its passive copies follow
    // it (PassiveCopySource), so a rate the run sets (tuning, a capacity step) moves them with it.
    /// <summary>Transactional database reads issued.</summary>
    public long DatabaseReadsIssued;
    /// <summary>Transactional database writes issued (the scavenger's, each of one or more pages).</summary>
    public long DatabaseWritesIssued;
    /// <summary>Bytes of those writes.</summary>
    public long DatabaseWriteBytesIssued;
    /// <summary>Log bytes written (the log records' blocks; headers not counted).</summary>
    public long LogBytesWritten;

    // Log position (persists across drivers).
    public long Generation;
    public readonly long FirstGeneration;
    public int LogOffset;
    /// <summary>Where the writer stopped in the generation it closed last (the rest of that file is unused).</summary>
    public int LastClosedLogEnd = LogFormat.FileSize;
    public int BlockSequence;
    public bool NeedLogHeader;
    public bool LogInFlight;
    public long LastLogWriteTicks;
    /// <summary>Bytes of log records buffered and not yet written.</summary>
    public long PendingLogBytes;
    public readonly int[] PendingPages;
    public int PendingPageCount;
    /// <summary>Generations filled and closed since the start (what soft recovery replays).</summary>
    public long GenerationsCompleted => Generation - FirstGeneration;

    // Append cursor of inserts at the end of a table.
    public long AppendCursor;
    public int AppendRecords;

    // Growth: the database grows by one page per RecordsPerNewPage records inserted and not deleted.
    // Pages from PageCount up are new this run: formatted in the cache, never read before they are written.
    /// <summary>The next page the database grows by (PageCount until it grows).</summary>
    public long NextNewPage;
    /// <summary>Records inserted minus records deleted since the last new page.</summary>
    public int NetRecords;
    public long GrownPages => NextNewPage - PageCount;
    /// <summary>
    /// How far the database may grow this run and how far its file is extended ahead of the growth (a run's
    /// <see cref="Storage.DatabaseExtender"/>); by default no growth.
    /// </summary>
    public GrowthRoom Room { get; set; }

    // Counters (written by the owning worker; read by the sampler: 64-bit reads are atomic).
    public long ChecksumErrors;
    public long ChecksumRaces;
    public long Transactions;
    public long WriteGeneration = 1;

    // Flushing evidence (written by the owning worker; read by the sampler, docs/results-schema.md):
    /// <summary>Stopwatch ticks stalled page faults waited for a buffer, summed over the stalls that ended.</summary>
    public long StallWaitTicks;
    /// <summary>Stalled page faults that got their buffer (the count <see cref="StallWaitTicks"/> is over).</summary>
    public long StallsEnded;
    /// <summary>Time integral of the scavenger's backlog (<see cref="CacheModel.FlushBacklog"/>), in page-ticks.</summary>
    public long FlushBacklogPageTicks;
    /// <summary>Time integral of the dirty-page writes in flight, in write-ticks.</summary>
    public long FlushWriteTicks;
    /// <summary>The scavenger's pool target as last sized to the load (<see cref="FlushSizing"/>).</summary>
    public int FlushPoolTargetPages;
    // Think-time lag (written by the owning worker; read by the sampler): how late thinking sessions were woken against the
    // schedule that allowed them to start. A session that thinks waits for nothing but the clock, so a late start is the
    // worker's turn coming late — the host's, not the storage's (Results.MachineEvidence).
    /// <summary>Thinking sessions woken to start a transaction.</summary>
    public long ThinkWakes;
    /// <summary>Stopwatch ticks those wake-ups came after the schedule allowed them, summed.</summary>
    public long ThinkLagTicks;
    /// <summary>Wake-ups later than <see cref="SessionPacer.LateWakeMilliseconds"/>.</summary>
    public long LateThinkWakes;
    public readonly List<string> ChecksumProblems = new();

    /// <summary>Soft recovery: the last generation that may be written; the log stops (LogFull) when it is full.</summary>
    public long GenerationLimit = long.MaxValue;
    public bool LogFull;

    public ulong Rng;

    /// <summary>xorshift64*: the instance's own deterministic random stream.</summary>
    public ulong Next()
    {
        ulong x = Rng;
        x ^= x >> 12; x ^= x << 25; x ^= x >> 27;
        Rng = x;
        return x * 0x2545F4914F6CDD1DUL;
    }

    public int LogSlot(long generation) => LogFileIndexes[(int)((generation - 1) % LogFileIndexes.Length)];

    /// <summary>Notes a page that failed verification (detail kept for the first few).</summary>
    public void ReportBadPage(in PageCheck check, string what)
    {
        ChecksumErrors++;
        if (ChecksumProblems.Count < 50) ChecksumProblems.Add($"Instance.{Index} {what}: {check.Describe()}");
    }
}
