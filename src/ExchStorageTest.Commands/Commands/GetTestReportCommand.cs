using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Input;
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
    [Cmdlet(VerbsCommon.Get, "TestReport", SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(TestReport), typeof(ReportComparison))]
    public sealed class GetTestReportCommand : StorageTestCmdlet
    {
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

        [Parameter]
        public string? OutputPath { get; set; }

        /// <summary>One label per path: each path (a results file, or a folder of one run's hosts) is one run of a comparison, named by its label.</summary>
        [Parameter]
        [ValidateNotNullOrEmpty]
        public string[]? Label { get; set; }

        /// <summary>The vendor's ESRP metadata file: the tested-deployment rows no host can discover (docs/esrp.md).</summary>
        [Parameter]
        [ValidateNotNullOrEmpty]
        public string? MetadataPath { get; set; }

        /// <summary>Compare the separate runs among the results: one ReportComparison of their reports instead of the reports.</summary>
        [Parameter]
        public SwitchParameter Compare { get; set; }

        /// <summary>The results are the hosts of one deployment: merge them into one aggregate, whatever runs they were.</summary>
        [Parameter]
        public SwitchParameter Deployment { get; set; }

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
            if (formats.Length > 0)
            {
                if (MyInvocation.BoundParameters.ContainsKey(nameof(OutputPath)))
                {
                    if (string.IsNullOrWhiteSpace(OutputPath))
                        throw new StorageTestException(ErrorCodes.OutputPathNotFound, "OutputPath is empty: give an existing folder for the report files, or leave it out to write them beside each results file.", OutputPath);
                    outputPath = ResolvePath(OutputPath!);
                }
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
            string? metadata = MetadataPath == null ? null : ResolvePath(MetadataPath);
            var request = Label == null ? ReportRequest.For(_paths, formats, outputPath, metadata, Compare.IsPresent, Deployment.IsPresent)
                : ReportRequest.ForRuns(_paths.Select((path, i) => (Label[i], path)).ToList(), formats, outputPath, metadata);
            HelperOutcome outcome = RunHelper(request, "Rendering test report");
            var reports = outcome.OfType(EventTypes.Report).Select(e => TestReport.FromEvent(e.Fields)).ToList();
            // Asked to compare: the comparison, holding each run's report; otherwise one report per run.
            if (outcome.OfType(EventTypes.Comparison).FirstOrDefault() is HelperEvent comparison)
                WriteObject(ReportComparison.FromEvent(comparison.Fields, reports));
            else
            {
                if (Compare.IsPresent && reports.Count == 1)
                    WriteVerbose("-Compare: the results are one run, so there is nothing to compare it with; its report is returned.");
                foreach (TestReport report in reports) WriteObject(report);
            }
        });
    }
}
