using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Input;
using ExchStorageTest.Json;
using ExchStorageTest.Reports;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Get-TestReport: renders results files as report objects, one per run, and, with -Format, as report files. The engine
    /// finds the results documents under each path (a folder's whole tree), tells runs apart (the hosts of one run merge
    /// into its aggregate; separate runs are reported each on its own, and compared only when asked) and refuses what it
    /// cannot render before it writes anything; this command only gathers the paths, asks ShouldProcess and names the runs
    /// of a comparison.
    /// </summary>
    /// <remarks>
    /// The Rejudge parameter set (-FaultAt, -FaultLength, -StallLimit, -Thresholds, -From, -To) judges the stored runs
    /// again instead (<see cref="Rejudgement"/>): the engine writes new files beside each results file, so it asks
    /// ShouldProcess whether or not -Format is given, and -WhatIf sends nothing.
    /// </remarks>
    [Cmdlet(VerbsCommon.Get, "TestReport", HelpUri = HelpLinks.GetTestReport, DefaultParameterSetName = ReportSet, SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(TestReport), typeof(ReportComparison))]
    public sealed class GetTestReportCommand : StorageTestCmdlet
    {
        private const string ReportSet = "Report";
        private const string RejudgeSet = "Rejudge";

        // Each path given (argument or pipeline item), once: with -Label, each is one run.
        private readonly List<string> _paths = new List<string>();

        /// <summary>Results files or folders of runs; a TestResult binds by ResultsPath, a FileInfo by FullName.</summary>
        [Parameter(Mandatory = true, Position = 0, ValueFromPipeline = true, ValueFromPipelineByPropertyName = true)]
        [Alias("ResultsPath", "FullName")]
        [AllowNull, AllowEmptyString, AllowEmptyCollection] // a result without a results file is skipped; none at all is ResultsNotFound
        public string[]? Path { get; set; }

        [Parameter]
        [ValidateSet("Html", "Xml", "Csv", "Text", "PdhCsv", "Esrp", "EsrpHtml", "All")]
        public string[] Format { get; set; } = Array.Empty<string>();

        /// <summary>Where the report files go (the Report set only: a re-judgement writes beside each results file, never over one).</summary>
        [Parameter(ParameterSetName = ReportSet)]
        public string? OutputPath { get; set; }

        /// <summary>One label per path: each path (a results file, or a folder of one run's hosts) is one run of a comparison, named by its label.</summary>
        [Parameter(ParameterSetName = ReportSet)]
        [ValidateNotNullOrEmpty]
        public string[]? Label { get; set; }

        /// <summary>The vendor's ESRP metadata file: the tested-deployment rows no host can discover (docs/esrp.md).</summary>
        [Parameter]
        [ValidateNotNullOrEmpty]
        public string? MetadataPath { get; set; }

        /// <summary>Compare the separate runs among the results: one ReportComparison of their reports instead of the reports.</summary>
        [Parameter(ParameterSetName = ReportSet)]
        public SwitchParameter Compare { get; set; }

        /// <summary>The results are the hosts of one deployment: merge them into one aggregate, whatever runs they were.</summary>
        [Parameter(ParameterSetName = ReportSet)]
        public SwitchParameter Deployment { get; set; }

        /// <summary>Re-judge: the fault window's start, into the measured window (docs/failure-mode.md).</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        [TimeSpanArgument]
        public TimeSpan FaultAt { get; set; }

        /// <summary>Re-judge: the longest the fault may have taken, recovery included (default 60 s).</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        [TimeSpanArgument]
        public TimeSpan FaultLength { get; set; }

        /// <summary>Re-judge: the longest a volume may have stalled.</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        [TimeSpanArgument]
        public TimeSpan StallLimit { get; set; }

        /// <summary>Re-judge: threshold overrides, the hashtable Invoke-StorageTest -Thresholds takes.</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        public object? Thresholds { get; set; }

        /// <summary>Re-judge: a sub-window of the measured window, its start (default the window's start).</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        [TimeSpanArgument]
        public TimeSpan From { get; set; }

        /// <summary>Re-judge: the sub-window's end (default the measured window's end).</summary>
        [Parameter(ParameterSetName = RejudgeSet)]
        [TimeSpanArgument]
        public TimeSpan To { get; set; }

        private TimeSpan? Given(string name, TimeSpan value) => MyInvocation.BoundParameters.ContainsKey(name) ? value : (TimeSpan?)null;

        protected override void ProcessRecord() => Guard(() =>
        {
            foreach (string? item in Path ?? Array.Empty<string>())
            {
                if (string.IsNullOrWhiteSpace(item)) continue;
                string path = ResolvePath(item!.Trim());
                if (!_paths.Contains(path, PathInput.Comparer)) _paths.Add(path);
            }
        });

        protected override void EndProcessing() => Guard(() =>
        {
            if (_paths.Count == 0)
                throw new StorageTestException(ErrorCodes.ResultsNotFound, "No results files were given: pipe Invoke-StorageTest's result, or give -Path with results files or folders.", Path);
            if (Label != null && Label.Length != _paths.Count)
                throw new StorageTestException(ErrorCodes.LabelCountMismatch,
                    $"{Wording.Count(Label.Length, "label")} for {Wording.Count(_paths.Count, "path")}: give one -Label per -Path, each path being one run to compare (a results file or a folder of one run's hosts).", Label);
            string[] formats = Format.Distinct(StringComparer.OrdinalIgnoreCase).ToArray();
            string? outputPath = null;
            if (formats.Length > 0 || ParameterSetName == RejudgeSet)
            {
                if (MyInvocation.BoundParameters.ContainsKey(nameof(OutputPath)))
                {
                    if (string.IsNullOrWhiteSpace(OutputPath))
                        throw new StorageTestException(ErrorCodes.OutputPathNotFound, "OutputPath is empty: give an existing folder for the report files, or leave it out to write them beside each results file.", OutputPath);
                    outputPath = ResolvePath(OutputPath!);
                }
            }
            string? metadata = MetadataPath == null ? null : ResolvePath(MetadataPath);
            if (ParameterSetName == RejudgeSet)
            {
                Rejudge(formats, outputPath, metadata);
                return;
            }
            if (formats.Length > 0)
            {
                // -WhatIf or a declined -Confirm: the report objects all the same, no files.
                string where = outputPath ?? $"beside the results files under {string.Join(", ", _paths)}";
                if (!ShouldProcess(where, $"Write the {string.Join(", ", formats)} reports of the results under {Wording.Count(_paths.Count, "path")}"))
                {
                    formats = Array.Empty<string>();
                    outputPath = null;
                }
            }

            if (Label != null && Deployment.IsPresent)
                throw new StorageTestException(ErrorCodes.RunsAndPaths,
                    "-Label names runs to compare, each a run of its own; -Deployment merges the results into one run. Give one or the other.", Label);
            var request = Label == null ? ReportRequest.For(_paths, formats, outputPath, metadata, Compare.IsPresent, Deployment.IsPresent)
                : ReportRequest.ForRuns(_paths.Select((path, i) => (Label[i], path)).ToList(), formats, outputPath, metadata);
            EngineOutcome outcome = RunEngine(request, "Rendering test report");
            var reports = Reports(outcome);
            // Asked to compare: the comparison, holding each run's report; otherwise one report per run.
            if (outcome.OfType(EventTypes.Comparison).FirstOrDefault() is EngineEvent comparison)
                WriteObject(ReportComparison.FromEvent(comparison.Fields, reports));
            else
            {
                if (Compare.IsPresent && reports.Count == 1)
                    WriteVerbose("-Compare: the results are one run, so there is nothing to compare it with; its report is returned.");
                foreach (TestReport report in reports) WriteObject(report);
            }
        });

        private static List<TestReport> Reports(EngineOutcome outcome) => outcome.OfType(EventTypes.Report).Select(e => TestReport.FromEvent(e.Fields)).ToList();

        /// <summary>
        /// The Rejudge set: checked before anything is sent, asked once (it always writes: the re-judged results and the
        /// reports asked for, beside each results file or in -OutputPath), then one report per re-judged run.
        /// </summary>
        private void Rejudge(string[] formats, string? outputPath, string? metadata)
        {
            var rejudgement = new Rejudgement
            {
                FaultAt = Given(nameof(FaultAt), FaultAt),
                FaultLength = Given(nameof(FaultLength), FaultLength),
                StallLimit = Given(nameof(StallLimit), StallLimit),
                Thresholds = MyInvocation.BoundParameters.ContainsKey(nameof(Thresholds)) ? Runs.ThresholdsInput.From(Thresholds) : null,
                From = Given(nameof(From), From),
                To = Given(nameof(To), To),
            };
            rejudgement.Check();
            string where = outputPath ?? $"beside the results files under {string.Join(", ", _paths)}";
            string files = formats.Length > 0 ? $"new results and {string.Join(", ", formats)} reports" : "new results and reports";
            if (!ShouldProcess(where, $"{rejudgement.Describe()}, writing {files} that say they are a re-judgement (never over an existing file)"))
                return;
            JsonObject request = rejudgement.Apply(ReportRequest.For(_paths, formats, outputPath, metadata));
            foreach (TestReport report in Reports(RunEngine(request, "Re-judging stored runs"))) WriteObject(report);
        }
    }
}
