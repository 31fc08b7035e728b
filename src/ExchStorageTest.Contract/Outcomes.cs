using System.Collections.Generic;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The verdict words (results-schema.md, <c>verdict.result</c>; the result, report, verify and validation events'
    /// <c>result</c>): what a run, a checksum pass or a capacity step was judged. Spelled once for both halves, so the
    /// module reads what the engine writes.
    /// </summary>
    public static class Verdicts
    {
        public const string Pass = "Pass";
        public const string Fail = "Fail";

        /// <summary>The desired-state check's <c>lastResult</c> when no result of the profile was found (never a run's verdict).</summary>
        public const string NotRun = "NotRun";

        public static string Of(bool passed) => passed ? Pass : Fail;
    }

    /// <summary>How far a run got (results-schema.md, <c>completion</c>; the result event's).</summary>
    public static class Completions
    {
        /// <summary>The whole measured window (or backup, or replay) ran.</summary>
        public const string Complete = "Complete";

        /// <summary>Stopped (Ctrl+C, the control channel's <c>stop</c>): the partial window was judged and saved.</summary>
        public const string Stopped = "Stopped";

        /// <summary>An I/O worker or the run failed; what was measured was judged and saved.</summary>
        public const string Failed = "Failed";

        /// <summary>A checkpoint of a run that never finished (the process was killed): written at the last sample interval.</summary>
        public const string Interrupted = "Interrupted";
    }

    /// <summary>Automatic tuning's outcome (results-schema.md, <c>tuning.outcome</c>).</summary>
    public static class TuningOutcomes
    {
        public const string NotRun = "NotRun";
        public const string Succeeded = "Succeeded";
        public const string Failed = "Failed";
    }

    /// <summary>
    /// Why a capacity search ended (results-schema.md, <c>capacity.stopReason</c>; the control channel's <c>end</c>): the
    /// engine's own search and an orchestrator stepping several hosts give the same reasons, decided for both by
    /// <see cref="CapacitySequence.Decide"/> where the sequence or the bound ends the search.
    /// </summary>
    public static class CapacityStopReasons
    {
        public const string Resolved = "Resolved";
        public const string TimeBoundReached = "TimeBoundReached";
        public const string MaximumReached = "MaximumReached";
        public const string Failed = "Failed";
        public const string Stopped = "Stopped";

        public static readonly IReadOnlyList<string> All = new[] { Resolved, TimeBoundReached, MaximumReached, Failed, Stopped };
    }
}
