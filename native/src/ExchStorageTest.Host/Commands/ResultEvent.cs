using System.Text.Json;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Host.Commands;

/// <summary>
/// The "result" event: a summary of the results document (which stays the source of truth on disk).
/// Latency averages are the mean over instances (as Jetstress and ESRP report them); p99 comes from the
/// histograms merged across instances, never from averaging percentiles.
/// </summary>
internal static class ResultEvent
{
    /// <summary>
    /// The end of a run or streams command: reports, then the result event — always, even when a
    /// save failed (the error event before it says which). Exit code: 3 stopped, 1 when the results
    /// or a report could not be saved, else 0.
    /// </summary>
    public static int Finish(Engine.Protocol.EventWriter events, TestResults results)
    {
        bool reportsSaved = ReportFiles.WriteDefault(results, events, out var reportPaths);
        Write(events, results, reportPaths);
        if (results.Completion == "Stopped") return ExitCodes.Stopped;
        return results.SaveError is null && reportsSaved ? ExitCodes.Ran : ExitCodes.Error;
    }

    public static void Write(Engine.Protocol.EventWriter events, TestResults r, IReadOnlyList<string> reportPaths)
    {
        events.Emit("result", w =>
        {
            w.WriteString("testId", r.TestId);
            w.WriteString("testType", r.TestType.ToString());
            w.WriteString("result", r.Verdict.Result);
            w.WriteString("completion", r.Completion);
            w.WriteStartArray("reasons");
            foreach (var reason in r.Verdict.Reasons)
            {
                w.WriteStartObject();
                w.WriteString("code", reason.Code);
                if (reason.Instance is not null) w.WriteString("instance", reason.Instance);
                w.WriteString("message", reason.Message);
                if (reason.Measured is double m) w.WriteNumber("measured", Math.Round(m, 3));
                if (reason.Limit is double l) w.WriteNumber("limit", l);
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteNumber("targetIops", Math.Round(r.Sizing.TargetTransactionalIops, 3));
            w.WriteNumber("achievedIops", Math.Round(AchievedIops(r), 3));
            Latency(w, "dbReadLatencyMs", r, StreamNames.DatabaseRead);
            Latency(w, "dbWriteLatencyMs", r, StreamNames.DatabaseWrite);
            Latency(w, "logWriteLatencyMs", r, StreamNames.LogWrite);
            if (r.Settings.LoadModel == "StreamMix") Streams(w, r);
            if (r.Settings.StartAtUtc is DateTime start) w.WriteString("startAtUtc", start);
            if (r.Settings.MeasureAtUtc is DateTime agreed) w.WriteString("measureAtUtc", agreed);
            if (r.Timeline.CollectionStartUtc is DateTime measured) w.WriteString("measuringStartUtc", measured);
            w.WriteString("ioBackend", r.Environment.IoBackend);
            w.WriteBoolean("directIo", r.Environment.DirectIo);
            w.WriteString("resultsPath", r.SavedPath ?? "");
            w.WriteStartArray("reportPaths");
            foreach (var p in reportPaths) w.WriteStringValue(p);
            w.WriteEndArray();
        });
    }

    /// <summary>Transactional IOPS for a run; for the raw stream mix (no transactions) every stream's IOPS.</summary>
    private static double AchievedIops(TestResults r)
    {
        if (r.Settings.LoadModel != "StreamMix") return TransactionalIops.Achieved(r);
        double total = 0;
        foreach (var i in r.Instances)
            foreach (var s in i.Streams) total += s.OperationsPerSecond;
        return total;
    }

    /// <summary>The raw stream mix has no Exchange streams: each named stream's figures go in instead.</summary>
    private static void Streams(Utf8JsonWriter w, TestResults r)
    {
        w.WriteStartArray("streams");
        foreach (var i in r.Instances)
        {
            foreach (var s in i.Streams)
            {
                w.WriteStartObject();
                w.WriteString("name", i.Name);
                w.WriteString("operation", s.Operation);
                w.WriteNumber("iops", Math.Round(s.OperationsPerSecond, 1));
                w.WriteNumber("averageBytes", Math.Round(s.AverageBytes));
                w.WriteNumber("meanLatencyMs", Math.Round(s.LatencyMs.Mean, 3));
                w.WriteNumber("p99LatencyMs", Math.Round(s.LatencyMs.P99, 3));
                w.WriteNumber("meanQueueDepth", Math.Round(s.MeanQueueDepth, 2));
                w.WriteEndObject();
            }
        }
        w.WriteEndArray();
    }

    private static void Latency(Utf8JsonWriter w, string name, TestResults r, string stream)
    {
        var merged = new LatencyHistogram();
        double sumMeans = 0;
        int n = 0;
        foreach (var i in r.Instances)
        {
            var s = i.Stream(stream);
            if (s is null || s.Operations == 0) continue;
            sumMeans += s.LatencyMs.Mean;
            n++;
            merged.Add(HistogramMath.ToHistogram(s.Histogram));
        }
        w.WriteStartObject(name);
        w.WriteNumber("average", Math.Round(n == 0 ? 0 : sumMeans / n, 3));
        w.WriteNumber("p99", Math.Round(merged.Percentile(99) / 1e6, 3));
        w.WriteNumber("max", Math.Round(merged.MaxNs / 1e6, 3));
        w.WriteEndObject();
    }
}
