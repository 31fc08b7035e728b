using System;
using System.Globalization;
using System.Linq;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// The engine's plan in words, for ShouldProcess: the load, then every file with its size, the results, reports and
    /// lock files, and the run's estimated time. -WhatIf prints it, so it lists each file the run would create, reuse or
    /// write and the load it would put on the disks.
    /// </summary>
    internal static class TestPlanText
    {
        /// <summary>The plan's text; <c>scriptWhere</c> says where the fault script runs when the settings name no host (<see cref="FaultText.Where"/>).</summary>
        public static string Describe(JsonObject? plan, MailboxProfile profile, RunSettings settings, string scriptWhere = FaultText.ThisComputer)
        {
            var text = new StringBuilder();
            double targetIops = plan?.GetNumber(EventFields.Plan.TargetIops) ?? profile.TargetIops;
            JsonObject? capacity = plan?.GetObject(EventFields.Plan.Capacity);
            // A capacity search does not tune: each step gets the sessions its paced rate needs.
            string threads = plan?.GetNumber(EventFields.Plan.ThreadCount) is double t ? t.ToString(CultureInfo.InvariantCulture)
                : settings.TargetRateIops is double rate ? $"open loop at {rate.ToString(CultureInfo.InvariantCulture)} IOPS"
                : capacity != null ? "as many as each step's paced rate needs"
                : "automatic tuning";
            string duration = DurationText(plan, settings);
            text.AppendFormat(CultureInfo.InvariantCulture, "Run a {0} storage test with mailbox profile '{1}' for {2}: target {3} transactional IOPS{4}, threads: {5}.",
                settings.TestType, profile.Name, duration, targetIops, capacity != null ? " at the first step" : "", threads);
            if (capacity != null) text.AppendLine().Append(CapacityPlan(capacity, profile));
            text.AppendLine().Append("Database pages: ").Append(DataText(settings)).Append('.');
            if (FaultText.Describe(settings, scriptWhere) is string fault) text.AppendLine().Append(fault);
            var files = plan?.GetArray(EventFields.Plan.Files).OfType<JsonObject>().ToList() ?? new System.Collections.Generic.List<JsonObject>();
            double total = files.Sum(f => f.GetNumber(EventFields.Plan.File.SizeBytes) ?? 0);
            text.AppendLine();
            text.AppendFormat(CultureInfo.InvariantCulture, "Files to create or reuse: {0}, {1} in all.", files.Count, ByteSize.Format(total));
            foreach (var file in files)
            {
                text.AppendLine();
                text.AppendFormat(CultureInfo.InvariantCulture, "  {0,-10} {1,12}  {2}", file.GetString(EventFields.Plan.File.Kind) ?? "file", ByteSize.Format(file.GetNumber(EventFields.Plan.File.SizeBytes) ?? 0), file.GetString(EventFields.Plan.File.Path));
            }
            if (plan != null)
            {
                text.AppendLine().Append(OutputsText(plan));
                text.AppendLine().Append(RunTimeEstimate.Describe(plan));
            }
            return text.ToString();
        }

        /// <summary>
        /// The results, reports and lock files the plan names. Their names hold the start time (Jetstress's names), so
        /// its parts are named; a name already taken gets "_2", and so on.
        /// </summary>
        private static string OutputsText(JsonObject plan)
        {
            var outputs = plan.GetArray(EventFields.Plan.Outputs).OfType<JsonObject>().ToList();
            var text = new StringBuilder("Results and reports to write (named by the local start time <y>_<M>_<d>_<H>_<m>_<s>; a name already taken gets _2), and the run's lock files (removed when it ends):");
            foreach (var output in outputs)
                text.AppendLine().AppendFormat(CultureInfo.InvariantCulture, "  {0,-10} {1}", output.GetString(EventFields.Plan.Output.Kind), output.GetString(EventFields.Plan.Output.Path));
            return text.ToString();
        }

        /// <summary>The data profile the run's database pages get (the engine's default when neither target is given).</summary>
        private static string DataText(RunSettings settings) =>
            new DataProfile(Convert.ToInt32(settings[RunSetting.CompressibilityPercent] ?? 0, CultureInfo.InvariantCulture),
                Convert.ToInt32(settings[RunSetting.DuplicatePercent] ?? 0, CultureInfo.InvariantCulture)).Describe();

        /// <summary>
        /// How long the run goes. A capacity search's duration is the whole search's time bound, not a measured window:
        /// the engine's plan states it; -Duration, or the default 30 minutes, when there is no plan.
        /// </summary>
        private static string DurationText(JsonObject? plan, RunSettings settings)
        {
            if (settings.TestType != nameof(TestType.Capacity))
                return settings.Duration?.ToString() ?? "the default length for the test type";
            double bound = plan?.GetObject(EventFields.Plan.Capacity)?.GetNumber(EventFields.Plan.CapacityPlan.BoundSeconds)
                ?? settings.Duration?.TotalSeconds ?? RunDefaults.CapacityBoundSeconds;
            return string.Format(CultureInfo.InvariantCulture, "at most {0}, the whole search's time bound ({1})",
                TimeSpan.FromSeconds(bound), settings.Duration.HasValue ? "-Duration" : "the default");
        }

        /// <summary>A capacity search's plan: where it starts, how it steps, how long each step is, and its bound.</summary>
        private static string CapacityPlan(JsonObject c, MailboxProfile profile)
        {
            double N(string field) => c.GetNumber(field) ?? 0;
            return string.Format(CultureInfo.InvariantCulture,
                "Capacity search: from {0} mailboxes at {1} IOPS per mailbox (headroom {2}%), doubling until a step fails the Performance rules, then bisecting to {3}%; " +
                "each step paced at {4} x its target, settling {5} s and measuring {6} s; one {7} s warm-up; at most {8} steps, the whole search within {9} s (it stops itself there and reports the answer so far).",
                N(EventFields.Plan.CapacityPlan.StartMailboxes), profile.IopsPerMailbox, profile.HeadroomPercent, N(EventFields.Plan.CapacityPlan.ResolutionPercent),
                N(EventFields.Plan.CapacityPlan.PaceFactor), N(EventFields.Plan.CapacityPlan.SettleSeconds), N(EventFields.Plan.CapacityPlan.StepSeconds),
                N(EventFields.Plan.CapacityPlan.WarmupSeconds), N(EventFields.Plan.CapacityPlan.MaximumSteps), N(EventFields.Plan.CapacityPlan.BoundSeconds));
        }
    }

    /// <summary>Byte counts for people, in binary units named as such: 52428800 -> '50.0 MiB'.</summary>
    internal static class ByteSize
    {
        private static readonly string[] Units = { "bytes", "KiB", "MiB", "GiB", "TiB", "PiB" };

        public static string Format(double bytes)
        {
            int unit = 0;
            while (System.Math.Abs(bytes) >= 1024 && unit < Units.Length - 1)
            {
                bytes /= 1024;
                unit++;
            }
            return unit == 0 ? bytes.ToString("N0", CultureInfo.InvariantCulture) + " bytes" : bytes.ToString("N1", CultureInfo.InvariantCulture) + " " + Units[unit];
        }
    }
}
