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
        public string[] TestId { get; set; } = Array.Empty<string>();
        /// <summary>Pass only when every results file passed.</summary>
        public string? Result { get; set; }
        /// <summary>Separate runs among the results (more than one: see <see cref="Comparison"/>).</summary>
        public int Runs { get; set; }
        /// <summary>The most hosts of one run (more than one: see <see cref="Aggregate"/>).</summary>
        public int Hosts { get; set; }
        /// <summary>One row per instance and table (Transactional, Total): testId, machine, table, counters.</summary>
        public object?[] Instances { get; set; } = Array.Empty<object?>();
        /// <summary>The ESRP "Test results summary" tables: servers, aggregate, backup, softRecovery, deployment.</summary>
        public PSObject? Esrp { get; set; }
        /// <summary>The hosts of one run merged, or null for a single host.</summary>
        public ReportAggregate? Aggregate { get; set; }
        /// <summary>Several runs side by side (labels, rows with values and deltas), or null for one run.</summary>
        public PSObject? Comparison { get; set; }
        /// <summary>The report files written (none without -Format, or under -WhatIf).</summary>
        public string[] Files { get; set; } = Array.Empty<string>();
        /// <summary>The results files rendered (the engine found them under the paths given).</summary>
        public string[] ResultsPath { get; set; } = Array.Empty<string>();
        /// <summary>The text report: one run, each merged run, and the comparison.</summary>
        public string? Text { get; set; }
        /// <summary>The helper's whole report event.</summary>
        public PSObject? Raw { get; set; }

        internal static TestReport FromEvent(JsonObject report) => new TestReport
        {
            TestId = report.GetArray(EventFields.Report.TestIds).OfType<string>().ToArray(),
            Result = report.GetString(EventFields.Report.Result),
            Runs = (int)(report.GetNumber(EventFields.Report.Runs) ?? 0),
            Hosts = (int)(report.GetNumber(EventFields.Report.Hosts) ?? 0),
            Instances = report.GetArray(EventFields.Report.Instances).Select(JsonToPowerShell.Convert).ToArray(),
            Esrp = report.GetObject(EventFields.Report.Esrp) is JsonObject esrp ? JsonToPowerShell.ToPSObject(esrp) : null,
            Aggregate = ReportAggregate.From(report.GetObject(EventFields.Report.Aggregate)),
            Comparison = report.GetObject(EventFields.Report.Comparison) is JsonObject comparison ? JsonToPowerShell.ToPSObject(comparison) : null,
            Files = report.GetArray(EventFields.Report.Files).OfType<string>().ToArray(),
            ResultsPath = report.GetArray(EventFields.Report.ResultsPaths).OfType<string>().ToArray(),
            Text = report.GetString(EventFields.Report.Text),
            Raw = JsonToPowerShell.ToPSObject(report),
        };

        public override string ToString() => $"{string.Join(", ", TestId)} {Result}";
    }
}
