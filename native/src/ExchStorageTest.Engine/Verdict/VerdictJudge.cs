using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// Pass/Fail as Jetstress judges it (SPEC section 4), as a pure function of the results document
/// and the thresholds. Every failing rule becomes a reason with the measured value and the limit.
/// Latency "maximum" is the highest 15 s-sample average (Jetstress counters), not the worst I/O.
/// </summary>
public static class VerdictJudge
{
    /// <summary>The reason code of an achieved IOPS below the target (the HTML report colours its bar by it).</summary>
    public const string TargetIopsNotMet = "TargetIopsNotMet";

    public static VerdictResult Judge(TestResults r, Thresholds t)
    {
        var reasons = new List<VerdictReason>();
        long errors = 0;
        foreach (var inst in r.Instances)
            foreach (var s in inst.Streams) errors += s.ErrorCount;
        errors = Math.Max(errors, r.Errors.Count);
        bool loadTest = r.TestType is TestType.Performance or TestType.Stress or TestType.Throughput;
        if (loadTest)
        {
            foreach (var inst in r.Instances)
            {
                var read = inst.Stream(StreamNames.DatabaseRead);
                var log = inst.Stream(StreamNames.LogWrite);
                if (read is { Operations: > 0 })
                {
                    Above(reasons, "DatabaseReadLatencyAverage", inst.Name, "average database read latency", read.LatencyMs.Mean, t.AverageDatabaseReadLatencyMs, "ms");
                    Above(reasons, "DatabaseReadLatencyMaximum", inst.Name, "maximum database read latency (highest sample average)", read.MaxSampleAverageLatencyMs, t.MaximumDatabaseReadLatencyMs, "ms");
                }
                if (log is { Operations: > 0 })
                {
                    Above(reasons, "LogWriteLatencyAverage", inst.Name, "average log write latency", log.LatencyMs.Mean, t.AverageLogWriteLatencyMs, "ms");
                    Above(reasons, "LogWriteLatencyMaximum", inst.Name, "maximum log write latency (highest sample average)", log.MaxSampleAverageLatencyMs, t.MaximumLogWriteLatencyMs, "ms");
                }
                Above(reasons, "PageFaultStalls", inst.Name, "average Database Page Fault Stalls/sec", inst.PageFaultStallsPerSecond, t.MaximumPageFaultStallsPerSecond, "/s");
            }
            long transactionalOps = 0;
            foreach (var inst in r.Instances)
                transactionalOps += (inst.Stream(StreamNames.DatabaseRead)?.Operations ?? 0) + (inst.Stream(StreamNames.DatabaseWrite)?.Operations ?? 0);
            if (transactionalOps == 0)
                reasons.Add(new VerdictReason { Code = "NoMeasurements", Message = "No transactional I/O was measured: the run produced no samples to judge.", Measured = 0 });
            if (r.TestType != TestType.Throughput && r.Sizing.TargetTransactionalIops > 0 && r.Sizing.AchievedTransactionalIops < r.Sizing.TargetTransactionalIops)
                reasons.Add(new VerdictReason
                {
                    Code = TargetIopsNotMet,
                    Message = F($"Achieved transactional I/O per second {r.Sizing.AchievedTransactionalIops:F3} is below the target {r.Sizing.TargetTransactionalIops:F3}."),
                    Measured = r.Sizing.AchievedTransactionalIops,
                    Limit = r.Sizing.TargetTransactionalIops,
                });
            // The failures above are the storage's unless the host explains every one of them (issue 33). I/O errors
            // explain a window short of its load themselves (failed I/Os carry no throughput): the host is not claimed then.
            if (errors == 0 && HostLimit.Explain(r, t, reasons) is { } host) reasons.Add(host);
        }
        // ContinueOnError only keeps the run going to count them: an I/O error always fails the test.
        if (errors > 0) reasons.Add(IoErrors(errors, r.Errors.FirstOrDefault()));
        if (r.TuningOutcome == TuningOutcomes.Failed)
            reasons.Add(new VerdictReason { Code = "TuningFailed", Message = "Automatic tuning found no thread count that meets the target IOPS within the latency thresholds." });
        foreach (var inst in r.Instances)
            if (inst.ChecksumErrors > 0)
                reasons.Add(new VerdictReason { Code = "ChecksumMismatch", Instance = inst.Name, Message = $"{inst.Name} read {Wording.Count(inst.ChecksumErrors, "page")} whose identity or checksum was wrong ({First(inst.ChecksumProblems)}).", Measured = inst.ChecksumErrors, Limit = 0 });
        if (r.Checksum is { } c && (c.BadPages > 0 || c.BadLogs > 0))
            reasons.Add(new VerdictReason { Code = "ChecksumFailed", Message = $"The checksum pass found {Wording.Count(c.BadPages, "bad page")} and {Wording.Count(c.BadLogs, "bad log file")} ({First(c.Problems)}).", Measured = c.BadPages + c.BadLogs, Limit = 0 });
        if (r.SystemLog is { } systemLog && systemLog.StorageErrorCount > 0)
        {
            var first = systemLog.Events.First(e => e.Judged);
            reasons.Add(new VerdictReason
            {
                Code = "SystemLogStorageErrors",
                Message = $"The system log has {Wording.Count(systemLog.StorageErrorCount, "storage error")} on the test's devices in the test window (first: {first.Provider}{(first.EventId is int id ? " " + id : "")}: {first.Message}).",
                Measured = systemLog.StorageErrorCount,
                Limit = 0,
            });
        }
        if (r.Capacity is { } capacity && capacity.Answer.Mailboxes < r.Profile.MailboxCount)
            reasons.Add(new VerdictReason
            {
                Code = "CapacityBelowRequirement",
                Message = capacity.Answer.Mailboxes == 0
                    ? $"No step of the capacity search passed: the storage does not carry the profile's {r.Profile.MailboxCount} mailboxes."
                    : capacity.Answer.LowerBound
                        ? $"The search found the storage carrying {capacity.Answer.Mailboxes} mailboxes, fewer than the profile's {r.Profile.MailboxCount}, but the host limited it ({HostLimit.Code} at {capacity.Answer.LimitingMailboxes}): the storage carries at least {capacity.Answer.Mailboxes}, how many more this host could not show."
                        : $"The storage carries {capacity.Answer.Mailboxes} mailboxes, fewer than the profile's {r.Profile.MailboxCount}" + (capacity.Answer.LimitingRule is string rule ? $" (limited by {rule} at {capacity.Answer.LimitingMailboxes})." : "."),
                Measured = capacity.Answer.Mailboxes,
                Limit = r.Profile.MailboxCount,
            });
        if (r.Completion == Completions.Stopped)
            reasons.Add(new VerdictReason { Code = "RunStopped", Message = "The run was stopped before its end; the verdict covers only what was measured." });
        if (r.Completion == Completions.Failed)
            reasons.Add(new VerdictReason { Code = "RunFailed", Message = "The run ended early because of an error." });
        return new VerdictResult { Result = reasons.Count == 0 ? Verdicts.Pass : Verdicts.Fail, Reasons = reasons };
    }

