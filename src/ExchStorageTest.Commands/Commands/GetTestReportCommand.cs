using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Input;
using ExchStorageTest.Reports;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Get-TestReport: renders results files as report objects and, with -Format, as report files. Several hosts
    /// of one run merge into an aggregate; several runs are compared side by side (the helper decides which is
    /// which from the results: same test type, start within minutes, different machines = one run).
    /// </summary>
    [Cmdlet(VerbsCommon.Get, "TestReport", SupportsShouldProcess = true, ConfirmImpact = ConfirmImpact.Low)]
    [OutputType(typeof(TestReport))]
    public sealed class GetTestReportCommand : StorageTestCmdlet
    {
        private readonly List<string> _files = new List<string>();
        private readonly HashSet<string> _seen = new HashSet<string>(PathInput.Comparer);
        // Each path given (argument or pipeline item) with its results files: with -Label, each is one run.
        private readonly List<(string Path, IReadOnlyList<string> Files)> _runs = new List<(string, IReadOnlyList<string>)>();

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

        protected override void ProcessRecord() => Guard(() =>
        {
            foreach (string? item in Path ?? Array.Empty<string>())
            {
                if (string.IsNullOrWhiteSpace(item)) continue;
                string path = ResolvePath(item!.Trim());
                var files = ResultsFiles.Resolve(path);
                _runs.Add((path, files));
                foreach (string file in files)
                    if (_seen.Add(file)) _files.Add(file);
            }
        });

        protected override void EndProcessing() => Guard(() =>
        {
            if (_files.Count == 0)
                throw new StorageTestException(ErrorCodes.ResultsNotFound, "No results files were given or found: pipe Invoke-StorageTest's result, or give -Path with results files or folders.",
                    Path);

            if (Label != null && Label.Length != _runs.Count)
                throw StorageTestException.InvalidArgument("LabelCountMismatch",
                    $"{Label.Length} label(s) for {_runs.Count} path(s): give one -Label per -Path, each path being one run to compare (a results file or a folder of one run's hosts).", Label);
            string[] formats = Format.Distinct(StringComparer.OrdinalIgnoreCase).ToArray();
            string? outputPath = null;
            if (formats.Length > 0)
            {
                if (MyInvocation.BoundParameters.ContainsKey(nameof(OutputPath)))
                {
                    outputPath = ReportFolder(OutputPath);
                    RefuseNameCollisions(outputPath);
                }
                // -WhatIf or a declined -Confirm: the report objects all the same, no files.
                if (!ShouldProcess(WhereFilesGo(outputPath), $"Write {string.Join(", ", formats)} report file(s) for {_files.Count} results file(s)"))
                {
                    formats = Array.Empty<string>();
                    outputPath = null;
                }
            }

            string[] resultsPath = _files.ToArray();
            string? metadata = MetadataPath == null ? null : ResolvePath(MetadataPath);
            var request = Label == null ? ReportRequest.For(resultsPath, formats, outputPath, metadata)
                : ReportRequest.ForRuns(_runs.Select((run, i) => (Label[i], run.Files)).ToList(), formats, outputPath, metadata);
            foreach (HelperEvent report in RunHelper(request, "Rendering test report").OfType(EventTypes.Report))
                WriteObject(TestReport.FromEvent(report.Fields, resultsPath));
        });

        private string ReportFolder(string? given)
        {
            if (string.IsNullOrWhiteSpace(given))
                throw new StorageTestException(ErrorCodes.OutputPathNotFound, "OutputPath is empty: give an existing folder for the report files, or leave it out to write them beside each results file.", given);
            string folder = ResolvePath(given!);
            if (!Directory.Exists(folder))
                throw new StorageTestException("OutputPathNotFound",
                    File.Exists(folder) ? $"The report folder '{folder}' is a file, not a folder." : $"The report folder '{folder}' does not exist.",
                    ErrorCategory.ObjectNotFound, folder);
            return folder;
        }

        /// <summary>
        /// Report files are named after their results file, so two results files of one name (a results.json per
        /// host folder) would write one report over the other in a single -OutputPath folder.
        /// </summary>
        private void RefuseNameCollisions(string outputPath)
        {
            var clash = _files.GroupBy(f => System.IO.Path.GetFileNameWithoutExtension(f), PathInput.Comparer).FirstOrDefault(g => g.Count() > 1);
            if (clash == null) return;
            throw StorageTestException.InvalidArgument("ReportNamesCollide",
                $"The results files '{string.Join("' and '", clash)}' have the same name, so their reports would overwrite each other in '{outputPath}'. Leave out -OutputPath to write each report beside its results file, or render them separately.",
                clash.Key);
        }

        /// <summary>The folders report files are written to: -OutputPath, or the folder of each results file.</summary>
        private string WhereFilesGo(string? outputPath) => outputPath ?? string.Join(", ",
            _files.Select(f => System.IO.Path.GetDirectoryName(f) ?? f).Distinct(PathInput.Comparer));
    }
}
