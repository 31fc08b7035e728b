using System;
using System.Globalization;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// The instants of a run that starts at an agreed time, in words and numbers, from the engine's plan: every host
    /// starts loading (tuning, warm-up) at the start instant and measures from the start instant + the plan's lead
    /// (schedule.leadSeconds: the tuning budget, the warm-up bound and settling), which the engine derives from the
    /// settings alone, so every host given the same settings measures from the same instant (docs/load-model.md).
    /// </summary>
    internal static class RunInstants
    {
        /// <summary>Seconds from the load start to the measuring start; 0 without a plan.</summary>
        public static double LeadSeconds(JsonObject? plan) => plan?.GetObject(EventFields.Plan.Schedule)?.GetNumber(EventFields.Plan.ScheduleFields.LeadSeconds) ?? 0;

        public static DateTime MeasureAt(DateTime startAtUtc, JsonObject? plan) => startAtUtc.AddSeconds(LeadSeconds(plan));

        /// <summary>"loading ... starts at S; measuring starts at M (...)" for a known start instant.</summary>
        public static string Describe(DateTime startAtUtc, JsonObject? plan) => Describe(startAtUtc, LeadSeconds(plan));

        public static string Describe(DateTime startAtUtc, double leadSeconds) => leadSeconds <= 0
            ? $"loading and measuring start at {UtcTime.Iso(startAtUtc)}"
            : string.Format(CultureInfo.InvariantCulture, "loading (tuning, warm-up) starts at {0}; measuring starts at {1}, {2:0.###} s later on every host",
                UtcTime.Iso(startAtUtc), UtcTime.Iso(startAtUtc.AddSeconds(leadSeconds)), leadSeconds);

        /// <summary>The same before the start instant is known (a start file not read yet).</summary>
        public static string Describe(JsonObject? plan)
        {
            double lead = LeadSeconds(plan);
            return lead <= 0
                ? "loading and measuring start at that instant"
                : string.Format(CultureInfo.InvariantCulture, "loading (tuning, warm-up) starts at that instant and measuring {0:0.###} s later on every host", lead);
        }
    }
}
