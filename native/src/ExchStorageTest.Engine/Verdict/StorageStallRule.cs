using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// Stalls outside a declared fault window (docs/failure-mode.md): each is named (volume, instant, length) wherever the
/// run is told; one as long as the stall limit fails the run (<see cref="Code"/>) — the limit is what the host's
/// multipath stack holds a disk's I/O before it fails it (<see cref="Contract.FaultRules.DefaultStallLimitSeconds"/>),
/// so storage that stalls that long without a declared fault takes the database down. Shorter ones are named, not
/// failed: a host too busy to reap completions can look like a short stall.
/// </summary>
public static class StorageStallRule
{
    public const string Code = "StorageStalled";

    /// <summary>The stalls the rule judges: those that began outside the fault window.</summary>
    public static IEnumerable<StallRecord> Undeclared(TestResults r) => r.FailureMode?.Stalls.Where(s => !s.InFaultWindow) ?? Enumerable.Empty<StallRecord>();

    /// <summary>The <see cref="Code"/> reason for the undeclared stalls at or past the limit; null when none.</summary>
    public static VerdictReason? Judge(TestResults r)
    {
        if (r.FailureMode is not { } fm) return null;
        var over = Undeclared(r).Where(s => s.LengthSeconds >= fm.StallLimitSeconds).ToList();
        if (over.Count == 0) return null;
        const int Named = 5;
        string named = string.Join("; ", over.Take(Named).Select(Describe)) + (over.Count > Named ? $"; and {over.Count - Named} more" : "");
        return new VerdictReason
        {
            Code = Code,
            Message = F($"Storage stalled (I/O outstanding, nothing completing) for the stall limit of {fm.StallLimitSeconds:0.###} s or longer outside a declared fault window: {named}."),
            Measured = Math.Round(over.Max(s => s.LengthSeconds), 3),
            Limit = fm.StallLimitSeconds,
        };
    }

    /// <summary>"/mnt/db at 2026-11-29 00:01:05 UTC (65.0 s into the measured window) for 25.0 s, 32 I/Os in flight".</summary>
    public static string Describe(StallRecord s) =>
        F($"{s.Volume} at {s.StartUtc:yyyy-MM-dd HH:mm:ss} UTC ({s.StartSeconds:0.0} s into the measured window) for {s.LengthSeconds:0.0} s") +
        (s.Ended ? "" : ", still stalled when the run ended") + (s.InFlight > 0 ? $", {Wording.Count(s.InFlight, "I/O")} in flight" : "");

    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
