using System.Globalization;
using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// What a run that did not complete (Stopped, Failed, Interrupted) measured before its end, in the one wording the
/// verdict and every report use: how long its measured window ran against the planned one, or the phase it ended in
/// when no window began (a stopped run's figures are kept and labelled, never read as a whole run's).
/// </summary>
public static class PartialWindow
{
    /// <summary>Seconds of the measured window that ran (to its end, or to the last checkpoint); null when none began.</summary>
    public static double? MeasuredSeconds(TestResults r) =>
        r.Timeline.CollectionStartUtc is DateTime start
            ? Math.Max(0, ((r.Timeline.CollectionEndUtc ?? r.Timeline.TestEndUtc) - start).TotalSeconds)
            : null;

    /// <summary>
    /// Whether the transactional figures (achieved IOPS) were measured: always for a complete run (a measured zero is
    /// a finding), and for one that ended early only when some transaction was counted. Otherwise a report leaves them
    /// empty rather than print a zero nobody measured.
    /// </summary>
    public static bool TransactionsMeasured(TestResults r) =>
        r.Completion == Completions.Complete || TransactionalIops.Operations(r.Instances) > 0;

    /// <summary>Whether the final database size was recorded: a run that ended early may end before it (a checkpoint always does).</summary>
    public static bool FinalSizeMeasured(TestResults r) =>
        r.Completion == Completions.Complete || r.Sizing.FinalDatabaseSizeBytes > 0;

    /// <summary>
    /// "Stopped 120 s into the 600 s measured window (20%): the figures cover those 120 s only", "Stopped during Tuning,
    /// before the measured window began: no figure of the test was measured"; null for a complete run.
    /// </summary>
    public static string? Describe(TestResults r)
    {
        if (r.Completion == Completions.Complete) return null;
        string how = r.Completion switch
        {
            Completions.Stopped => "Stopped",
            Completions.Interrupted => "Interrupted (last seen " + r.Timeline.TestEndUtc.ToString("yyyy-MM-dd HH:mm:ss", CultureInfo.InvariantCulture) + " UTC)",
            _ => "Ended by an error",
        };
        if (r.Capacity is { } capacity)
            return $"{how} after {Wording.Count(capacity.Steps.Count, "finished step")} of the capacity search: its answer covers those steps only";
        if (r.TestType is TestType.DatabaseBackup or TestType.SoftRecovery)
            return F($"{how} {(r.Timeline.TestEndUtc - r.Timeline.TestStartUtc).TotalSeconds:F0} s into the test, during {Phase(r)}: the figures cover what ran until then");
        if (MeasuredSeconds(r) is double seconds)
        {
            double planned = r.Settings.DurationSeconds;
            string of = planned > 0 ? F($" of the {planned:F0} s planned ({Math.Min(100, seconds / planned * 100):F0}%)") : "";
            return F($"{how} {seconds:F0} s into the measured window{of}: the figures cover those {seconds:F0} s only");
        }
        return F($"{how} during {Phase(r)}, before the measured window began: no figure of the test was measured");
    }

    /// <summary>The phase the run was in when it ended (the last one begun), or "preparation" when none was marked.</summary>
    private static string Phase(TestResults r) => r.Timeline.Phases.Count > 0 ? r.Timeline.Phases[^1].Name : "preparation";

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
