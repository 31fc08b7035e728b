using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The Jetstress per-instance tables derived from a results document (SPEC section 6):
/// Transactional I/O, Background Database Maintenance, Log Replication and Total I/O.
/// The derivations are the ones seen in published reports:
/// total DB reads/s = transactional + BDM; total DB read bytes = rate-weighted mean of the two;
/// total DB read latency = transactional latency (BDM latency is not part of it);
/// total log reads = transactional log reads (recovery replay) + replication reads, so replication
/// latency appears only in the total table.
/// </summary>
public sealed class InstanceCounters
{
    public IReadOnlyList<IoCounterRow> Transactional { get; }
    public IReadOnlyList<MaintenanceRow> Maintenance { get; }
    public IReadOnlyList<ReplicationRow> Replication { get; }
    public IReadOnlyList<IoCounterRow> Total { get; }

    private InstanceCounters(IReadOnlyList<IoCounterRow> transactional, IReadOnlyList<MaintenanceRow> maintenance,
        IReadOnlyList<ReplicationRow> replication, IReadOnlyList<IoCounterRow> total)
    {
        Transactional = transactional;
        Maintenance = maintenance;
        Replication = replication;
        Total = total;
    }

    public static InstanceCounters From(TestResults results) => From(results.Instances);

    public static InstanceCounters From(IEnumerable<InstanceResult> instances)
    {
        var list = instances.OrderBy(i => i.Index).ToList();
        return new InstanceCounters(
            list.Select(TransactionalRow).ToList(),
            list.Select(MaintenanceRowOf).ToList(),
            list.Select(ReplicationRowOf).ToList(),
            list.Select(TotalRow).ToList());
    }

    /// <summary>
    /// Transactional I/O: user-transaction DB reads and writes, log writes and (soft recovery) log
    /// replay reads. In a DatabaseBackup run the backup reads are the DB reads, as Jetstress shows them.
    /// </summary>
    public static IoCounterRow TransactionalRow(InstanceResult instance)
    {
        var dbRead = Figures.Combine(Figures.Of(instance.Stream(StreamNames.DatabaseRead)), Figures.Of(instance.Stream(StreamNames.BackupRead)));
        var dbWrite = Figures.Of(instance.Stream(StreamNames.DatabaseWrite));
        var logRead = Figures.Of(instance.Stream(StreamNames.LogRead));
        var logWrite = Figures.Of(instance.Stream(StreamNames.LogWrite));
        return Row(instance.Name, dbRead, dbWrite, logRead, logWrite);
    }

    public static MaintenanceRow MaintenanceRowOf(InstanceResult instance)
    {
        var bdm = Figures.Of(instance.Stream(StreamNames.MaintenanceRead));
        return new MaintenanceRow(instance.Name, bdm.Rate, bdm.Bytes);
    }

    public static ReplicationRow ReplicationRowOf(InstanceResult instance)
    {
        var rep = Figures.Of(instance.Stream(StreamNames.LogReplicationRead));
        return new ReplicationRow(instance.Name, rep.Rate, rep.Bytes);
    }

    /// <summary>Total I/O: transactional plus BDM (DB reads) plus replication (log reads).</summary>
    public static IoCounterRow TotalRow(InstanceResult instance)
    {
        var dbRead = Figures.Combine(Figures.Of(instance.Stream(StreamNames.DatabaseRead)), Figures.Of(instance.Stream(StreamNames.BackupRead)));
        var bdm = Figures.Of(instance.Stream(StreamNames.MaintenanceRead));
        var dbWrite = Figures.Of(instance.Stream(StreamNames.DatabaseWrite));
        var logRead = Figures.Of(instance.Stream(StreamNames.LogRead));
        var rep = Figures.Of(instance.Stream(StreamNames.LogReplicationRead));
        var logWrite = Figures.Of(instance.Stream(StreamNames.LogWrite));

        // DB read latency stays transactional: Jetstress prints the same figure in both tables.
        var totalDbRead = bdm.Rate <= 0 ? dbRead : new Figures(dbRead.Rate + bdm.Rate, WeightedBytes(dbRead, bdm), dbRead.LatencyMs);
        var totalLogRead = Figures.Combine(logRead, rep);
        return Row(instance.Name, totalDbRead, dbWrite, totalLogRead, logWrite);
    }

    /// <summary>Rate-weighted mean of average sizes: (r1 x b1 + r2 x b2) / (r1 + r2).</summary>
    public static double WeightedBytes(Figures a, Figures b)
    {
        double rate = a.Rate + b.Rate;
        return rate <= 0 ? 0 : (a.Rate * a.Bytes + b.Rate * b.Bytes) / rate;
    }

    /// <summary>Rate-weighted mean latency (the mean over all I/Os of both streams).</summary>
    public static double WeightedLatency(Figures a, Figures b)
    {
        double rate = a.Rate + b.Rate;
        return rate <= 0 ? 0 : (a.Rate * a.LatencyMs + b.Rate * b.LatencyMs) / rate;
    }

    private static IoCounterRow Row(string name, Figures dbRead, Figures dbWrite, Figures logRead, Figures logWrite) =>
        new(name,
            dbRead.LatencyMs, dbWrite.LatencyMs, dbRead.Rate, dbWrite.Rate, dbRead.Bytes, dbWrite.Bytes,
            logRead.LatencyMs, logWrite.LatencyMs, logRead.Rate, logWrite.Rate, logRead.Bytes, logWrite.Bytes);

    /// <summary>The three figures of a stream the Jetstress tables use; zeros when the stream did not run.</summary>
    public readonly record struct Figures(double Rate, double Bytes, double LatencyMs)
    {
        public static Figures Of(StreamResult? s) =>
            s is null ? default : new Figures(s.OperationsPerSecond, s.AverageBytes, s.LatencyMs.Mean);

        /// <summary>Two streams counted as one (rates add, sizes and latencies rate-weighted); exact when one is idle.</summary>
        public static Figures Combine(Figures a, Figures b) =>
            b.Rate <= 0 ? a : a.Rate <= 0 ? b : new Figures(a.Rate + b.Rate, WeightedBytes(a, b), WeightedLatency(a, b));
    }
}
