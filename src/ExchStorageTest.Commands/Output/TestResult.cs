using System;
using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The outcome of one storage test on one host (PSTypeName ExchStorageTest.TestResult): a summary of the
    /// helper's result event. The results JSON file at <see cref="ResultsPath"/> stays the source of truth
    /// (Get-TestReport reads it). Fields a stopped run could not produce are null rather than invented.
    /// </summary>
    public sealed class TestResult
    {
        public string? TestId { get; set; }
        public string? TestType { get; set; }
        public string? ProfileName { get; set; }
        /// <summary>The host that ran the test.</summary>
        public string? ComputerName { get; set; }
        /// <summary>Pass or Fail.</summary>
        public string? Result { get; set; }
        /// <summary>Complete, Stopped (Ctrl+C: the partial window was judged) or Failed.</summary>
        public string? Completion { get; set; }
        public bool Passed => string.Equals(Result, "Pass", StringComparison.Ordinal) && string.Equals(Completion, "Complete", StringComparison.Ordinal);
        public Reason[] Reasons { get; set; } = Array.Empty<Reason>();
        public double? TargetIops { get; set; }
        public double? AchievedIops { get; set; }
        public double? DbReadLatencyAvgMs { get; set; }
        public double? DbReadLatencyP99Ms { get; set; }
        public double? DbWriteLatencyAvgMs { get; set; }
        public double? DbWriteLatencyP99Ms { get; set; }
        public double? LogWriteLatencyAvgMs { get; set; }
        public double? LogWriteLatencyP99Ms { get; set; }
        /// <summary>io_uring, pread-threads, sync or iocp.</summary>
        public string? IoBackend { get; set; }
        /// <summary>False only when buffered I/O was opted in (-AllowBufferedIo).</summary>
        public bool? DirectIo { get; set; }
        public string? ResultsPath { get; set; }
        public string[] ReportPath { get; set; } = Array.Empty<string>();
        /// <summary>Start-file runs: where this host's results were copied on the share.</summary>
        public string? SharedResultsPath { get; set; }
        /// <summary>Multi-host and start-file runs: the agreed UTC instant measuring started (multi-host: on this host's own clock).</summary>
        public DateTime? StartAtUtc { get; set; }
        /// <summary>Multi-host runs: where the results JSON is on the host (ResultsPath is the copy collected here).</summary>
        public string? RemoteResultsPath { get; set; }
        /// <summary>Multi-host runs: the host's clock minus this computer's, in milliseconds, as measured before the run.</summary>
        public double? ClockSkewMs { get; set; }

        internal static TestResult FromEvent(JsonObject result, string? profileName)
        {
            var dbRead = result.GetObject("dbReadLatencyMs");
            var dbWrite = result.GetObject("dbWriteLatencyMs");
            var logWrite = result.GetObject("logWriteLatencyMs");
            return new TestResult
            {
                TestId = result.GetString("testId"),
                TestType = result.GetString("testType"),
                ProfileName = profileName,
                ComputerName = Environment.MachineName,
                Result = result.GetString("result"),
                Completion = result.GetString("completion") ?? "Complete",
                Reasons = result.GetArray("reasons").OfType<JsonObject>().Select(Reason.From).ToArray(),
                TargetIops = result.GetNumber("targetIops"),
                AchievedIops = result.GetNumber("achievedIops"),
                DbReadLatencyAvgMs = dbRead?.GetNumber("average"),
                DbReadLatencyP99Ms = dbRead?.GetNumber("p99"),
                DbWriteLatencyAvgMs = dbWrite?.GetNumber("average"),
                DbWriteLatencyP99Ms = dbWrite?.GetNumber("p99"),
                LogWriteLatencyAvgMs = logWrite?.GetNumber("average"),
                LogWriteLatencyP99Ms = logWrite?.GetNumber("p99"),
                IoBackend = result.GetString("ioBackend"),
                DirectIo = result["directIo"] as bool?,
                ResultsPath = NullIfEmpty(result.GetString("resultsPath")),
                ReportPath = result.GetArray("reportPaths").OfType<string>().Where(p => p.Length > 0).ToArray(),
            };
        }

        private static string? NullIfEmpty(string? s) => string.IsNullOrEmpty(s) ? null : s;

        public override string ToString() => $"{TestType} {Result} ({Completion})";
    }
}
