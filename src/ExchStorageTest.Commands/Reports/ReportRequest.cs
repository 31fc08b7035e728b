using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
using ExchStorageTest.Json;

namespace ExchStorageTest.Reports
{
    /// <summary>The helper's "report" request (docs/protocol.md): Get-TestReport's, and a multi-host run's aggregate.</summary>
    internal static class ReportRequest
    {
        /// <param name="resultsFiles">Absolute paths of results files (folders are resolved by <see cref="ResultsFiles"/> first).</param>
        /// <param name="formats">Report files to write; empty writes none.</param>
        /// <param name="outputPath">One folder for every report file, or null: each beside its results file, the aggregate beside the first.</param>
        /// <param name="metadataPath">The vendor's ESRP metadata file (docs/esrp.md), or null.</param>
        public static JsonObject For(IReadOnlyList<string> resultsFiles, IReadOnlyList<string> formats, string? outputPath, string? metadataPath = null)
        {
            var request = HelperRequest.For(HelperCommands.Report)
                .Set(RequestFields.Paths, resultsFiles)
                .Set(RequestFields.Formats, formats);
            if (outputPath != null) request.Set(RequestFields.OutputPath, outputPath);
            if (metadataPath != null) request.Set(RequestFields.MetadataPath, metadataPath);
            return request;
        }

        /// <summary>A comparison of runs the user labelled: each label with the results files of its run (its hosts).</summary>
        public static JsonObject ForRuns(IReadOnlyList<(string Label, IReadOnlyList<string> Files)> runs, IReadOnlyList<string> formats, string? outputPath, string? metadataPath)
        {
            var request = For(new string[0], formats, outputPath, metadataPath);
            request.Set(RequestFields.Paths, new List<object?>());
            request.Set(RequestFields.Runs, runs.Select(r => (object?)new JsonObject().Set(RunFields.Label, r.Label).Set(RunFields.Paths, r.Files)).ToList());
            return request;
        }
    }
}
