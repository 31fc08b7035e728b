using System.Linq;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// How long a host needs to prepare its databases, from the helper's plan: files the plan marks as existing are
    /// reused, the rest are written at an assumed 100 MB/s (conservative for arrays that serve other hosts too),
    /// plus 15 s to start the helper and open files. It only sets how far ahead the common start instant lies: the
    /// helper waits for that instant after preparing, and a host that is not ready in time starts late and logs it.
    /// </summary>
    internal static class PreparationEstimate
    {
        private const double BytesPerSecond = 100.0 * 1024 * 1024;
        private const double StartSeconds = 15;

        /// <summary>The least lead time of a start instant the module chooses itself.</summary>
        public static readonly TimeSpan MinimumLead = TimeSpan.FromSeconds(60);

        public static TimeSpan For(JsonObject? plan)
        {
            double bytes = plan?.GetArray(EventFields.Plan.Files).OfType<JsonObject>()
                .Where(f => !(f[EventFields.Plan.File.Exists] is bool exists && exists))
                .Sum(f => f.GetNumber(EventFields.Plan.File.SizeBytes) ?? 0) ?? 0;
            return TimeSpan.FromSeconds(StartSeconds + Math.Ceiling(bytes / BytesPerSecond));
        }

        /// <summary>The lead time for hosts with these plans: the longest estimate, at least <see cref="MinimumLead"/>.</summary>
        public static TimeSpan Lead(params JsonObject?[] plans)
        {
            TimeSpan lead = MinimumLead;
            foreach (var plan in plans)
            {
                TimeSpan estimate = For(plan);
                if (estimate > lead) lead = estimate;
            }
            return lead;
        }
    }
}
