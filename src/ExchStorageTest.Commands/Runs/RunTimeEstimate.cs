using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// How long a run of the engine's plan takes from start to result, for -WhatIf and -Confirm: the plan's own
    /// phases added up. The storage is unknown before it is written, so what depends on it is assumed and said to be:
    /// creating the databases and logs the plan does not find (and Stress's checksum pass, which reads them all) at
    /// <see cref="PreparationEstimate.AssumedMBPerSecond"/>. The rest is the plan's: the engine's start, tuning,
    /// warm-up and settling (schedule.leadSeconds), and the test's duration (a capacity search's whole bound, which
    /// holds its warm-up; for DatabaseBackup and SoftRecovery the most they run). Writing the results and reports
    /// takes seconds and is not counted; a start instant to wait for is not either.
    /// </summary>
    internal static class RunTimeEstimate
    {
        /// <summary>Each phase and its seconds, in the order the run goes through them.</summary>
        public static IReadOnlyList<(string Phase, double Seconds)> Phases(JsonObject plan)
        {
            string testType = plan.GetString(EventFields.Plan.TestType) ?? "";
            var phases = new List<(string, double)> { ("engine start and opening the files", PreparationEstimate.StartSeconds) };
            double toCreate = PreparationEstimate.ToCreate(plan);
            if (toCreate > 0)
                phases.Add(($"creating {Gib(toCreate)} of databases and logs at an assumed {PreparationEstimate.AssumedMBPerSecond:0} MB/s", PreparationEstimate.SecondsFor(toCreate)));
            double duration = plan.GetNumber(EventFields.Plan.DurationSeconds) ?? 0;
            if (testType == nameof(TestType.Capacity))
            {
                phases.Add(("the capacity search, at most its bound (warm-up included)", plan.GetObject(EventFields.Plan.Capacity)?.GetNumber(EventFields.Plan.CapacityPlan.BoundSeconds) ?? duration));
                return phases;
            }
            double lead = RunInstants.LeadSeconds(plan);
            if (lead > 0) phases.Add(("tuning, warm-up and settling, at most", lead));
            phases.Add((testType == nameof(TestType.DatabaseBackup) || testType == nameof(TestType.SoftRecovery) ? "the test, at most" : "the test", duration));
            if (testType == nameof(TestType.Stress))
            {
                double all = plan.GetArray(EventFields.Plan.Files).OfType<JsonObject>().Sum(f => f.GetNumber(EventFields.Plan.File.SizeBytes) ?? 0);
                phases.Add(($"the checksum pass reading {Gib(all)} at an assumed {PreparationEstimate.AssumedMBPerSecond:0} MB/s", PreparationEstimate.SecondsFor(all)));
            }
            return phases;
        }

        /// <summary>The whole run, rounded up to the second.</summary>
        public static TimeSpan For(JsonObject plan) => TimeSpan.FromSeconds(Math.Ceiling(Phases(plan).Sum(p => p.Seconds)));

        /// <summary>
        /// "Estimated time of the Performance test: about 00:01:07, an estimate ...: engine start ...: 15 s; ...". It names
        /// the test: an ESRP suite's question shows the plan of its next test only.
        /// </summary>
        public static string Describe(JsonObject plan) =>
            string.Format(CultureInfo.InvariantCulture, "Estimated time of the {0} test: about {1:c}, an estimate from the plan (storage faster or slower than assumed changes it): {2}.",
                plan.GetString(EventFields.Plan.TestType), For(plan), string.Join("; ", Phases(plan).Select(p => string.Format(CultureInfo.InvariantCulture, "{0}: {1:0} s", p.Phase, p.Seconds))));

        private static string Gib(double bytes) => string.Format(CultureInfo.InvariantCulture, "{0:0.##} GiB", bytes / (1024.0 * 1024 * 1024));
    }
}
