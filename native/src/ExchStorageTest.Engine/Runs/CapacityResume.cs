using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Resuming a capacity search (docs/capacity.md, "Stop and resume"), as the ESRP suite resumes: the same command again
/// continues the newest search of the same profile and thresholds in the output folder when it did not finish —
/// stopped, failed part-way or killed (its checkpoint). Its finished steps count as this run's, and the sequence goes
/// on from them on the database set the run attached; when that newest search finished, a new one starts.
/// </summary>
internal static class CapacityResume
{
    /// <summary>The newest unfinished search of this plan's profile and thresholds in its output folder, or null.</summary>
    public static TestResults? Find(RunContext ctx)
    {
        var folder = ctx.Plan.OutputPath;
        if (!Directory.Exists(folder)) return null;
        foreach (var path in Directory.EnumerateFiles(folder, "Capacity_*.json").OrderByDescending(File.GetLastWriteTimeUtc))
        {
            if (string.Equals(Path.GetFullPath(path), Path.GetFullPath(ctx.ResultsPath), StringComparison.Ordinal)) continue;
            TestResults previous;
            try { previous = ResultsFile.Load(path); }
            catch (Exception ex) when (ex is EngineException or IOException or UnauthorizedAccessException) { continue; }
            previous.SavedPath = path;
            // The newest search of this load decides: unfinished, it goes on; finished (or continued already), a new one starts.
            if (SameSearch(previous, ctx.Plan)) return Unfinished(previous) ? previous : null;
        }
        return null;
    }

    /// <summary>A capacity search that did not finish (Stopped, Failed part-way or Interrupted) and has a step to go on from.</summary>
    public static bool Unfinished(TestResults previous) =>
        previous.Capacity is { Steps.Count: > 0 } && previous.Completion is (Completions.Stopped or Completions.Interrupted or Completions.Failed);

    /// <summary>Whether <paramref name="previous"/> is a capacity search of the same load and the same rules as this plan's.</summary>
    public static bool SameSearch(TestResults previous, Planning.TestPlan plan)
    {
        if (previous.TestType != TestType.Capacity || previous.Capacity is null) return false;
        // A caller's steps followed the deployment's sequence, not this host's: an engine's search does not go on from them.
        if (previous.Capacity.SteppedBy != CapacityStepping.Engine || plan.CallerSteps) return false;
        var (a, b) = (previous.Profile, plan.Profile);
        bool sameLoad = a.MailboxCount == b.MailboxCount && a.IopsPerMailbox == b.IopsPerMailbox && a.HeadroomPercent == b.HeadroomPercent
            && a.MailboxSizeMB == b.MailboxSizeMB && a.DatabaseCount == b.DatabaseCount && a.CopiesPerDatabase == b.CopiesPerDatabase
            && a.BackgroundMaintenance == b.BackgroundMaintenance && a.MaximumDatabaseCacheMB == b.MaximumDatabaseCacheMB;
        var (t, u) = (previous.Settings.Thresholds, plan.Thresholds);
        bool sameRules = t.AverageDatabaseReadLatencyMs == u.AverageDatabaseReadLatencyMs && t.MaximumDatabaseReadLatencyMs == u.MaximumDatabaseReadLatencyMs
            && t.AverageLogWriteLatencyMs == u.AverageLogWriteLatencyMs && t.MaximumLogWriteLatencyMs == u.MaximumLogWriteLatencyMs
            && t.MaximumPageFaultStallsPerSecond == u.MaximumPageFaultStallsPerSecond;
        return sameLoad && sameRules;
    }
}
