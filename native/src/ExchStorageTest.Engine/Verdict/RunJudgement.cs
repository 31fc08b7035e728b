using System.Globalization;
using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// A run's judgement, the one entry point of the live run and of a re-judgement of its stored results: the Exchange rules
/// (<see cref="VerdictJudge"/>) over the whole measured window, or — when a fault window was declared or a sub-window is
/// judged — over its steady state (<see cref="SteadyStateView"/>) with the fault window judged apart
/// (<see cref="FailureModeJudge"/>). Sets <see cref="TestResults.Verdict"/> and the failure-mode judgement; returns the
/// test-log lines that say it. Results without failure-mode figures (older files, tests without a load window) are judged
/// as they always were.
/// </summary>
public static class RunJudgement
{
    public static IReadOnlyList<string> Judge(TestResults r, Thresholds t, double stallLimitSeconds)
    {
        var lines = new List<string>();
        if (r.FailureMode is not { } fm)
        {
            r.Verdict = VerdictJudge.Judge(r, t);
            return lines;
        }
        fm.StallLimitSeconds = stallLimitSeconds;
        var window = fm.Window;
        foreach (var s in fm.Stalls) s.InFaultWindow = window is not null && FaultAnalysis.In(window, s.StartUtc);
        var excluded = FailureModeJudge.Excluded(r);
        if (excluded.Count == 0)
        {
            fm.Fault = null;
            fm.SteadyState = null;
            r.Verdict = VerdictJudge.Judge(r, t);
        }
        else
        {
            var steady = VerdictJudge.Judge(SteadyStateView.Of(r, excluded), t);
            fm.SteadyState = steady;
            if (window is null)
            {
                fm.Fault = null;
                r.Verdict = new VerdictResult { Result = steady.Result, Reasons = steady.Reasons.ToList() };
            }
            else
            {
                fm.Fault = FailureModeJudge.Fault(r, window, t, stallLimitSeconds);
                r.Verdict = FailureModeJudge.Overall(r, steady, fm.Fault, window, stallLimitSeconds);
                lines.Add(F($"Fault window ({window.LengthSeconds:0.###} s from {window.AtSeconds:0.###} s into the measured window{(window.Source == "Declared" ? "" : ", " + window.Source.ToLowerInvariant())}): {fm.Fault.Summary}"));
            }
        }
        foreach (var s in fm.Stalls)
            lines.Add("Storage stalled: " + StorageStallRule.Describe(s) + (s.InFaultWindow ? " (in the fault window)"
                : s.LengthSeconds >= stallLimitSeconds ? F($" - at or past the stall limit of {stallLimitSeconds:0.###} s: the run fails ({StorageStallRule.Code})")
                : F($" (under the stall limit of {stallLimitSeconds:0.###} s: named, not failed)")));
        return lines;
    }

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
