namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// The knobs that turn the Jetstress operation mix into I/O. Defaults are calibrated so a
/// Performance run lands in the seen per-instance ranges (SPEC section 3): DB read 32-34 KB,
/// DB write 34-40 KB, reads:writes 1.5-2.6, DB transfers:log writes 8-15, log write 12-21 KB.
/// </summary>
public sealed class WorkloadShape
{
    public int InsertPercent { get; init; } = 40;
    public int DeletePercent { get; init; } = 20;
    public int ReplacePercent { get; init; } = 5;
    public int ReadPercent => 100 - InsertPercent - DeletePercent - ReplacePercent;
    public int LazyCommitPercent { get; init; } = 70;
    /// <summary>Operations per transaction are uniform in 1..this.</summary>
    public int MaxOperationsPerTransaction { get; init; } = 3;
    /// <summary>Read operations that also fetch a long-value page (a second random page).</summary>
    public int LongValueReadPercent { get; init; } = 30;
    /// <summary>Inserts that append at the end of a table (adjacent pages: what makes coalesced 2-page writes).</summary>
    public int AppendInsertPercent { get; init; } = 30;
    /// <summary>Appended records per page before the append cursor moves to the next page.</summary>
    public int RecordsPerAppendPage { get; init; } = 2;
    public int InsertLogBytes { get; init; } = 3600;
    public int ReplaceLogBytes { get; init; } = 3600;
    public int DeleteLogBytes { get; init; } = 900;
    public int CommitLogBytes { get; init; } = 120;
    /// <summary>Lazy commits are flushed once this much log is buffered (or after <see cref="LazyFlushMilliseconds"/>).</summary>
    public int LazyFlushBytes { get; init; } = 48 * 1024;
    public int LazyFlushMilliseconds { get; init; } = 250;
    public int MaxLogWriteBytes { get; init; } = 60 * 1024;
    /// <summary>Dirty-page writes one instance keeps in flight at most.</summary>
    public int MaxFlushesInFlight { get; init; } = 8;
    /// <summary>BDM: 256 KiB sequential checksum reads at ~9 reads/s per instance (~2.3 MB/s, ESE 2013 throttled BDM).</summary>
    public int MaintenanceReadBytes { get; init; } = 256 * 1024;
    public double MaintenanceReadsPerSecond { get; init; } = 9;
    /// <summary>Log replication: ~200 KB sequential log reads, 0.5/s per extra copy.</summary>
    public int ReplicationReadBytes { get; init; } = 200 * 1024;
    public double ReplicationReadsPerSecondPerCopy { get; init; } = 0.5;
    public int BackupReadBytes { get; init; } = 256 * 1024;

    public static WorkloadShape Default { get; } = new();
}
