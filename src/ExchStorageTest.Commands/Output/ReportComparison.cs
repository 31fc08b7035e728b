using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// Separate runs side by side (PSTypeName ExchStorageTest.ReportComparison): what Get-TestReport returns when asked to
    /// compare (-Compare, or -Label). Each run is one <see cref="TestReport"/> of <see cref="Runs"/>, as it ran; the
    /// comparison's rows hold each metric's value per run and its delta from the first. Their figures are never added up.
    /// </summary>
    public sealed class ReportComparison
    {
        /// <summary>The runs' names, in order; the first is the baseline of every delta.</summary>
        public TextList<string> Labels { get; set; } = TextList<string>.Empty;
        /// <summary>What the comparison is, in words (separate runs, compared, not added up).</summary>
        public string? Statement { get; set; }
        /// <summary>Each run's own report, in the comparison's order.</summary>
        public TextList<TestReport> Runs { get; set; } = TextList<TestReport>.Empty;
        /// <summary>The metrics compared (typed ExchStorageTest.ComparisonRow): section, metric, values, deltaAbsolute, deltaPercent (NaN where a run has no such figure), better.</summary>
        public TextList<PSObject> Rows { get; set; } = TextList<PSObject>.Empty;
        /// <summary>What each run was (typed ExchStorageTest.ComparedRun): label, testType, hosts, machines, profile, startUtc, measuredSeconds, threadCount, result, completion, resultsPaths.</summary>
        public TextList<PSObject> RunFacts { get; set; } = TextList<PSObject>.Empty;
        /// <summary>The comparison's files written: its text and, with -Format Html, its page (none without -Format).</summary>
        public TextList<string> Files { get; set; } = TextList<string>.Empty;
        /// <summary>The comparison's HTML page among <see cref="Files"/>, or null.</summary>
        public string? HtmlReportPath { get; set; }
        /// <summary>The comparison as text.</summary>
        public string? Text { get; set; }

        internal static ReportComparison FromEvent(JsonObject fields, IReadOnlyList<TestReport> reports)
        {
            var facts = fields.GetArray(EventFields.Comparison.Runs).OfType<JsonObject>().ToList();
            return new ReportComparison
            {
                Labels = fields.GetArray(EventFields.Comparison.Labels).OfType<string>().ToArray(),
                Statement = fields.GetString(EventFields.Comparison.Statement),
                Runs = InComparedOrder(reports, facts),
                Rows = fields.GetArray(EventFields.Comparison.Rows).OfType<JsonObject>().Select(r => TestReport.Typed(JsonToPowerShell.ToPSObject(r), "ExchStorageTest.ComparisonRow")).ToArray(),
                RunFacts = facts.Select(r => TestReport.Typed(JsonToPowerShell.ToPSObject(r), "ExchStorageTest.ComparedRun")).ToArray(),
                Files = fields.GetArray(EventFields.Comparison.Files).OfType<string>().ToArray(),
                HtmlReportPath = ReportFiles.OfKind(fields, EventFields.Comparison.Reports, ReportKinds.ComparisonHtml).FirstOrDefault(),
                Text = fields.GetString(EventFields.Comparison.Text),
            };
        }

        /// <summary>The run reports in the order of the comparison's columns, matched by their results files.</summary>
        private static TestReport[] InComparedOrder(IReadOnlyList<TestReport> reports, IReadOnlyList<JsonObject> facts)
        {
            var ordered = new List<TestReport>();
            foreach (JsonObject run in facts)
            {
                var paths = run.GetArray("resultsPaths").OfType<string>().ToList();
                TestReport? report = reports.FirstOrDefault(r => !ordered.Contains(r) && r.ResultsPath.Any(paths.Contains));
                if (report != null) ordered.Add(report);
            }
            ordered.AddRange(reports.Where(r => !ordered.Contains(r)));
            return ordered.ToArray();
        }

        public override string ToString() => $"Comparison of {Runs.Count} runs: {string.Join(", ", Labels)}";
    }
}
