namespace ExchStorageTest.Engine.Workload;

/// <summary>
/// The knobs that turn the Jetstress operation mix into I/O. Defaults are calibrated so a
/// Performance run lands in the seen per-instance ranges (SPEC section 3): DB read 32-34 KB,
/// DB write 34-40 KB, reads:writes 1.8-2.6, DB transfers per log write 11-14.5, log write 12-21 KB.
/// </summary>
public sealed class WorkloadShape
{
    public int InsertPercent { get; init; } = 40;
    public int DeletePercent { get; init; } = 20;
    public int ReplacePercent { get; init; } = 5;
    public int ReadPercent => 100 - InsertPercent - DeletePercent - ReplacePercent;
    public int LazyCommitPercent { get; init; } = 70;
    /// <summary>
    /// Operations per transaction, on average: uniform in 1..n or in 1..n+1, mixed to give this
    /// mean. With 70% lazy commits, 2.125 puts ~12.5 database transfers behind each log write.
    /// </summary>
    public double MeanOperationsPerTransaction { get; init; } = 2.125;
    /// <summary>Read operations that also fetch a long-value page (a second random page).</summary>
    public int LongValueReadPercent { get; init; } = 50;
    /// <summary>Inserts that append at the end of a table (adjacent pages: what makes coalesced 2-page writes).</summary>
    public int AppendInsertPercent { get; init; } = 40;
    /// <summary>Appended records per page before the append cursor moves to the next page.</summary>
    public int RecordsPerAppendPage { get; init; } = 2;
    /// <summary>
    /// Records (inserted and not deleted) per page the database grows by: with 40% inserts and 20%
    /// deletes, one new page per ~50 operations, about Jetstress's growth (864 MB over 2 h on 4
    /// databases at ~72 transfers/s each: ~0.9 pages/s per database).
    /// </summary>
    public int RecordsPerNewPage { get; init; } = 10;
    public int InsertLogBytes { get; init; } = 2800;
    public int ReplaceLogBytes { get; init; } = 2800;
    public int DeleteLogBytes { get; init; } = 900;
    public int CommitLogBytes { get; init; } = 120;
    /// <summary>Lazy commits are flushed once this much log is buffered (or after <see cref="LazyFlushMilliseconds"/>).</summary>
    public int LazyFlushBytes { get; init; } = 48 * 1024;
    /// <summary>
    /// The longest a lazy commit waits for a forced log write to carry it. Long enough that, at
    /// any paced rate, log writes come from non-lazy commits (so log writes per database transfer
    /// and bytes per log write do not depend on the rate), short enough that lazy commits become
    /// durable.
    /// </summary>
    public int LazyFlushMilliseconds { get; init; } = 2000;
    public int MaxLogWriteBytes { get; init; } = 60 * 1024;
    /// <summary>
    /// Dirty-page writes one instance keeps in flight at most. The scavenger can free no faster than this many
    /// writes per write latency: 8 capped a closed-loop database on a RAM-backed volume (~12k writes/s at
    /// ~0.6 ms kept 7 in flight on average, and every burst stalled page faults) — a limit of the model, not of
    /// the storage. At a profile's paced rate one or two are in flight; the results record how many
    /// were (`flushWritesInFlight`).
    /// </summary>
    public int MaxFlushesInFlight { get; init; } = 32;
    /// <summary>
    /// Dirty-page writes one instance may keep in flight while its pool of available buffers is below the
    /// scavenger's start threshold (the next page fault may stall) and the storage writes quickly
    /// (<see cref="QuickFlushWriteMs"/>): ESE's urgent write-back, whose depth rises with the pool's shortage up
    /// to half of JET_paramOutstandingIOMax (512 of 1,024). With 32 alone, a closed-loop database on a RAM-backed
    /// volume stalled page faults whenever the device paused for a few milliseconds with all 32 writes out; every
    /// stall burst began at the limit (docs/benchmarks.md). Not on slow storage: there more writes only
    /// queue the log's writes behind the database's, where ESE's background writes yield to them by I/O priority,
    /// which a Linux loop or network device ignores. Each slot is an I/O buffer of 64 KiB: one database's worker pins
    /// 9.1 MiB on Linux, over the 8 MiB locked-memory limit a user without CAP_IPC_LOCK usually has, whose run then
    /// pins its pages per I/O and says so (`engine.ioFeatures`); 64 fitted, and stalled in more runs.
    /// </summary>
    public int UrgentFlushesInFlight { get; init; } = 128;
    /// <summary>
    /// The average of an instance's recent dirty-page writes at or under which its storage counts as writing
    /// quickly, so <see cref="UrgentFlushesInFlight"/> applies: half of the average log-write limit, the share under
    /// which the verdict too calls a device quick (<see cref="Verdict.MachineLimit.DeviceShareOfLimit"/>; the run sets it
    /// from its thresholds, 5 ms of the default 10).
    /// </summary>
    public double QuickFlushWriteMs { get; init; } = QuickFlushWriteMsFor(new Planning.Thresholds());

    /// <summary><see cref="QuickFlushWriteMs"/> under <paramref name="thresholds"/>.</summary>
    public static double QuickFlushWriteMsFor(Planning.Thresholds thresholds) =>
        Verdict.MachineLimit.DeviceShareOfLimit * thresholds.AverageLogWriteLatencyMs;
    /// <summary>BDM: 256 KiB sequential checksum reads at ~9 reads/s per instance (~2.3 MB/s, ESE 2013 throttled BDM).</summary>
    public int MaintenanceReadBytes { get; init; } = 256 * 1024;
    public double MaintenanceReadsPerSecond { get; init; } = 9;
    /// <summary>Log replication: each extra copy reads the log as it is written, in pieces of about a fifth of a log file.</summary>
    public int ReplicationReadBytes { get; init; } = 208 * 1024;
    /// <summary>Transactional log reads: ~4 KB at ~0.15/s per instance, as seen in a published Jetstress report.</summary>
    public double TransactionalLogReadsPerSecond { get; init; } = 0.15;
    public int TransactionalLogReadBytes { get; init; } = 4096;
    public int BackupReadBytes { get; init; } = 256 * 1024;

    public static WorkloadShape Default { get; } = new();
}
