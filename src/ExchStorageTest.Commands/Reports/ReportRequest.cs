using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Reports
{
    /// <summary>The engine's "report" request (docs/protocol.md): Get-TestReport's, a suite's ESRP document, and a multi-host run's aggregate.</summary>
    internal static class ReportRequest
    {
        /// <param name="paths">Absolute paths of results files, or folders: the engine renders every results document in their trees.</param>
        /// <param name="formats">Report files to write; empty writes none.</param>
        /// <param name="outputPath">One existing folder for every report file, or null: each beside its results file, the aggregate beside all of them.</param>
        /// <param name="metadataPath">The vendor's ESRP metadata file (docs/esrp.md), or null.</param>
        /// <param name="compare">Compare the separate runs among the results (a comparison event after their reports).</param>
        /// <param name="deployment">The results are the hosts of one deployment, as the user names them: merged whatever their run ids.</param>
        public static JsonObject For(IReadOnlyList<string> paths, IReadOnlyList<string> formats, string? outputPath, string? metadataPath = null,
            bool compare = false, bool deployment = false)
        {
            var request = Request(formats, outputPath, metadataPath).Set(RequestFields.Paths, paths);
            if (compare) request.Set(RequestFields.Compare, true);
            if (deployment) request.Set(RequestFields.Deployment, true);
            return request;
        }

        /// <summary>A comparison of runs the user labelled: each label with the results file or folder of its run (its hosts).</summary>
        public static JsonObject ForRuns(IReadOnlyList<(string Label, string Path)> runs, IReadOnlyList<string> formats, string? outputPath, string? metadataPath) =>
            Request(formats, outputPath, metadataPath)
                .Set(RequestFields.Runs, runs.Select(r => (object?)new JsonObject().Set(RunFields.Label, r.Label).Set(RunFields.Paths, new[] { r.Path })).ToList());

        private static JsonObject Request(IReadOnlyList<string> formats, string? outputPath, string? metadataPath)
        {
            var request = EngineRequest.For(EngineCommands.Report).Set(RequestFields.Formats, formats);
            if (outputPath != null) request.Set(RequestFields.OutputPath, outputPath);
            if (metadataPath != null) request.Set(RequestFields.MetadataPath, metadataPath);
            return request;
        }
    }
}
