using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.MultiHost
{
    /// <summary>The AggregateResult of a multi-host run, from the hosts and the engine's report over their results files.</summary>
    internal static class Aggregate
    {
        public static AggregateResult Build(string runId, DateTime? startAtUtc, DateTime? measureAtUtc, IReadOnlyList<RemoteHost> hosts, IReadOnlyList<TestResult> results, TestReport? report, string outputPath)
        {
            double targetSum = results.Sum(r => r.TargetIops ?? 0);
            double achievedSum = results.Sum(r => r.AchievedIops ?? 0);
            double target = targetSum, achieved = achievedSum;
            string source = "PerHostSum";
            // The engine merges results of one run from distinct machines; its figures count only when it merged every host here.
            ReportAggregate? merged = report?.Aggregate;
            if (merged != null && merged.Hosts == results.Count && merged.AchievedIops is double mergedAchieved)
            {
                achieved = mergedAchieved;
                target = merged.TargetIops ?? targetSum;
                source = "Report";
            }
            var failures = hosts.Where(h => h.Failed).Select(h => new HostFailure { Name = h.Name, Address = h.Address, Reason = h.FailureReason }).ToArray();
            int passed = results.Count(r => r.Passed);
            return new AggregateResult
            {
                RunId = runId,
                Result = results.Count > 0 && failures.Length == 0 && passed == results.Count ? "Pass" : "Fail",
                StartAtUtc = startAtUtc,
                MeasureAtUtc = measureAtUtc,
                MeasuringStartSkewSeconds = merged?.MeasuringStartSkewSeconds,
                HostCount = hosts.Count,
                PassedHostCount = passed,
                FailedHosts = failures.Select(f => f.Name ?? "").ToArray(),
                Failures = failures,
                Hosts = results.ToArray(),
                TargetIops = Math.Round(target, 3),
                AchievedIops = Math.Round(achieved, 3),
                AchievedIopsPerHostSum = Math.Round(achievedSum, 3),
                AchievedIopsSource = source,
                ResultsPath = results.Select(r => r.ResultsPath).Where(p => !string.IsNullOrEmpty(p)).Select(p => p!).ToArray(),
                OutputPath = outputPath,
                Report = report,
            };
        }
    }
}
