using System.Linq;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The helper's rendering of one or more results files (PSTypeName ExchStorageTest.TestReport): the
    /// Jetstress-style text, the per-instance counters, the ESRP tables, the aggregate of the hosts of one run,
    /// the comparison of several runs, and the report files written. Numbers come from the results files;
    /// the whole event stays in <see cref="Raw"/>, so fields a newer helper adds are never lost.
    /// </summary>
    public sealed class TestReport
    {
        /// <summary>The test id of every results file rendered, in the order given.</summary>
        public TextList<string> TestId { get; set; } = TextList<string>.Empty;
        /// <summary>Pass only when every results file passed.</summary>
        public string? Result { get; set; }
        /// <summary>Separate runs among the results (more than one: see <see cref="Comparison"/>).</summary>
        public int Runs { get; set; }
        /// <summary>The most hosts of one run (more than one: see <see cref="Aggregate"/>).</summary>
        public int Hosts { get; set; }
        /// <summary>One run: its test type; null for several runs.</summary>
        public string? TestType { get; set; }
        /// <summary>One run: the target transactional IOPS, summed over its hosts; null for several runs (see <see cref="Comparison"/>).</summary>
        public double? TargetIops { get; set; }
        /// <summary>One run: the achieved transactional IOPS, summed over its hosts.</summary>
        public double? AchievedIops { get; set; }
        /// <summary>One run: the mean database read latency of its hosts, in milliseconds.</summary>
        public double? DbReadLatencyAvgMs { get; set; }
        /// <summary>One run: the mean log write latency of its hosts, in milliseconds.</summary>
        public double? LogWriteLatencyAvgMs { get; set; }
        /// <summary>Every failing rule of the verdicts rendered; with several hosts the instance names the host (host/Instance.1).</summary>
        public TextList<Reason> Reasons { get; set; } = TextList<Reason>.Empty;
        /// <summary>The report files of the runs: those written with -Format, and those each run wrote beside its results file.</summary>
        public TextList<string> ReportPath { get; set; } = TextList<string>.Empty;
        /// <summary>The HTML report among <see cref="ReportPath"/> (the run's, or the aggregate written with -Format Html), as the engine names it.</summary>
        public string? HtmlReportPath { get; set; }
        /// <summary>One row per instance and table (Transactional, Total): testId, machine, table, counters.</summary>
        public object?[] Instances { get; set; } = Array.Empty<object?>();
        /// <summary>The ESRP "Test results summary" tables: servers, aggregate, backup, softRecovery, deployment.</summary>
        public PSObject? Esrp { get; set; }
        /// <summary>The hosts of one run merged, or null for a single host.</summary>
        public ReportAggregate? Aggregate { get; set; }
        /// <summary>Several runs side by side (labels, rows with values and deltas), or null for one run.</summary>
        public PSObject? Comparison { get; set; }
        /// <summary>The report files written (none without -Format, or under -WhatIf).</summary>
        public TextList<string> Files { get; set; } = TextList<string>.Empty;
        /// <summary>The results files rendered.</summary>
        public TextList<string> ResultsPath { get; set; } = TextList<string>.Empty;
        /// <summary>The text report: one run, each merged run, and the comparison.</summary>
        public string? Text { get; set; }
        /// <summary>The helper's whole report event.</summary>
        public PSObject? Raw { get; set; }

        internal static TestReport FromEvent(JsonObject report)
        {
            JsonObject? summary = report.GetObject(EventFields.Report.Summary);
            return new TestReport
            {
                TestId = report.GetArray(EventFields.Report.TestIds).OfType<string>().ToArray(),
                Result = report.GetString(EventFields.Report.Result),
                Runs = (int)(report.GetNumber(EventFields.Report.Runs) ?? 0),
                Hosts = (int)(report.GetNumber(EventFields.Report.Hosts) ?? 0),
                TestType = summary?.GetString(EventFields.Report.Figures.TestType),
                TargetIops = summary?.GetNumber(EventFields.Report.Figures.TargetIops),
                AchievedIops = summary?.GetNumber(EventFields.Report.Figures.AchievedIops),
                DbReadLatencyAvgMs = summary?.GetNumber(EventFields.Report.Figures.DbReadLatencyAvgMs),
                LogWriteLatencyAvgMs = summary?.GetNumber(EventFields.Report.Figures.LogWriteLatencyAvgMs),
                Reasons = report.GetArray(EventFields.Report.Reasons).OfType<JsonObject>().Select(Reason.From).ToArray(),
                ReportPath = report.GetArray(EventFields.Report.ReportPaths).OfType<string>().ToArray(),
                HtmlReportPath = ReportFiles.Page(report, EventFields.Report.Reports),
                Instances = report.GetArray(EventFields.Report.Instances).Select(JsonToPowerShell.Convert).ToArray(),
                Esrp = report.GetObject(EventFields.Report.Esrp) is JsonObject esrp ? JsonToPowerShell.ToPSObject(esrp) : null,
                Aggregate = ReportAggregate.From(report.GetObject(EventFields.Report.Aggregate)),
                Comparison = report.GetObject(EventFields.Report.Comparison) is JsonObject comparison ? JsonToPowerShell.ToPSObject(comparison) : null,
                Files = report.GetArray(EventFields.Report.Files).OfType<string>().ToArray(),
                ResultsPath = report.GetArray(EventFields.Report.ResultsPaths).OfType<string>().ToArray(),
                Text = report.GetString(EventFields.Report.Text),
                Raw = RawEvent(report),
            };
        }

        /// <summary>The event as an object typed ExchStorageTest.ReportEvent, which displays as its field names (ExchStorageTest.Types.ps1xml), not its 16 KB of text again.</summary>
        private static PSObject RawEvent(JsonObject report)
        {
            PSObject raw = JsonToPowerShell.ToPSObject(report);
            raw.TypeNames.Insert(0, "ExchStorageTest.ReportEvent");
            return raw;
        }

        public override string ToString() => $"{string.Join(", ", TestId)} {Result}";
    }
}
