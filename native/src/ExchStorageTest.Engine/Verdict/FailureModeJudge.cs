using System.Globalization;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// A fault window judged apart from the steady state (docs/failure-mode.md): its rules over the figures of
/// <see cref="FaultAnalysis"/>, the spans the steady state leaves out, and the overall verdict of the two. Pure.
/// <list type="bullet">
/// <item><see cref="IoErrorsCode"/>: any I/O error the engine saw in the window (the application saw it: a database
/// would have failed).</item>
/// <item><see cref="StallTooLongCode"/>: the window's longest stall past the stall limit.</item>
/// <item><see cref="NotRecoveredCode"/>: a volume not back inside the window.</item>
/// </list>
/// Storage events of the system log in the window are counted, not failed: the stack retried or failed over and the
/// application never saw it, which is what a tolerated fault looks like.
/// </summary>
public static class FailureModeJudge
{
    public const string IoErrorsCode = "FaultIoErrors";
    public const string StallTooLongCode = "FaultStallTooLong";
    public const string NotRecoveredCode = "FaultNotRecovered";
    /// <summary>The run ended before the window did: the fault is not judged (unless what ran of it already failed a rule).</summary>
    public const string NotJudgedCode = "FaultNotJudged";

    /// <summary>The window's figures and its rules; <see cref="FaultJudgement.Summary"/> is the overall verdict's (<see cref="Overall"/>).</summary>
    public static FaultJudgement Fault(TestResults r, FaultWindow window, Thresholds t, double stallLimitSeconds)
    {
        var j = FaultAnalysis.Of(r, window, t);
        double end = window.AtSeconds + window.LengthSeconds;
        bool ended = r.Completion == Completions.Complete || PartialWindow.MeasuredSeconds(r) >= end;
        if (j.IoErrors > 0)
        {
            var where = j.Volumes.Where(v => v.IoErrors > 0)
                .Select(v => $"{v.IoErrors} on {v.Volume}" + (v.ErrorNames.Count > 0 ? $" ({string.Join(", ", v.ErrorNames)})" : ""));
            j.Reasons.Add(new VerdictReason
            {
                Code = IoErrorsCode, Measured = j.IoErrors, Limit = 0,
                Message = $"{Wording.Count(j.IoErrors, "I/O error")} reached the application in the fault window: {string.Join("; ", where)}. The storage did not hide the fault; a database would have failed.",
            });
        }
        if (j.LongestStallSeconds > stallLimitSeconds && j.Volumes.Find(v => v.Volume == j.LongestStallVolume) is { } stalled)
            j.Reasons.Add(new VerdictReason
            {
                Code = StallTooLongCode, Measured = j.LongestStallSeconds, Limit = stallLimitSeconds,
                Message = F($"The longest stall in the fault window, on {stalled.Volume} at {stalled.LongestStallStartUtc:yyyy-MM-dd HH:mm:ss} UTC with {Wording.Count(stalled.InFlightThroughStall, "I/O")} in flight, lasted {j.LongestStallSeconds:0.0} s; the stall limit is {stallLimitSeconds:0.###} s{(stallLimitSeconds == FaultRules.DefaultStallLimitSeconds ? " (Windows MPIO fails a disk's I/O after all its paths are down that long, by default)" : "")}."),
            });
        if (ended)
        {
            var notBack = j.Volumes.Where(v => FaultAnalysis.Judged(v) && v.RecoverySeconds is null).ToList();
            if (notBack.Count > 0)
                j.Reasons.Add(new VerdictReason
                {
                    Code = NotRecoveredCode, Limit = window.LengthSeconds,
                    Message = F($"Not back within the fault window ({window.LengthSeconds:0.###} s from the fault's start): ") +
                              string.Join("; ", notBack.Select(v => F($"{v.Volume} (baseline {v.BaselineIops:0.#} IOPS at {v.BaselineLatencyMs:0.###} ms, {v.IopsLost:0} I/Os short of it)"))) +
                              F($" had no {Contract.FaultRules.RecoverySamples} seconds in a row at {Contract.FaultRules.RecoveredIopsShare * 100:0}% of their baseline IOPS and within their latency rule."),
                });
        }
        j.Result = j.Reasons.Count > 0 ? Contract.FaultOutcomes.NotTolerated : ended ? Contract.FaultOutcomes.Tolerated : Contract.FaultOutcomes.NotJudged;
        if (!ended)
            j.Reasons.Add(new VerdictReason
            {
                Code = NotJudgedCode, Limit = end, Measured = PartialWindow.MeasuredSeconds(r) is double ran ? Math.Round(ran, 3) : null,
                Message = F($"The run ended before the fault window did ({end:0.###} s into the measured window): ") +
                          (j.Result == Contract.FaultOutcomes.NotTolerated ? "what ran of it failed the rules above, which a longer run could not undo." : "the fault was not judged."),
            });
        return j;
    }

    /// <summary>
    /// The overall verdict (what scripts read as Pass or Fail): Pass only when the steady state passed and the fault was
    /// tolerated; the steady state's reasons, then the fault's. Sets the fault's one-line summary by it.
    /// </summary>
    public static VerdictResult Overall(TestResults r, VerdictResult steady, FaultJudgement fault, FaultWindow window, double stallLimitSeconds)
    {
        VerdictResult overall;
        if (r.Completion is Completions.Stopped or Completions.Interrupted)
        {
            // A run cut short fails only on final rules, the fault window's among them; its last reason says which way it went.
            var failed = steady.Reasons.Where(x => !VerdictJudge.IsCutReason(x.Code)).Concat(fault.Reasons.Where(x => x.Code != NotJudgedCode));
            overall = VerdictJudge.CutShort(r, failed);
            if (fault.Reasons.Find(x => x.Code == NotJudgedCode) is { } notJudged) overall.Reasons.Insert(overall.Reasons.Count - 1, notJudged);
        }
        else
        {
            string result = fault.Result == Contract.FaultOutcomes.NotTolerated ? Verdicts.Fail
                : steady.Result != Verdicts.Pass ? steady.Result
                : fault.Result == Contract.FaultOutcomes.Tolerated ? Verdicts.Pass : Verdicts.Fail;
            overall = new VerdictResult { Result = result, Reasons = steady.Reasons.Concat(fault.Reasons).ToList() };
        }
        fault.Summary = Summary(overall.Result, steady.Result, fault, window, stallLimitSeconds, r.FailureMode?.Reseed);
        return overall;
    }

    /// <summary>"Pass, fault tolerated: stalled 4.8 s on /mnt/db, recovered in 12 s, no errors".</summary>
    private static string Summary(string result, string steadyResult, FaultJudgement f, FaultWindow window, double stallLimitSeconds, ReseedRun? reseed)
    {
        string outcome = f.Result switch
        {
            Contract.FaultOutcomes.Tolerated => "fault tolerated",
            Contract.FaultOutcomes.NotTolerated => "fault not tolerated",
            _ => "fault not judged",
        };
        var parts = new List<string>
        {
            f.LongestStallSeconds > 0
                ? F($"stalled {f.LongestStallSeconds:0.0} s on {f.LongestStallVolume}") + (f.LongestStallSeconds > stallLimitSeconds ? F($" (limit {stallLimitSeconds:0.###} s)") : "")
                : "no stall",
        };
        if (f.Result == Contract.FaultOutcomes.NotJudged) parts.Add("the run ended before the window did");
        else if (f.RecoverySeconds is double back) parts.Add(F($"recovered in {back:0.#} s"));
        else if (f.Volumes.Any(FaultAnalysis.Judged)) parts.Add(F($"not recovered within {window.LengthSeconds:0.###} s"));
        else parts.Add("recovery not judged (no I/O before the fault)");
        parts.Add(f.IoErrors == 0 ? "no errors"
            : Wording.Count(f.IoErrors, "I/O error") + (f.Volumes.SelectMany(v => v.ErrorNames).Distinct().ToList() is { Count: > 0 } names ? $" ({string.Join(", ", names)})" : ""));
        if (f.SystemLogEvents > 0) parts.Add(Wording.Count(f.SystemLogEvents, "system-log event") + " in the window");
        if (reseed is not null) parts.Add(ReseedImpact.Line(reseed));
        string steady = steadyResult == Verdicts.Pass ? "" : $"; the steady state: {steadyResult}";
        return $"{result}, {outcome}: {string.Join(", ", parts)}{steady}";
    }

    /// <summary>
    /// The spans of the measured window the steady state leaves out: the fault window (widened outward to the stored
    /// samples), and around a judged sub-window everything outside it (its whole samples only are judged).
    /// </summary>
    public static List<ExcludedSpan> Excluded(TestResults r)
    {
        var spans = new List<ExcludedSpan>();
        var fm = r.FailureMode;
        if (fm is null) return spans;
        var edges = SampleBoundaries.Of(r);
        if (fm.Window is { } w)
        {
            var (from, to) = SampleBoundaries.Widen(edges, w.AtSeconds, w.AtSeconds + w.LengthSeconds);
            spans.Add(new ExcludedSpan(from, to, w.StartUtc, w.EndUtc));
        }
        if (fm.Rejudged is { } re && (re.WindowFromSeconds is not null || re.WindowToSeconds is not null) && r.Timeline.CollectionStartUtc is DateTime start)
        {
            double judgedFrom = re.WindowFromSeconds ?? 0, judgedTo = re.WindowToSeconds ?? double.PositiveInfinity;
            var (from, to) = SampleBoundaries.Narrow(edges, judgedFrom, judgedTo);
            spans.Add(new ExcludedSpan(double.NegativeInfinity, from, DateTime.MinValue, start.AddSeconds(judgedFrom)));
            if (!double.IsPositiveInfinity(judgedTo))
                spans.Add(new ExcludedSpan(to, double.PositiveInfinity, start.AddSeconds(judgedTo), DateTime.MaxValue));
        }
        return spans;
    }

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
