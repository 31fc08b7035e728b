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

    /// <summary>The reason code of I/O errors in the window (a capacity step failed by them ends the search as the storage's).</summary>
    public const string IoErrorsCode = "IoErrors";

    /// <summary>
    /// The rules a run that ended early still fails on: what a longer window could not undo (an I/O error, a bad page,
    /// a storage error in the system log, a sample average above its maximum: the window's highest only rises, and a
    /// finished tuning search that failed). Averages, the achieved IOPS and a capacity answer are judged over the whole
    /// window, which a stopped run does not have: they are not its reasons.
    /// </summary>
    private static readonly HashSet<string> FinalRules = new(StringComparer.Ordinal)
    {
        "DatabaseReadLatencyMaximum", "PassiveReplayReadLatencyMaximum", "LogWriteLatencyMaximum", IoErrorsCode, "TuningFailed", "ChecksumMismatch", "ChecksumFailed", "SystemLogStorageErrors",
        StorageStallRule.Code,
    };

    public static VerdictResult Judge(TestResults r, Thresholds t)
    {
        var reasons = new List<VerdictReason>();
        // Stopped, or a checkpoint that stands for a run that never finished: only final rules can fail it.
        bool cut = r.Completion is Completions.Stopped or Completions.Interrupted;
        long errors = 0;
        foreach (var inst in r.Instances)
            foreach (var s in inst.Streams) errors += s.ErrorCount;
        errors = Math.Max(errors, r.Errors.Count);
        bool loadTest = TestTypes.Of(r.TestType).Transactional;
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
                // The passive copies' replay reads are database page reads on the same disk (docs/load-model.md, "Passive
                // copies on a volume"): judged by the database read limits. Absent in the Jetstress model.
                if (inst.Stream(StreamNames.PassiveReplayRead) is { Operations: > 0 } replay)
                {
                    Above(reasons, "PassiveReplayReadLatencyAverage", inst.Name, "average passive-copy replay read latency", replay.LatencyMs.Mean, t.AverageDatabaseReadLatencyMs, "ms");
                    Above(reasons, "PassiveReplayReadLatencyMaximum", inst.Name, "maximum passive-copy replay read latency (highest sample average)", replay.MaxSampleAverageLatencyMs, t.MaximumDatabaseReadLatencyMs, "ms");
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
            // Storage that stalled past the limit outside a declared fault window (none is declared in most runs).
            if (StorageStallRule.Judge(r) is { } stalled) reasons.Add(stalled);
            if (cut) reasons.RemoveAll(x => !FinalRules.Contains(x.Code));
            // The failures above are the storage's unless the host explains every one of them. I/O errors
            // explain a window short of its load themselves (failed I/Os carry no throughput): the host is not claimed then.
            if (errors == 0 && MachineLimit.Explain(r, t, reasons) is { } host) reasons.Add(host);
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
        // A search cut short shows the profile's count is not carried only where a finished step at or below it failed.
        if (r.Capacity is { } capacity && capacity.Answer.Mailboxes < r.Profile.MailboxCount
            && (!cut || capacity.Steps.Exists(s => !s.Passed && s.Mailboxes <= r.Profile.MailboxCount)))
            reasons.Add(new VerdictReason
            {
                Code = "CapacityBelowRequirement",
                Message = capacity.Answer.Mailboxes == 0
                    ? $"No step of the capacity search passed: the storage does not carry the profile's {r.Profile.MailboxCount} mailboxes."
                    : capacity.Answer.LowerBound
                        ? $"The search found the storage carrying {capacity.Answer.Mailboxes} mailboxes, fewer than the profile's {r.Profile.MailboxCount}, but {(capacity.Answer.LowerBoundReason is MachineLimit.Code or null ? $"the host limited it ({MachineLimit.Code} at {capacity.Answer.LimitingMailboxes})" : $"the search ended ({capacity.Answer.LowerBoundReason}) before a step failed")}: the storage carries at least {capacity.Answer.Mailboxes}, how many more is not known."
                        : $"The storage carries {capacity.Answer.Mailboxes} mailboxes, fewer than the profile's {r.Profile.MailboxCount}" + (capacity.Answer.LimitingRule is string rule ? $" (limited by {rule} at {capacity.Answer.LimitingMailboxes})." : "."),
                Measured = capacity.Answer.Mailboxes,
                Limit = r.Profile.MailboxCount,
            });
        if (r.Completion == Completions.Failed)
            reasons.Add(new VerdictReason { Code = "RunFailed", Message = "The run ended early because of an error." });
        if (cut) return Cut(r, reasons);
        return new VerdictResult { Result = reasons.Count == 0 ? Verdicts.Pass : Verdicts.Fail, Reasons = reasons };
    }

    /// <summary>
    /// A run stopped or interrupted before its end: Fail on the final rules it failed, otherwise its own outcome
    /// (<see cref="Verdicts.Stopped"/>, <see cref="Verdicts.Interrupted"/>), never Pass; the last reason says what the
    /// partial window covered.
    /// </summary>
    private static VerdictResult Cut(TestResults r, List<VerdictReason> reasons)
    {
        bool stopped = r.Completion == Completions.Stopped;
        string what = stopped ? "The run was stopped before its end" : "The run never finished (killed, crashed, or its host stopped)";
        string verdict = reasons.Count > 0
            ? "; the rules above failed in what was measured, which a longer run could not undo."
            : "; nothing measured fails a rule that a longer run could not undo, so it neither passed nor failed.";
        reasons.Add(new VerdictReason { Code = stopped ? "RunStopped" : "RunInterrupted", Message = $"{what}. {PartialWindow.Describe(r)}{verdict}" });
        return new VerdictResult { Result = reasons.Count > 1 ? Verdicts.Fail : stopped ? Verdicts.Stopped : Verdicts.Interrupted, Reasons = reasons };
    }

    /// <summary>
    /// The verdict of a run cut short (<see cref="Completions.Stopped"/>, <see cref="Completions.Interrupted"/>) over the
    /// final rules it failed, wherever they were judged (the steady state's, a fault window's), with the last reason in
    /// the words that fit them.
    /// </summary>
    public static VerdictResult CutShort(TestResults r, IEnumerable<VerdictReason> failedFinalRules) => Cut(r, failedFinalRules.ToList());

    /// <summary>The reason codes <see cref="Cut"/> ends a cut run's reasons with.</summary>
    public static bool IsCutReason(string code) => code is "RunStopped" or "RunInterrupted";

    /// <summary>
    /// The verdict a checkpoint carries: if it is the last one saved, the run never finished (<paramref name="r"/> is
    /// marked Interrupted, its end the last time seen). Its measurements are collected only at the end, so nothing is
    /// judged: Interrupted, not passed. Replaced by the real verdict when the run ends.
    /// </summary>
    public static VerdictResult Interrupted(TestResults r) => Cut(r, new List<VerdictReason>());

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
        Code = IoErrorsCode, Measured = errors, Limit = 0,
        Message = $"{Wording.Count(errors, "I/O error")} occurred; a single I/O error fails the test (first: {(first is null ? "no detail kept" : $"{first.ErrorName} on {first.File} at offset {first.Offset}{(first.TimeUtc == default ? "" : F($", {first.TimeUtc:yyyy-MM-dd HH:mm:ss.f} UTC"))}")}).",
    };
    private static string First(List<string> problems) => problems.Count == 0 ? "no detail kept" : problems[0];
    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
