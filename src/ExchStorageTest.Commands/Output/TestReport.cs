using System.Linq;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The engine's rendering of one run (PSTypeName ExchStorageTest.TestReport): one results file, or the hosts of one run
    /// merged (<see cref="Aggregate"/>); or, for the tests of an ESRP suite, the one submission they make. The Jetstress-style
    /// text, the per-instance counters, the ESRP tables and the report files. Numbers come from the results files; the whole
    /// event stays in <see cref="Raw"/>, so fields a newer engine adds are never lost. Separate runs compared are a
    /// <see cref="ReportComparison"/> of these.
    /// </summary>
    public sealed class TestReport
    {
        /// <summary>The run's test id; the hosts' test ids of a multi-host run (or a submission's tests), comma-separated, on one line.</summary>
        public string? TestId { get; set; }
        /// <summary>The id of the run the hosts share (a multi-host or start-file run); null for a run of one host.</summary>
        public string? RunId { get; set; }
        /// <summary>Pass only when every results file passed.</summary>
        public string? Result { get; set; }
        /// <summary>1, but for an ESRP submission: the runs of its tests.</summary>
        public int Runs { get; set; }
        /// <summary>The hosts of the run (more than one: see <see cref="Aggregate"/>).</summary>
        public int Hosts { get; set; }
        /// <summary>One run: its test type; null for a submission of several tests.</summary>
        public string? TestType { get; set; }
        /// <summary>One run: the target transactional IOPS, summed over its hosts; null for a submission of several tests.</summary>
        public double? TargetIops { get; set; }
        /// <summary>One run: the achieved transactional IOPS, summed over its hosts.</summary>
        public double? AchievedIops { get; set; }
        /// <summary>One run: the mean database read latency of its hosts, in milliseconds.</summary>
        public double? DbReadLatencyAvgMs { get; set; }
        /// <summary>One run: the mean log write latency of its hosts, in milliseconds.</summary>
        public double? LogWriteLatencyAvgMs { get; set; }
        /// <summary>
        /// One run: its failure mode in one line (of several hosts, each host's, named); null when no host had a fault window,
        /// a stall or a re-judgement.
        /// </summary>
        public string? FailureMode { get; set; }
        /// <summary>Every failing rule of the verdicts rendered; with several hosts the instance names the host (host/Instance.1).</summary>
        public TextList<Reason> Reasons { get; set; } = TextList<Reason>.Empty;
        /// <summary>The report files of the runs: those written with -Format, and those each run wrote beside its results file.</summary>
        public TextList<string> ReportPath { get; set; } = TextList<string>.Empty;
        /// <summary>The HTML report among <see cref="ReportPath"/> (the run's, or the aggregate written with -Format Html), as the engine names it.</summary>
        public string? HtmlReportPath { get; set; }
        /// <summary>One row per instance and table (Transactional, Total), each with its counters.</summary>
        public TextList<ReportInstance> Instances { get; set; } = TextList<ReportInstance>.Empty;
        /// <summary>The ESRP "Test results summary" tables: servers, aggregate, backup, softRecovery, deployment (typed ExchStorageTest.EsrpTables, which reads as their names where it is text).</summary>
        public PSObject? Esrp { get; set; }
        /// <summary>The hosts of one run merged, or null for a single host.</summary>
        public ReportAggregate? Aggregate { get; set; }
        /// <summary>The report files written (none without -Format, or under -WhatIf).</summary>
        public TextList<string> Files { get; set; } = TextList<string>.Empty;
        /// <summary>The results files rendered.</summary>
        public TextList<string> ResultsPath { get; set; } = TextList<string>.Empty;
        /// <summary>The text report of the run (the hosts merged), or of the submission.</summary>
        public string? Text { get; set; }
        /// <summary>The engine's whole report event.</summary>
        public PSObject? Raw { get; set; }

        internal static TestReport FromEvent(JsonObject report)
        {
            JsonObject? summary = report.GetObject(EventFields.Report.Summary);
            return new TestReport
            {
                TestId = string.Join(", ", report.GetArray(EventFields.Report.TestIds).OfType<string>()),
                RunId = report.GetString(EventFields.Report.RunId),
                Result = report.GetString(EventFields.Report.Result),
                Runs = (int)(report.GetNumber(EventFields.Report.Runs) ?? 0),
                Hosts = (int)(report.GetNumber(EventFields.Report.Hosts) ?? 0),
                TestType = summary?.GetString(EventFields.Report.Figures.TestType),
                TargetIops = summary?.GetNumber(EventFields.Report.Figures.TargetIops),
                AchievedIops = summary?.GetNumber(EventFields.Report.Figures.AchievedIops),
                DbReadLatencyAvgMs = summary?.GetNumber(EventFields.Report.Figures.DbReadLatencyAvgMs),
                LogWriteLatencyAvgMs = summary?.GetNumber(EventFields.Report.Figures.LogWriteLatencyAvgMs),
                FailureMode = report.GetString(EventFields.Report.FaultSummary) is { Length: > 0 } fault ? fault : null,
                Reasons = report.GetArray(EventFields.Report.Reasons).OfType<JsonObject>().Select(Reason.From).ToArray(),
                ReportPath = report.GetArray(EventFields.Report.ReportPaths).OfType<string>().ToArray(),
                HtmlReportPath = ReportFiles.Page(report, EventFields.Report.Reports),
                Instances = report.GetArray(EventFields.Report.Instances).OfType<JsonObject>().Select(ReportInstance.From).ToArray(),
                Esrp = report.GetObject(EventFields.Report.Esrp) is JsonObject esrp ? Typed(JsonToPowerShell.ToPSObject(esrp), "ExchStorageTest.EsrpTables") : null,
                Aggregate = ReportAggregate.From(report.GetObject(EventFields.Report.Aggregate)),
                Files = report.GetArray(EventFields.Report.Files).OfType<string>().ToArray(),
                ResultsPath = report.GetArray(EventFields.Report.ResultsPaths).OfType<string>().ToArray(),
                Text = report.GetString(EventFields.Report.Text),
                Raw = RawEvent(report),
            };
        }

        /// <summary>The event as an object typed ExchStorageTest.ReportEvent, which displays as its field names (ExchStorageTest.Types.ps1xml), not its 16 KB of text again.</summary>
        private static PSObject RawEvent(JsonObject report) => Typed(JsonToPowerShell.ToPSObject(report), "ExchStorageTest.ReportEvent");

        /// <summary>An object of the event given a type name, whose ToString (ExchStorageTest.Types.ps1xml) is what Format-List and Export-Csv write of it.</summary>
        internal static PSObject Typed(PSObject value, string typeName)
        {
            value.TypeNames.Insert(0, typeName);
            return value;
        }

        public override string ToString() => $"{TestId} {Result}";
    }
}
