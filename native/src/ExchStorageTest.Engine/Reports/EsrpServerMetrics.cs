using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// ESRP "Individual Server Metrics" for one host (SPEC section 7): sums of I/O over the host's
/// databases and means of their latencies, from the Total I/O table.
/// </summary>
public sealed record EsrpServerMetrics(
    string Host,
    double TargetTransactionalIops,
    double AchievedTransactionalIops,
    double DatabaseDisksTransfersPerSecond,
    double DatabaseDisksReadsPerSecond,
    double DatabaseDisksWritesPerSecond,
    double AverageDatabaseDiskReadLatencyMs,
    double AverageDatabaseDiskWriteLatencyMs,
    double LogDisksWritesPerSecond,
    double AverageLogDiskWriteLatencyMs)
{
    public static EsrpServerMetrics From(TestResults host) => From(host, host.Environment.MachineName);

    /// <param name="host">One host's results.</param>
    /// <param name="name">The name the host goes by in the report (see <see cref="HostKey.Names"/>).</param>
    public static EsrpServerMetrics From(TestResults host, string name)
    {
        var total = InstanceCounters.From(host).Total;
        double reads = total.Sum(r => r.DatabaseReadsPerSecond);
        double writes = total.Sum(r => r.DatabaseWritesPerSecond);
        return new EsrpServerMetrics(
            name,
            host.Sizing.TargetTransactionalIops,
            TransactionalIops.Achieved(host.Instances),
            reads + writes,
            reads,
            writes,
            Mean(total, r => r.DatabaseReadsAverageLatencyMs),
            Mean(total, r => r.DatabaseWritesAverageLatencyMs),
            total.Sum(r => r.LogWritesPerSecond),
            Mean(total, r => r.LogWritesAverageLatencyMs));
    }

    private static double Mean(IReadOnlyList<IoCounterRow> rows, Func<IoCounterRow, double> value) =>
        rows.Count == 0 ? 0 : rows.Sum(value) / rows.Count;
}

/// <summary>
/// ESRP "Aggregate Performance Across All Servers": rates summed, latencies averaged over hosts,
/// target vs achieved and the headroom sentence ("The results are 35% over the requirement").
/// As in published documents, headroom compares Database Disks Transfers/sec (which include BDM)
/// with the target; <see cref="TransactionalHeadroomPercent"/> is the stricter transactional-only figure.
/// </summary>
public sealed record EsrpAggregateMetrics(
    int Servers,
    double TargetedDatabaseDisksTransfersPerSecond,
    double AchievedTransactionalIops,
    double DatabaseDisksTransfersPerSecond,
    double DatabaseDisksReadsPerSecond,
    double DatabaseDisksWritesPerSecond,
    double AverageDatabaseDiskReadLatencyMs,
    double AverageDatabaseDiskWriteLatencyMs,
    double LogDisksWritesPerSecond,
    double AverageLogDiskWriteLatencyMs)
{
    /// <summary>(transfers / target - 1) x 100; NaN without a target.</summary>
    public double HeadroomPercent => TargetedDatabaseDisksTransfersPerSecond <= 0 ? double.NaN
        : (DatabaseDisksTransfersPerSecond / TargetedDatabaseDisksTransfersPerSecond - 1) * 100;

    public double TransactionalHeadroomPercent => TargetedDatabaseDisksTransfersPerSecond <= 0 ? double.NaN
        : (AchievedTransactionalIops / TargetedDatabaseDisksTransfersPerSecond - 1) * 100;

    /// <summary>Transfers/sec beyond the target ("reserve throughput capacity").</summary>
    public double ReserveIops => DatabaseDisksTransfersPerSecond - TargetedDatabaseDisksTransfersPerSecond;

    /// <summary>The ESRP sentence, e.g. "The results are 35% over the requirement (837 IOPS of reserve throughput capacity)."</summary>
    public string HeadroomSentence()
    {
        if (double.IsNaN(HeadroomPercent)) return "No target was set, so there is no headroom to state.";
        string pct = JetFormat.Number(Math.Abs(HeadroomPercent), 0);
        string reserve = JetFormat.Number(Math.Abs(ReserveIops), 0);
        return HeadroomPercent >= 0
            ? $"The results are {pct}% over the requirement ({reserve} IOPS of reserve throughput capacity)."
            : $"The results are {pct}% under the requirement ({reserve} IOPS short of the target).";
    }

    public static EsrpAggregateMetrics From(IReadOnlyList<EsrpServerMetrics> servers)
    {
        double Mean(Func<EsrpServerMetrics, double> f) => servers.Count == 0 ? 0 : servers.Sum(f) / servers.Count;
        return new EsrpAggregateMetrics(
            servers.Count,
            servers.Sum(s => s.TargetTransactionalIops),
            servers.Sum(s => s.AchievedTransactionalIops),
            servers.Sum(s => s.DatabaseDisksTransfersPerSecond),
            servers.Sum(s => s.DatabaseDisksReadsPerSecond),
            servers.Sum(s => s.DatabaseDisksWritesPerSecond),
            Mean(s => s.AverageDatabaseDiskReadLatencyMs),
            Mean(s => s.AverageDatabaseDiskWriteLatencyMs),
            servers.Sum(s => s.LogDisksWritesPerSecond),
            Mean(s => s.AverageLogDiskWriteLatencyMs));
    }
}

