using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Reports;

/// <summary>What a re-judgement judges differently: each null keeps the run's own (the request's report fields, JetstressCmd's /rejudge).</summary>
public sealed record RejudgeSettings(
    double? FaultAtSeconds = null, double? FaultLengthSeconds = null, double? StallLimitSeconds = null,
    ThresholdOverrides? Thresholds = null, double? WindowFromSeconds = null, double? WindowToSeconds = null)
{
    public static RejudgeSettings From(EngineRequest request) => new(request.FaultAtSeconds, request.FaultLengthSeconds, request.StallLimitSeconds,
        request.Thresholds, request.WindowFromSeconds, request.WindowToSeconds);
}

/// <summary>
/// A stored run judged again (docs/failure-mode.md, "Re-judging"): another fault window, another stall limit, other
/// thresholds, or only a sub-window of its measured window, through the same judgement as the live run
/// (<see cref="RunJudgement"/>), so the same window gives the same figures. <see cref="Prepare"/> checks everything
/// and judges in memory; <see cref="Save"/> writes the new results beside the source under a name of its own
/// (<c>&lt;source&gt;.rejudged-&lt;yyyyMMdd-HHmmss&gt;</c>, UTC, then -2, -3 ...): nothing is ever written over.
/// </summary>
public static class Rejudging
{
    public const string WindowSource = "Rejudged";

    /// <summary>
    /// <paramref name="r"/> (loaded from <paramref name="sourcePath"/>) judged again with <paramref name="s"/>, in place.
    /// Refused (FaultWindowInvalid and the number rules' codes), naming the file and the value, when the run cannot be judged so.
    /// </summary>
    public static TestResults Prepare(TestResults r, string sourcePath, RejudgeSettings s, DateTime nowUtc)
    {
        string file = Path.GetFileName(sourcePath);
        Refuse(Contract.FaultRules.FaultAt.Check(s.FaultAtSeconds));
        Refuse(Contract.FaultRules.FaultLength.Check(s.FaultLengthSeconds));
        Refuse(Contract.FaultRules.StallLimit.Check(s.StallLimitSeconds));
        if (!TestTypes.Of(r.TestType).Transactional)
            throw Invalid($"'{sourcePath}' is a {r.TestType} test: only a {TestTypes.TransactionalNames} run has a measured load window to judge again.", sourcePath);
        if (r.FailureMode is not { } fm || r.Timeline.CollectionStartUtc is not DateTime start || PartialWindow.MeasuredSeconds(r) is not double measured || r.TimeSeries.Count == 0)
            throw Invalid($"'{sourcePath}' holds no failure-mode figures (the per-second series of its volumes and its interval samples): it was written before they were recorded, or its measured window never began, and cannot be judged again.", sourcePath);

        // The stored window's end to the second, as the run's own duration was given (a window's clock ends a few ms off it).
        double whole = Math.Round(measured);
        double judgedFrom = s.WindowFromSeconds ?? 0, judgedTo = s.WindowToSeconds ?? whole;
        if (s.WindowFromSeconds is double wf && (double.IsNaN(wf) || wf < 0 || wf >= whole))
            throw Invalid(F($"windowFromSeconds {wf:0.###} lies outside the {whole:0.###} s measured window of '{file}': give 0 or more and less than its end."), F($"{wf:0.###}"));
        if (s.WindowToSeconds is double wt && (double.IsNaN(wt) || wt <= judgedFrom || wt > whole))
            throw Invalid(F($"windowToSeconds {wt:0.###} lies outside the judged part of the {whole:0.###} s measured window of '{file}': give more than windowFromSeconds ({judgedFrom:0.###}) and at most its end."), F($"{wt:0.###}"));

        var stored = fm.Window;
        if (s.FaultLengthSeconds is not null && s.FaultAtSeconds is null && stored is null)
            throw Invalid($"faultLengthSeconds needs faultAtSeconds: '{file}' declared no fault window to lengthen.", RequestFields.FaultLengthSeconds);
        double? at = s.FaultAtSeconds ?? stored?.AtSeconds;
        double length = s.FaultLengthSeconds ?? (s.FaultAtSeconds is null && stored is not null ? stored.LengthSeconds : Contract.FaultRules.DefaultFaultLengthSeconds);
        var window = stored;
        if (at is double a && (stored is null || stored.AtSeconds != a || stored.LengthSeconds != length))
        {
            if (a + length > whole)
                throw Invalid(F($"The fault window {a:0.###}-{a + length:0.###} s (faultAtSeconds {a:0.###}, faultLengthSeconds {length:0.###}) ends after the {whole:0.###} s measured window of '{file}': move it earlier or shorten it."), F($"{a:0.###}"));
            if (Contract.FaultRules.Check(a, length, null, whole, r.TestType) is { } v) throw Invalid($"'{file}': {v.Message}", v.Target);
            window = new FaultWindow { AtSeconds = a, LengthSeconds = length, StartUtc = start.AddSeconds(a), EndUtc = start.AddSeconds(a + length), Source = WindowSource };
        }
        if (window is not null)
        {
            double end = window.AtSeconds + window.LengthSeconds;
            if (window.AtSeconds < judgedFrom || end > judgedTo + 1e-9)
                throw Invalid(F($"The fault window {window.AtSeconds:0.###}-{end:0.###} s of '{file}' does not lie inside the judged sub-window {judgedFrom:0.###}-{judgedTo:0.###} s."), F($"{window.AtSeconds:0.###}"));
            if (!fm.VolumeSeries.Any(x => x.ElapsedSeconds >= Math.Floor(window.AtSeconds) && x.ElapsedSeconds < end))
                throw Invalid(F($"'{file}' holds no per-second series of its volumes for the fault window {window.AtSeconds:0.###}-{end:0.###} s (its series covers {fm.VolumeSeriesSpan}): that window cannot be judged."), F($"{window.AtSeconds:0.###}"));
        }

        var thresholds = r.Settings.Thresholds.With(s.Thresholds);
        double stallLimit = s.StallLimitSeconds ?? (fm.StallLimitSeconds > 0 ? fm.StallLimitSeconds : Contract.FaultRules.DefaultStallLimitSeconds);
        var changes = Changes(r, fm, stored, window, stallLimit, thresholds, s, judgedFrom, judgedTo, whole);
        string original = r.Verdict.Result;

        fm.Window = window;
        r.Settings.Thresholds = thresholds;
        fm.Rejudged = new Rejudgement
        {
            SourcePath = sourcePath, SourceTestId = r.TestId, JudgedUtc = nowUtc, OriginalResult = original,
            WindowFromSeconds = s.WindowFromSeconds, WindowToSeconds = s.WindowToSeconds is null ? null : judgedTo, Changes = changes,
        };
        var lines = RunJudgement.Judge(r, thresholds, stallLimit);
        r.CalculatorCheck = CalculatorCheck.For(r);
        r.CaptureCheck = CaptureCheck.For(r);
        void Log(string message) => r.TestLog.Add(new TestLogLine { TimeUtc = nowUtc, Message = message });
        Log($"Re-judgement of {r.TestId} ({file}): {string.Join("; ", changes)}.");
        foreach (string line in lines) Log(line);
        Log($"Re-judged overall test result: {r.Verdict.Result} (judged live: {original})" + (r.Verdict.Reasons.Count > 0 ? " - " + string.Join(" ", r.Verdict.Reasons.Select(x => x.Message)) : ""));
        return r;
    }

