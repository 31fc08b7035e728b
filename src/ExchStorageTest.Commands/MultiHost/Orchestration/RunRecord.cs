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
    /// &lt;OutputPath&gt;/run.json: the record of a multi-host run beside the collected results: the agreed instants and the
    /// largest skew between the hosts' measuring starts; every host, its address, clock skew, agreed instants on its own
    /// clock, actual measuring start and outcome (the failed ones with their reason, also when every host failed). A run.json already there
    /// (an earlier run into the same folder) is kept: this one is then named run-&lt;runId&gt;.json.
    /// </summary>
    internal static class RunRecord
    {
        public const string Schema = "exchstoragetest/multihost-run";

        public static string Write(string outputPath, string runId, DateTime? startAtUtc, DateTime? measureAtUtc, AggregateResult aggregate, MailboxProfile profile, IReadOnlyList<HostLine> hosts)
        {
            var record = new JsonObject()
                .Set("schema", Schema)
                .Set("schemaVersion", 1)
                .Set("runId", runId)
                .Set("startAtUtc", Iso(startAtUtc))
                .Set("measureAtUtc", Iso(measureAtUtc))
                .Set("measuringStartSkewSeconds", aggregate.MeasuringStartSkewSeconds)
                .Set("profile", profile.Name)
                .Set("capacity", Capacity(aggregate.Capacity))
                .Set("hosts", hosts.Select(h => new JsonObject()
                    .Set("name", h.Name)
                    .Set("computerName", h.ComputerName)
                    .Set("address", h.Address)
                    .Set("key", h.Key)
                    .Set("clockSkewMs", h.Skew == null ? (double?)null : Math.Round(h.Skew.Skew.TotalMilliseconds, 1))
                    .Set("clockUncertaintyMs", h.Skew == null ? (double?)null : Math.Round(h.Skew.Uncertainty.TotalMilliseconds, 1))
                    .Set("startAtUtc", Iso(h.StartAtUtc))
                    .Set("measureAtUtc", Iso(h.MeasureAtUtc))
                    .Set("measuringStartUtc", Iso(h.Result?.MeasuringStartUtc))
                    .Set("moduleCopied", h.ModuleCopied)
                    .Set("result", h.Result?.Result)
                    .Set("completion", h.Result?.Completion)
                    .Set("failed", h.Failed)
                    .Set("reason", h.FailureReason)
                    .Set("capacity", Capacity(h.Result?.Capacity))
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

        /// <summary>A capacity search's answer in brief (the load curves are in the results files and the report).</summary>
        private static JsonObject? Capacity(CapacityAnswer? answer) => answer == null ? null : new JsonObject()
            .Set("mailboxes", answer.Mailboxes)
            .Set("mailboxesWithoutHeadroom", answer.MailboxesWithoutHeadroom)
            .Set("limitingMailboxes", answer.LimitingMailboxes)
            .Set("limitingRule", answer.LimitingRule)
            .Set("lowerBound", answer.LowerBound)
            .Set("lowerBoundReason", answer.LowerBoundReason)
            .Set("resolved", answer.Resolved)
            .Set("stopReason", answer.StopReason)
            .Set("steps", answer.Steps.Length);

        private static string? Iso(DateTime? at) => at.HasValue ? UtcTime.Iso(at.Value) : null;
    }
}
