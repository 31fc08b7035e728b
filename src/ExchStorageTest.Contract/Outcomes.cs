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

        /// <summary>
        /// A run stopped before its end (<see cref="Completions.Stopped"/>) that measured nothing a longer run could undo:
        /// not passed, and not failed either. A stopped run that did earn a Fail (an I/O error, a latency sample above its
        /// maximum) is Fail. Jetstress automation reads anything but "Pass" as not passed (docs/results-schema.md).
        /// </summary>
        public const string Stopped = Completions.Stopped;

        /// <summary>A checkpoint of a run that never finished (<see cref="Completions.Interrupted"/>): not passed, no verdict reached.</summary>
        public const string Interrupted = Completions.Interrupted;

        /// <summary>The desired-state check's <c>lastResult</c> when no result of the profile was found (never a run's verdict).</summary>
        public const string NotRun = "NotRun";

        public static string Of(bool passed) => passed ? Pass : Fail;

        /// <summary>
        /// The verdict of several runs taken as one (the hosts of one run, the tests of a suite): Fail when any failed, else
        /// Interrupted or Stopped when any was, else Pass; Fail for none.
        /// </summary>
        public static string Combine(IEnumerable<string> results)
        {
            bool any = false, stopped = false, interrupted = false;
            foreach (string result in results)
            {
                any = true;
                if (result == Interrupted) interrupted = true;
                else if (result == Stopped) stopped = true;
                else if (result != Pass) return Fail;
            }
            return !any ? Fail : interrupted ? Interrupted : stopped ? Stopped : Pass;
        }
    }

    /// <summary>
    /// Verdict reason codes (results-schema.md, <c>verdict.reasons[].code</c>; a capacity answer's <c>limitingRule</c>) that
    /// the module acts on, spelled once for both halves.
    /// </summary>
    public static class ReasonCodes
    {
        /// <summary>
        /// The host, not the storage, explains every failed load rule of the window (results-schema.md "Host
        /// evidence"): the Fail stands, but it says nothing about the storage; a capacity answer limited by it is a lower bound.
        /// </summary>
        public const string HostLimited = "HostLimited";
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

        /// <summary>The run was stopped while tuning: no count was chosen, and none was shown to fail.</summary>
        public const string Stopped = "Stopped";
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

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The kinds of report file the engine writes (docs/results-schema.md, "Renderings"). Every event that names report
    /// files names each one's kind too (<c>reports[]</c> of <c>kind</c> and <c>path</c>), so no reader finds a report by its
    /// file name. A run's own renderings are named as the report command's formats are (Get-TestReport -Format).
    /// </summary>
    public static class ReportKinds
    {
        /// <summary>The Jetstress-style text report of one run.</summary>
        public const string Text = "Text";
        /// <summary>The Jetstress-style HTML report of one run: the page an admin opens next.</summary>
        public const string Html = "Html";
        public const string Xml = "Xml";
        /// <summary>The time series as CSV.</summary>
        public const string Csv = "Csv";
        /// <summary>The PerfMon-loadable counter log.</summary>
        public const string PdhCsv = "PdhCsv";
        /// <summary>One run's ESRP tables as text.</summary>
        public const string Esrp = "Esrp";
        /// <summary>One run's ESRP page.</summary>
        public const string EsrpHtml = "EsrpHtml";
        /// <summary>The text of several results together: the merged hosts of one run, or a suite's tests with the ESRP document.</summary>
        public const string AggregateText = "AggregateText";
        /// <summary>The ESRP tables of several hosts of one run (text, HTML).</summary>
        public const string AggregateEsrp = "AggregateEsrp";
        public const string AggregateEsrpHtml = "AggregateEsrpHtml";
        /// <summary>The ESRP document of a submission (the suite's tests), as text and HTML.</summary>
        public const string SubmissionEsrp = "SubmissionEsrp";
        public const string SubmissionEsrpHtml = "SubmissionEsrpHtml";
        /// <summary>A deployment's capacity search (hosts that stepped together).</summary>
        public const string CapacityHtml = "CapacityHtml";
        /// <summary>Separate runs compared: the text, and the page with every run on the same charts.</summary>
        public const string ComparisonText = "ComparisonText";
        public const string ComparisonHtml = "ComparisonHtml";

        /// <summary>The HTML pages a report object offers as the one to open (a run's report, a deployment's capacity, a comparison), in that preference.</summary>
        public static readonly string[] Pages = { Html, CapacityHtml, ComparisonHtml };
    }
}