    /// <summary>
    /// The verdict a checkpoint carries: if it is the last one saved, the run never finished, and
    /// nothing can pass on that. Replaced by the real verdict when the run ends.
    /// </summary>
    public static VerdictResult Interrupted(DateTime lastSeenUtc) => new()
    {
        Result = Verdicts.Fail,
        Reasons =
        {
            new VerdictReason
            {
                Code = "RunInterrupted",
                Message = F($"The run was interrupted: the engine was last seen at {lastSeenUtc:yyyy-MM-dd HH:mm:ss} UTC and never finished (killed, crashed, or its host stopped). The samples up to then are kept; no verdict was reached."),
            },
        },
    };

    private static void Above(List<VerdictReason> reasons, string code, string instance, string what, double measured, double limit, string unit)
    {
        if (!(measured > limit)) return;
        reasons.Add(new VerdictReason
        {
            Code = code,
            Instance = instance,
            Message = F($"{instance} has {measured:F3} {unit} {what}; the limit is {limit:G} {unit}."),
            Measured = Math.Round(measured, 3),
            Limit = limit,
        });
    }

    /// <summary>The IoErrors reason: how many, and the first one's detail when kept.</summary>
    public static VerdictReason IoErrors(long errors, IoErrorRecord? first) => new()
    {
        Code = "IoErrors", Measured = errors, Limit = 0,
        Message = $"{Wording.Count(errors, "I/O error")} occurred; a single I/O error fails the test (first: {(first is null ? "no detail kept" : $"{first.ErrorName} on {first.File} at offset {first.Offset}")}).",
    };
    private static string First(List<string> problems) => problems.Count == 0 ? "no detail kept" : problems[0];
    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
