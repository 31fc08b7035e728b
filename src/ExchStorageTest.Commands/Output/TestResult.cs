using System.Collections.Generic;
using System.Linq;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// The outcome of one storage test on one host (PSTypeName ExchStorageTest.TestResult): a summary of the
    /// engine's result event. The results JSON file at <see cref="ResultsPath"/> stays the source of truth
    /// (Get-TestReport reads it). Fields a stopped run could not produce are null rather than invented.
    /// </summary>
    public sealed class TestResult
    {
        public string? TestId { get; set; }
        public string? TestType { get; set; }
        public string? ProfileName { get; set; }
        /// <summary>The host that ran the test.</summary>
        public string? ComputerName { get; set; }
        /// <summary>Pass, Fail, or for a run that ended early without earning a Fail, Stopped or Interrupted (never passed).</summary>
        public string? Result { get; set; }
        /// <summary>Complete, Stopped (Ctrl+C: the partial window was judged), Failed or Interrupted.</summary>
        public string? Completion { get; set; }
        public bool Passed => string.Equals(Result, Verdicts.Pass, StringComparison.Ordinal) && string.Equals(Completion, Completions.Complete, StringComparison.Ordinal);
        public TextList<Reason> Reasons { get; set; } = TextList<Reason>.Empty;
        public double? TargetIops { get; set; }
        public double? AchievedIops { get; set; }
        public double? DbReadLatencyAvgMs { get; set; }
        public double? DbReadLatencyP99Ms { get; set; }
        public double? DbWriteLatencyAvgMs { get; set; }
        public double? DbWriteLatencyP99Ms { get; set; }
        public double? LogWriteLatencyAvgMs { get; set; }
        public double? LogWriteLatencyP99Ms { get; set; }
        /// <summary>DatabaseBackup: MB/s read per database (the mean of the databases); null for other tests.</summary>
        public double? BackupMBPerSecondPerDatabase { get; set; }
        /// <summary>DatabaseBackup: MB/s read by this host in all (the databases' rates added up: they are read at once; the reports' Sum row).</summary>
        public double? BackupMBPerSecond { get; set; }
        /// <summary>DatabaseBackup: how long the backup read took, seconds (its slowest database's read: they are read at once).</summary>
        public double? BackupSeconds { get; set; }
        /// <summary>SoftRecovery: log files replayed over all databases; null for other tests.</summary>
        public int? LogsReplayed { get; set; }
        /// <summary>SoftRecovery: how long the replay took, seconds (its slowest database's replay: they replay at once).</summary>
        public double? RecoverySeconds { get; set; }
        /// <summary>SoftRecovery: the average time to replay one log file, seconds (Jetstress's "average time to play one log file").</summary>
        public double? RecoverySecondsPerLog { get; set; }
        /// <summary>io_uring, pread-threads, sync or iocp.</summary>
        public string? IoBackend { get; set; }
        /// <summary>False only when buffered I/O was opted in (-AllowBufferedIo).</summary>
        public bool? DirectIo { get; set; }
        public string? ResultsPath { get; set; }
        public TextList<string> ReportPath { get; set; } = TextList<string>.Empty;
        /// <summary>The run's HTML report among <see cref="ReportPath"/>, as the engine names it (null when none was written).</summary>
        public string? HtmlReportPath { get; set; }
        /// <summary>Start-file runs: where this host's results were copied on the share.</summary>
        public string? SharedResultsPath { get; set; }
        /// <summary>Runs with -StartAtUtc, multi-host and start-file runs: the agreed UTC instant the host started loading (tuning, warm-up), on its own clock.</summary>
        public DateTime? StartAtUtc { get; set; }
        /// <summary>The agreed UTC instant every host of the run started measuring, on this host's clock (StartAtUtc + the tuning and warm-up time).</summary>
        public DateTime? MeasureAtUtc { get; set; }
        /// <summary>When this host actually started measuring (its results' timeline.collectionStartUtc), on its own clock.</summary>
        public DateTime? MeasuringStartUtc { get; set; }
        /// <summary>Multi-host runs: how the host was reached (the -ComputerName given, or the session's computer name); ComputerName is the machine name it reported.</summary>
        public string? Address { get; set; }
        /// <summary>Multi-host runs: where the results JSON is on the host (ResultsPath is the copy collected here).</summary>
        public string? RemoteResultsPath { get; set; }
        /// <summary>Multi-host runs: the host's clock minus this computer's, in milliseconds, as measured before the run.</summary>
        public double? ClockSkewMs { get; set; }
        /// <summary>-TestType Capacity: the answer, its limiting rule and the load curve; null for every other test type.</summary>
        public CapacityAnswer? Capacity { get; set; }
        /// <summary>A profile from the sizing calculator: the run against the calculator's targets, each with its verdict line; null otherwise.</summary>
        public CalculatorCheck? CalculatorCheck { get; set; }
        /// <summary>-TestType Capacity of a calculator profile: the headroom over the calculator's design, in words; null otherwise.</summary>
        public string? CalculatorHeadroom { get; set; }
        /// <summary>
        /// A profile from a PerfMon capture (New-MailboxProfile -CapturePath): the run against the capture's busiest hour
        /// in the engine's line ("Tested at 1.3x the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): ..."); null otherwise.
        /// </summary>
        public string? CaptureCheck { get; set; }
        /// <summary>
        /// The failure mode in one line, as the engine states it: a declared fault window's outcome ("Pass, fault tolerated:
        /// stalled 4.8 s on /mnt/db, recovered in 12 s, no errors"), or the longest stall nobody declared; null when the run
        /// had neither (the reports' Failure mode section has the whole of it).
        /// </summary>
        public string? FailureMode { get; set; }
        /// <summary>The stalls found on the run's volumes (I/O outstanding and nothing completing for a second or more); null from an engine that did not look.</summary>
        public int? StallCount { get; set; }

        internal static TestResult FromEvent(JsonObject result, string? profileName)
        {
            var dbRead = result.GetObject(EventFields.Result.DbReadLatencyMs);
            var dbWrite = result.GetObject(EventFields.Result.DbWriteLatencyMs);
            var logWrite = result.GetObject(EventFields.Result.LogWriteLatencyMs);
            var backup = result.GetObject(EventFields.Result.Backup);
            var replay = result.GetObject(EventFields.Result.SoftRecovery);
            double? logsReplayed = replay?.GetNumber(EventFields.Result.SoftRecoveryFigures.LogsReplayed);
            return new TestResult
            {
                TestId = result.GetString(EventFields.Result.TestId),
                TestType = result.GetString(EventFields.Result.TestType),
                ProfileName = profileName,
                ComputerName = Environment.MachineName,
                Result = result.GetString(EventFields.Result.Verdict),
                Completion = result.GetString(EventFields.Result.Completion) ?? Completions.Complete,
                Reasons = result.GetArray(EventFields.Result.Reasons).OfType<JsonObject>().Select(Reason.From).ToArray(),
                TargetIops = result.GetNumber(EventFields.Result.TargetIops),
                AchievedIops = result.GetNumber(EventFields.Result.AchievedIops),
                DbReadLatencyAvgMs = dbRead?.GetNumber(EventFields.Result.Latency.Average),
                DbReadLatencyP99Ms = dbRead?.GetNumber(EventFields.Result.Latency.P99),
                DbWriteLatencyAvgMs = dbWrite?.GetNumber(EventFields.Result.Latency.Average),
                DbWriteLatencyP99Ms = dbWrite?.GetNumber(EventFields.Result.Latency.P99),
                LogWriteLatencyAvgMs = logWrite?.GetNumber(EventFields.Result.Latency.Average),
                LogWriteLatencyP99Ms = logWrite?.GetNumber(EventFields.Result.Latency.P99),
                BackupMBPerSecondPerDatabase = backup?.GetNumber(EventFields.Result.BackupFigures.MBPerSecondPerDatabase),
                BackupMBPerSecond = backup?.GetNumber(EventFields.Result.BackupFigures.MBPerSecond),
                BackupSeconds = backup?.GetNumber(EventFields.Result.BackupFigures.Seconds),
                LogsReplayed = logsReplayed is double logs ? (int)logs : (int?)null,
                RecoverySeconds = replay?.GetNumber(EventFields.Result.SoftRecoveryFigures.Seconds),
                RecoverySecondsPerLog = replay?.GetNumber(EventFields.Result.SoftRecoveryFigures.SecondsPerLog),
                IoBackend = result.GetString(EventFields.Result.IoBackend),
                DirectIo = result[EventFields.Result.DirectIo] as bool?,
                ResultsPath = NullIfEmpty(result.GetString(EventFields.Result.ResultsPath)),
                ReportPath = result.GetArray(EventFields.Result.ReportPaths).OfType<string>().Where(p => p.Length > 0).ToArray(),
                HtmlReportPath = ReportFiles.Page(result, EventFields.Result.Reports),
                StartAtUtc = Runs.UtcTime.Parse(result.GetString(EventFields.Result.StartAtUtc)),
                MeasureAtUtc = Runs.UtcTime.Parse(result.GetString(EventFields.Result.MeasureAtUtc)),
                MeasuringStartUtc = Runs.UtcTime.Parse(result.GetString(EventFields.Result.MeasuringStartUtc)),
                Capacity = CapacityAnswer.FromEvent(result.GetObject(EventFields.Result.Capacity)),
                CalculatorCheck = CalculatorCheck.FromEvent(result.GetObject(EventFields.Result.CalculatorCheck)),
                CalculatorHeadroom = result.GetString(EventFields.Result.CalculatorHeadroom),
                CaptureCheck = result.GetObject(EventFields.Result.CaptureCheck)?.GetString(EventFields.Result.CaptureCheckFields.Line),
                FailureMode = NullIfEmpty(result.GetString(EventFields.Result.FaultSummary)),
                StallCount = result.GetNumber(EventFields.Result.StallCount) is double stalls ? (int)stalls : (int?)null,
            };
        }

        private static string? NullIfEmpty(string? s) => string.IsNullOrEmpty(s) ? null : s;

        public override string ToString() => $"{TestType} {Result} ({Completion})";
    }
}
