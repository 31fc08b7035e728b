using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// &lt;OutputPath&gt;/run.json: the record of a multi-host run beside the collected results: every host, its clock
    /// skew, start instant on its own clock and outcome (the failed ones with their reason). A run.json already there
    /// (an earlier run into the same folder) is kept: this one is then named run-&lt;runId&gt;.json.
    /// </summary>
    internal static class RunRecord
    {
        public const string Schema = "exchstoragetest/multihost-run";

        public static string Write(string outputPath, string runId, DateTime startAtUtc, MailboxProfile profile, IReadOnlyList<RemoteHost> hosts)
        {
            var record = new JsonObject()
                .Set("schema", Schema)
                .Set("schemaVersion", 1)
                .Set("runId", runId)
                .Set("startAtUtc", UtcTime.Iso(startAtUtc))
                .Set("profile", profile.Name)
                .Set("hosts", hosts.Select(h => new JsonObject()
                    .Set("computerName", h.ComputerName)
                    .Set("key", h.Key)
                    .Set("clockSkewMs", h.Skew == null ? (double?)null : Math.Round(h.Skew.Skew.TotalMilliseconds, 1))
                    .Set("clockUncertaintyMs", h.Skew == null ? (double?)null : Math.Round(h.Skew.Uncertainty.TotalMilliseconds, 1))
                    .Set("startAtUtc", h.StartAtUtc.HasValue ? UtcTime.Iso(h.StartAtUtc.Value) : null)
                    .Set("moduleCopied", h.Facts?.ModuleCopied ?? false)
                    .Set("result", h.Result?.Result)
                    .Set("completion", h.Result?.Completion)
                    .Set("failed", h.Failed)
                    .Set("reason", h.FailureReason)
                    .Set("resultsPath", h.Result?.ResultsPath)
                    .Set("remoteResultsPath", h.Result?.RemoteResultsPath)).ToList());
            byte[] bytes = new UTF8Encoding(false).GetBytes(JsonWriter.Write(record, indented: true) + "\n");
            foreach (string name in new[] { "run.json", $"run-{runId}.json" })
            {
                string path = Path.Combine(outputPath, name);
                try
                {
                    using (var file = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read))
                        file.Write(bytes, 0, bytes.Length);
                    return path;
                }
                catch (IOException) when (File.Exists(path))
                {
                    // Kept: try the run's own name.
                }
            }
            throw new IOException($"Neither run.json nor run-{runId}.json could be created in '{outputPath}': both exist.");
        }
    }
}
