using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The time series as RFC 4180 CSV (CRLF, invariant numbers), one row per sample, instance and
/// stream ("long" layout: filters and pivots in any tool, no fixed column set to break).
/// </summary>
public static class CsvReport
{
    public const string Header = "TimeUtc,ElapsedSeconds,Host,Instance,InstanceName,Stream,OperationsPerSecond,AverageBytes,AverageLatencyMs,P99LatencyMs,MaxLatencyMs";

    public static string Render(TestResults results)
    {
        var r = results;
        var names = r.Instances.ToDictionary(i => i.Index, i => i.Name);
        string host = Quote(r.Environment.MachineName);
        var sb = new StringBuilder(64 + r.TimeSeries.Count * 110);
        sb.Append(Header).Append("\r\n");
        foreach (var p in r.TimeSeries)
        {
            sb.Append(JetFormat.Iso(p.TimeUtc)).Append(',')
              .Append(JetFormat.Number(p.ElapsedSeconds)).Append(',')
              .Append(host).Append(',')
              .Append(JetFormat.Integer(p.Instance)).Append(',')
              .Append(Quote(names.TryGetValue(p.Instance, out var n) ? n : $"Instance.{p.Instance}")).Append(',')
              .Append(Quote(p.Stream)).Append(',')
              .Append(JetFormat.Number(p.OperationsPerSecond)).Append(',')
              .Append(JetFormat.Number(p.AverageBytes)).Append(',')
              .Append(JetFormat.Number(p.AverageLatencyMs)).Append(',')
              .Append(JetFormat.Number(p.P99LatencyMs)).Append(',')
              .Append(JetFormat.Number(p.MaxLatencyMs)).Append("\r\n");
        }
        return sb.ToString();
    }

    /// <summary>Quotes a field only when it needs it (comma, quote, CR or LF).</summary>
    public static string Quote(string s) =>
        s.AsSpan().IndexOfAny(",\"\r\n") < 0 ? s : "\"" + s.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
