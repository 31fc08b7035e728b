using System;
using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The AggregateResult of a multi-host run. Its figures have one source, the engine's merge of the collected
    /// results (<see cref="ReportAggregate"/>: rates summed, histograms merged); when the engine merged fewer hosts
    /// than returned results (one host left, or no report), there is no aggregate figure, not a guess. The plain sum
    /// of the hosts' achieved IOPS stays beside it only as the documented cross-check.
    /// </summary>
    internal static class Aggregate
    {
        /// <summary>AchievedIopsSource when the engine merged every host's results.</summary>
        public const string FromReport = "Report";

        public static AggregateResult Build(string runId, DateTime? startAtUtc, DateTime? measureAtUtc, IReadOnlyList<HostLine> hosts, IReadOnlyList<TestResult> results, TestReport? report, string outputPath)
        {
            ReportAggregate? merged = report?.Aggregate;
            bool everyHost = merged != null && merged.Hosts == results.Count;
            var failures = hosts.Where(h => h.Failed).Select(h => new HostFailure { Name = h.Name, Address = h.Address, Reason = h.FailureReason }).ToArray();
            int passed = results.Count(r => r.Passed);
            return new AggregateResult
            {
                RunId = runId,
                // A host that failed to report fails the run; one stopped and none failed makes it Stopped (Verdicts.Combine).
                Result = failures.Length > 0 ? Verdicts.Fail : Verdicts.Combine(results.Select(r => r.Result ?? Verdicts.Fail)),
                StartAtUtc = startAtUtc,
                MeasureAtUtc = measureAtUtc,
                MeasuringStartSkewSeconds = merged?.MeasuringStartSkewSeconds,
                HostCount = hosts.Count,
                PassedHostCount = passed,
                FailedHosts = failures.Select(f => f.Name ?? "").ToArray(),
                Failures = failures,
                Hosts = results.ToArray(),
                TargetIops = everyHost ? merged!.TargetIops : null,
                AchievedIops = everyHost ? merged!.AchievedIops : null,
                AchievedIopsPerHostSum = Math.Round(results.Sum(r => r.AchievedIops ?? 0), 3),
                AchievedIopsSource = everyHost ? FromReport : null,
                ResultsPath = results.Select(r => r.ResultsPath).Where(p => !string.IsNullOrEmpty(p)).Select(p => p!).ToArray(),
                OutputPath = outputPath,
                Capacity = everyHost ? merged!.Capacity : null,
                Report = report,
            };
        }
    }
}
