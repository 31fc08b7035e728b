namespace ExchStorageTest.Engine.Results;

/// <summary>One simulated database: its file, its log stream and its measured streams.</summary>
public sealed class InstanceResult
{
    /// <summary>Jetstress-style name, e.g. "Instance.1".</summary>
    public string Name { get; set; } = "";
    public int Index { get; set; }
    public string DatabasePath { get; set; } = "";
    public string LogPath { get; set; } = "";
    /// <summary>
    /// The database files of the passive copies beside this database on its volume, in copy order (their streams are the
    /// instance's Passive… streams); null in the Jetstress model, and then not written.
    /// </summary>
    public List<string>? PassiveCopyPaths { get; set; }
    /// <summary>Of <see cref="PassiveCopyPaths"/>, the lagged ones (the last ones): they write the copied log only. Null as it is.</summary>
    public int? LaggedPassiveCopies { get; set; }
    public long DatabaseSizeBytes { get; set; }
    /// <summary>Transactional sessions that ran against this database; 0 when not recorded (no transactional load, or results written before this field).</summary>
    public int Sessions { get; set; }
    public List<StreamResult> Streams { get; set; } = new();
    public double PageFaultStallsPerSecond { get; set; }
    public double MaximumPageFaultStallsPerSecond { get; set; }
    /// <summary>Samples of the measured window with a non-zero stall rate.</summary>
    public int PageFaultStallSamplesAboveZero { get; set; }
    public long DatabaseCacheSizeBytes { get; set; }
    /// <summary>Mean wait of the measured window's stalled page faults, ms (0 when none stalled): see <see cref="Workload.FlushEvidence"/>.</summary>
    public double PageFaultStallWaitMs { get; set; }
    /// <summary>The scavenger's backlog, buffers short of its stop threshold, averaged over the measured window.</summary>
    public double FlushBacklogPages { get; set; }
    /// <summary>The scavenger's dirty-page writes in flight averaged over the measured window (the limit: the results' settings.maxFlushesInFlight).</summary>
    public double FlushWritesInFlight { get; set; }
    public long MinimumDatabaseCacheBytes { get; set; }
    public long MaximumDatabaseCacheBytes { get; set; }
    /// <summary>Random 64-bit id of this database (from its header); pages carry it.</summary>
    public string InstanceId { get; set; } = "";
    /// <summary>Created by this run (true) or re-used / attached (false).</summary>
    public bool DatabaseCreated { get; set; }
    public long Transactions { get; set; }
    /// <summary>Pages read during the run whose identity or checksum was wrong.</summary>
    public long ChecksumErrors { get; set; }
    /// <summary>Maintenance reads that met a page mid-write by the flusher (not errors).</summary>
    public long ChecksumRaces { get; set; }
    public List<string> ChecksumProblems { get; set; } = new();
    public long LogGenerationsWritten { get; set; }

    public StreamResult? Stream(string name) => Streams.Find(s => s.Stream == name);
}
