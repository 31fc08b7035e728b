using System.Text.Json;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Cli.Commands;

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
        bool reportsSaved = ReportFiles.WriteDefault(results, events, out var reports);
        Write(events, results, reports);
        if (results.Completion == Completions.Stopped) return EngineExit.Stopped;
        return results.SaveError is null && reportsSaved ? EngineExit.Ran : EngineExit.Error;
    }

    public static void Write(Engine.Protocol.EventWriter events, TestResults r, IReadOnlyList<ReportFile> reports)
    {
        events.Emit(EventTypes.Result, w =>
        {
            w.WriteString(EventFields.Result.TestId, r.TestId);
            w.WriteString(EventFields.Result.TestType, r.TestType.ToString());
            w.WriteString(EventFields.Result.Verdict, r.Verdict.Result);
            w.WriteString(EventFields.Result.Completion, r.Completion);
            w.WriteStartArray(EventFields.Result.Reasons);
            WriteReasons(w, r, host: null);
            w.WriteEndArray();
            if (r.TestType == TestType.DatabaseBackup)
            {
                // A backup has no transactions: its figures are MB/s, not an IOPS of 0 against a target it never aimed at.
                w.WriteStartObject(EventFields.Result.Backup);
                w.WriteNumber(EventFields.Result.BackupFigures.MBPerSecondPerDatabase, Math.Round(r.Backup?.AverageMBPerSecond ?? 0, 3));
                w.WriteNumber(EventFields.Result.BackupFigures.MBPerSecond, Math.Round(r.Backup?.TotalMBPerSecond ?? 0, 3));
                w.WriteNumber(EventFields.Result.BackupFigures.Seconds, Math.Round(r.Backup?.ElapsedSeconds ?? 0, 3));
                w.WriteEndObject();
            }
            else if (r.TestType != TestType.SoftRecovery)
            {
                // A soft recovery replays logs: its database I/O rate is the replay's, not transactional IOPS against the
                // profile's target; its figures are the softRecovery object's below.
                w.WriteNumber(EventFields.Result.TargetIops, Math.Round(r.Sizing.TargetTransactionalIops, 3));
                // A run stopped before it counted a transaction has no achieved IOPS: absent, not a measured 0.
                if (r.Settings.LoadModel == "StreamMix" || PartialWindow.TransactionsMeasured(r))
                    w.WriteNumber(EventFields.Result.AchievedIops, Math.Round(AchievedIops(r), 3));
            }
            if (r.SoftRecovery is { } replay)
            {
                w.WriteStartObject(EventFields.Result.SoftRecovery);
                w.WriteNumber(EventFields.Result.SoftRecoveryFigures.LogsReplayed, replay.LogsReplayedTotal);
                w.WriteNumber(EventFields.Result.SoftRecoveryFigures.Seconds, Math.Round(replay.ReplaySeconds, 3));
                w.WriteNumber(EventFields.Result.SoftRecoveryFigures.SecondsPerLog, Math.Round(replay.SecondsPerLog, 4));
                w.WriteEndObject();
            }
            Latency(w, EventFields.Result.DbReadLatencyMs, r, StreamNames.DatabaseRead);
            Latency(w, EventFields.Result.DbWriteLatencyMs, r, StreamNames.DatabaseWrite);
            Latency(w, EventFields.Result.LogWriteLatencyMs, r, StreamNames.LogWrite);
            if (r.Settings.LoadModel == "StreamMix") Streams(w, r);
            if (r.Capacity is { } capacity) CapacityFieldsWriter.Write(w, EventFields.Result.Capacity, capacity);
            if ((r.CalculatorCheck ?? CalculatorCheck.For(r)) is { } check) CalculatorCheckWriter.Write(w, EventFields.Result.CalculatorCheck, check);
            if ((r.CaptureCheck ?? CaptureCheck.For(r)) is { } captured) CaptureCheckWriter.Write(w, EventFields.Result.CaptureCheck, captured);
            if (r.Capacity is { Answer.Mailboxes: > 0 } searched && r.Profile.Calculator is { } targets)
                w.WriteString(EventFields.Result.CalculatorHeadroom, Engine.Reports.CapacityReport.CalculatorHeadroom(searched.Answer, targets, 1));
            if (r.FailureMode is { } failureMode)
            {
                w.WriteNumber(EventFields.Result.StallCount, failureMode.Stalls.Count);
                if (FailureModeReport.Summary(r) is { } faultLine) w.WriteString(EventFields.Result.FaultSummary, faultLine);
            }
            if (r.Settings.StartAtUtc is DateTime start) w.WriteString(EventFields.Result.StartAtUtc, start);
            if (r.Settings.MeasureAtUtc is DateTime agreed) w.WriteString(EventFields.Result.MeasureAtUtc, agreed);
            if (r.Timeline.CollectionStartUtc is DateTime measured) w.WriteString(EventFields.Result.MeasuringStartUtc, measured);
            w.WriteString(EventFields.Result.IoBackend, r.Environment.IoBackend);
            w.WriteBoolean(EventFields.Result.DirectIo, r.Environment.DirectIo);
            w.WriteString(EventFields.Result.ResultsPath, r.SavedPath ?? "");
            w.WriteStartArray(EventFields.Result.ReportPaths);
            foreach (var f in reports) w.WriteStringValue(f.Path);
            w.WriteEndArray();
            ReportFiles.WriteKinds(w, EventFields.Result.Reports, reports);
        });
    }

    /// <summary>The verdict's failing rules, entries of a <c>reasons</c> array; with <paramref name="host"/>, each instance is named "host/instance" (several hosts in one report).</summary>
    internal static void WriteReasons(Utf8JsonWriter w, TestResults r, string? host)
    {
        foreach (var reason in r.Verdict.Reasons)
        {
            w.WriteStartObject();
            w.WriteString(EventFields.Result.Reason.Code, reason.Code);
            string? instance = host is null ? reason.Instance : reason.Instance is null ? host : $"{host}/{reason.Instance}";
            if (instance is not null) w.WriteString(EventFields.Result.Reason.Instance, instance);
            w.WriteString(EventFields.Result.Reason.Message, reason.Message);
            if (reason.Measured is double m) w.WriteNumber(EventFields.Result.Reason.Measured, Math.Round(m, 3));
            if (reason.Limit is double l) w.WriteNumber(EventFields.Result.Reason.Limit, l);
            w.WriteEndObject();
        }
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
        w.WriteStartArray(EventFields.Result.Streams);
        foreach (var i in r.Instances)
        {
            foreach (var s in i.Streams)
            {
                w.WriteStartObject();
                w.WriteString(EventFields.Result.Stream.Name, i.Name);
                w.WriteString(EventFields.Result.Stream.Operation, s.Operation);
                w.WriteNumber(EventFields.Result.Stream.Iops, Math.Round(s.OperationsPerSecond, 1));
                w.WriteNumber(EventFields.Result.Stream.AverageBytes, Math.Round(s.AverageBytes));
                w.WriteNumber(EventFields.Result.Stream.MeanLatencyMs, Math.Round(s.LatencyMs.Mean, 3));
                w.WriteNumber(EventFields.Result.Stream.P99LatencyMs, Math.Round(s.LatencyMs.P99, 3));
                w.WriteNumber(EventFields.Result.Stream.MeanQueueDepth, Math.Round(s.MeanQueueDepth, 2));
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
        if (n == 0) return; // nothing of this stream measured (a backup writes nothing): no latency of 0 is invented
        w.WriteStartObject(name);
        w.WriteNumber(EventFields.Result.Latency.Average, Math.Round(sumMeans / n, 3));
        w.WriteNumber(EventFields.Result.Latency.P99, Math.Round(merged.Percentile(99) / 1e6, 3));
        w.WriteNumber(EventFields.Result.Latency.Max, Math.Round(merged.MaxNs / 1e6, 3));
        w.WriteEndObject();
    }
}
