using System.Collections.Generic;
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
        public static JsonObject For(IReadOnlyList<string> resultsFiles, IReadOnlyList<string> formats, string? outputPath)
        {
            var request = new JsonObject()
                .Set("protocol", HelperProcess.ProtocolVersion)
                .Set("command", "report")
                .Set("paths", resultsFiles)
                .Set("formats", formats);
            if (outputPath != null) request.Set("outputPath", outputPath);
            return request;
        }
    }
}
