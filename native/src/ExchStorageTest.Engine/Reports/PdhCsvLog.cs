using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The time series as a PerfMon-readable counter log (PDH-CSV 4.0, what relog -f csv writes):
/// a header row whose first field is "(PDH-CSV 4.0) (zone name)(bias minutes)", then one column
/// per counter path <c>\\MACHINE\MSExchange Database ==> Instances(Instance.1)\Counter</c>,
/// one row per sample time in local time "MM/dd/yyyy HH:mm:ss.fff", every field quoted, CRLF.
/// Counters follow the Jetstress tables: DB reads/writes are transactional (in a backup run, the
/// backup reads), log reads include replication reads, BDM has its own two counters.
/// </summary>
public static class PdhCsvLog
{
    public const string ObjectName = "MSExchange Database ==> Instances";

    /// <summary>The per-instance counters, in column order.</summary>
    public static readonly IReadOnlyList<string> CounterNames = IoCounterRow.CounterNames
        .Concat(MaintenanceRow.ColumnNames).ToArray();

    public static string Render(TestResults results, TimeZoneInfo zone)
    {
        var r = results;
        string machine = string.IsNullOrEmpty(r.Environment.MachineName) ? "LOCALHOST" : r.Environment.MachineName;
        var instances = r.TimeSeries.Select(p => p.Instance).Distinct().OrderBy(i => i).ToList();
        var sb = new StringBuilder(256 + r.TimeSeries.Count * 40);

        // Bias as Windows stores it: minutes to add to local time to get UTC (positive west of Greenwich).
        int bias = -(int)Math.Round(zone.BaseUtcOffset.TotalMinutes);
        string zoneName = zone == TimeZoneInfo.Utc ? "UTC" : zone.StandardName;
        Field(sb, $"(PDH-CSV 4.0) ({zoneName})({bias.ToString(JetFormat.Culture)})", first: true);
        foreach (int i in instances)
        {
            string instance = ReportText.InstanceName(r, i);
            foreach (var counter in CounterNames)
                Field(sb, $@"\\{machine}\{ObjectName}({instance})\{counter}");
        }
        sb.Append("\r\n");

        var values = new double[CounterNames.Count];
        foreach (var sample in r.TimeSeries.GroupBy(p => p.TimeUtc).OrderBy(g => g.Key))
        {
            var local = JetFormat.ToZone(sample.Key, zone);
            Field(sb, local.ToString("MM/dd/yyyy HH:mm:ss.fff", JetFormat.Culture), first: true);
            var byInstance = sample.GroupBy(p => p.Instance).ToDictionary(g => g.Key, g => g.ToList());
            foreach (int i in instances)
            {
                Values(byInstance.TryGetValue(i, out var points) ? points : new List<SamplePoint>(), values);
                foreach (double v in values) JetFormat.AppendNumber(sb.Append(",\""), v, 6).Append('"');
            }
            sb.Append("\r\n");
        }
        return sb.ToString();
    }

    /// <summary>One instance's counters at one sample time, derived like the Transactional table.</summary>
    private static void Values(List<SamplePoint> points, double[] v)
    {
        InstanceCounters.Figures F(string stream)
        {
            var p = points.Find(x => x.Stream == stream);
            return p is null ? default : new InstanceCounters.Figures(p.OperationsPerSecond, p.AverageBytes, p.AverageLatencyMs);
        }
        var dbRead = InstanceCounters.Figures.Combine(F(StreamNames.DatabaseRead), F(StreamNames.BackupRead));
        var dbWrite = F(StreamNames.DatabaseWrite);
        var logRead = InstanceCounters.Figures.Combine(F(StreamNames.LogRead), F(StreamNames.LogReplicationRead));
        var logWrite = F(StreamNames.LogWrite);
        var bdm = F(StreamNames.MaintenanceRead);
        v[0] = dbRead.LatencyMs; v[1] = dbWrite.LatencyMs; v[2] = dbRead.Rate; v[3] = dbWrite.Rate; v[4] = dbRead.Bytes; v[5] = dbWrite.Bytes;
        v[6] = logRead.LatencyMs; v[7] = logWrite.LatencyMs; v[8] = logRead.Rate; v[9] = logWrite.Rate; v[10] = logRead.Bytes; v[11] = logWrite.Bytes;
        v[12] = bdm.Rate; v[13] = bdm.Bytes;
    }

    private static void Field(StringBuilder sb, string value, bool first = false)
    {
        if (!first) sb.Append(',');
        sb.Append('"').Append(value.Replace("\"", "\"\"", StringComparison.Ordinal)).Append('"');
    }
}