/// <summary>
/// ESRP "Database Read-only Performance" from DatabaseBackup runs. Per database = mean MB/s over every
/// database of every host; per server = that per-database figure (as printed, 2 decimals) times the
/// databases per server, the way ESRP documents derive it (83.68 x 4 = 334.72); all servers = sum of
/// every database's MB/s.
/// </summary>
public sealed record EsrpBackupSummary(
    int Servers,
    int Databases,
    double MBReadPerSecondPerDatabase,
    double MBReadPerSecondPerServer,
    double MBReadPerSecondAllServers,
    IReadOnlyList<(string Host, int Databases, double SumMBPerSecond, double AverageMBPerSecond)> PerHost)
{
    public static EsrpBackupSummary? From(IReadOnlyList<TestResults> hosts, Func<TestResults, string>? name = null)
    {
        var withBackup = hosts.Where(h => h.Backup is { Instances.Count: > 0 }).ToList();
        if (withBackup.Count == 0) return null;
        var all = withBackup.SelectMany(h => h.Backup!.Instances).ToList();
        double perDb = all.Average(i => i.MBPerSecond);
        double dbsPerServer = all.Count / (double)withBackup.Count;
        return new EsrpBackupSummary(
            withBackup.Count,
            all.Count,
            perDb,
            JetFormat.Round(perDb, 2) * dbsPerServer,
            all.Sum(i => i.MBPerSecond),
            withBackup.Select(h => (name?.Invoke(h) ?? h.Environment.MachineName, h.Backup!.Instances.Count,
                h.Backup.Instances.Sum(i => i.MBPerSecond), h.Backup.Instances.Average(i => i.MBPerSecond))).ToList());
    }
}

/// <summary>ESRP "Transaction Log Recovery/Replay Performance": elapsed seconds / logs replayed, over every database.</summary>
public sealed record EsrpSoftRecoverySummary(int LogsReplayed, double ElapsedSeconds)
{
    public double AverageSecondsPerLog => LogsReplayed <= 0 ? double.NaN : ElapsedSeconds / LogsReplayed;

    public static EsrpSoftRecoverySummary? From(IReadOnlyList<TestResults> hosts)
    {
        var instances = hosts.Where(h => h.SoftRecovery is not null).SelectMany(h => h.SoftRecovery!.Instances).ToList();
        if (instances.Count == 0) return null;
        return new EsrpSoftRecoverySummary(instances.Sum(i => i.LogsReplayed), instances.Sum(i => i.ElapsedSeconds));
    }
}