    /// <summary>What is judged differently, in words; "nothing ..." when the run is judged again as it was.</summary>
    private static List<string> Changes(TestResults r, FailureModeResult fm, FaultWindow? stored, FaultWindow? window, double stallLimit, Thresholds thresholds,
        RejudgeSettings s, double judgedFrom, double judgedTo, double measured)
    {
        var changes = new List<string>();
        if (!ReferenceEquals(window, stored) && window is not null)
            changes.Add(F($"fault window {window.LengthSeconds:0.###} s from {window.AtSeconds:0.###} s into the measured window ") +
                        (stored is null ? "(the run declared none)" : F($"(the run declared {stored.LengthSeconds:0.###} s from {stored.AtSeconds:0.###} s)")));
        if (fm.StallLimitSeconds > 0 && stallLimit != fm.StallLimitSeconds)
            changes.Add(F($"stall limit {stallLimit:0.###} s (the run's {fm.StallLimitSeconds:0.###} s)"));
        var before = Limits(r.Settings.Thresholds);
        var after = Limits(thresholds);
        foreach (var (field, value) in after)
            if (before[field] != value) changes.Add(F($"{field} {value:0.###} (the run's {before[field]:0.###})"));
        if (s.WindowFromSeconds is not null || s.WindowToSeconds is not null)
            changes.Add(F($"only {judgedFrom:0.###}-{judgedTo:0.###} s of the {measured:0.###} s measured window judged"));
        if (changes.Count == 0) changes.Add("nothing judged differently: the run's own window, stall limit and thresholds, by this engine's rules");
        return changes;
    }

    private static Dictionary<string, double> Limits(Thresholds t) => new()
    {
        [ThresholdFields.AverageDatabaseReadLatencyMs] = t.AverageDatabaseReadLatencyMs,
        [ThresholdFields.MaximumDatabaseReadLatencyMs] = t.MaximumDatabaseReadLatencyMs,
        [ThresholdFields.AverageLogWriteLatencyMs] = t.AverageLogWriteLatencyMs,
        [ThresholdFields.MaximumLogWriteLatencyMs] = t.MaximumLogWriteLatencyMs,
        [ThresholdFields.MaximumPageFaultStallsPerSecond] = t.MaximumPageFaultStallsPerSecond,
    };

    /// <summary>
    /// Saves <paramref name="r"/> beside its source under the first name no file of the folder has, as results or as any
    /// report of it (<see cref="ReportWriter.FileName"/>); returns the path. The reports written after it take its stem.
    /// </summary>
    public static string Save(TestResults r, string sourcePath, DateTime nowUtc)
    {
        string folder = Path.GetDirectoryName(Path.GetFullPath(sourcePath))!;
        string stem = FreeStem(folder, Path.GetFileNameWithoutExtension(sourcePath), nowUtc);
        return ResultsFile.SaveNew(r, folder, stem);
    }

    /// <summary>"&lt;base&gt;.rejudged-20261129-001500", or with -2, -3 ... when a file of that name (results or report) is there.</summary>
    public static string FreeStem(string folder, string baseName, DateTime nowUtc)
    {
        string first = $"{baseName}.rejudged-{nowUtc.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}";
        for (int n = 1; ; n++)
        {
            string stem = n == 1 ? first : $"{first}-{n}";
            if (!Taken(folder, stem)) return stem;
        }
    }

    private static bool Taken(string folder, string stem) =>
        File.Exists(Path.Combine(folder, stem + ".json")) ||
        Enum.GetValues<ReportFormats>().Where(f => f != ReportFormats.None && (f & (f - 1)) == 0)
            .Any(f => File.Exists(Path.Combine(folder, ReportWriter.FileName(stem, f))));

    private static void Refuse(Contract.Violation? v)
    {
        if (v is not null) throw EngineException.Refused(v);
    }

    private static EngineException Invalid(string message, string? target) => EngineException.Refused(ErrorCodes.FaultWindowInvalid, message, target);

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
