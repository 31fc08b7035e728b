using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The time series as RFC 4180 CSV (CRLF, invariant numbers), one row per sample, instance and
/// stream ("long" layout: filters and pivots in any tool, no fixed column set to break).
/// WindowElapsedSeconds is the sample's end in seconds from the start of the measured window the file
/// describes (timeline.collectionStartUtc; results-schema.md, timeSeries[].elapsedSeconds), not from the load's start.
/// </summary>
public static class CsvReport
{
    public const string Header = "TimeUtc,WindowElapsedSeconds,Host,Instance,InstanceName,Stream,OperationsPerSecond,AverageBytes,AverageLatencyMs,P99LatencyMs,MaxLatencyMs";

    public static string Render(TestResults results)
    {
        var r = results;
        var names = r.Instances.ToDictionary(i => i.Index, i => i.Name);
        string host = Quote(r.Environment.MachineName);
        var sb = new StringBuilder(64 + r.TimeSeries.Count * 110);
        sb.Append(Header).Append("\r\n");
        int lastInstance = int.MinValue;
        string lastName = "";
        foreach (var p in r.TimeSeries)
        {
            JetFormat.AppendIso(sb, p.TimeUtc).Append(',');
            JetFormat.AppendNumber(sb, p.ElapsedSeconds).Append(',').Append(host).Append(',').Append(p.Instance).Append(',');
            if (p.Instance != lastInstance)
            {
                lastInstance = p.Instance;
                lastName = Quote(names.TryGetValue(p.Instance, out var n) ? n : $"Instance.{p.Instance}");
            }
            sb.Append(lastName).Append(',').Append(Quote(p.Stream)).Append(',');
            JetFormat.AppendNumber(sb, p.OperationsPerSecond).Append(',');
            JetFormat.AppendNumber(sb, p.AverageBytes).Append(',');
            JetFormat.AppendNumber(sb, p.AverageLatencyMs).Append(',');
            JetFormat.AppendNumber(sb, p.P99LatencyMs).Append(',');
            JetFormat.AppendNumber(sb, p.MaxLatencyMs).Append("\r\n");
        }
        return sb.ToString();
    }

    /// <summary>Quotes a field only when it needs it (comma, quote, CR or LF).</summary>
    public static string Quote(string s) =>
        s.AsSpan().IndexOfAny(",\"\r\n") < 0 ? s : "\"" + s.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
