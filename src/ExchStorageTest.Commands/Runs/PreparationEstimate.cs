using System;
using System.Globalization;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// How long a host needs to prepare its databases, from the engine's plan: files the plan marks as existing are
    /// reused, the rest are written at <see cref="AssumedMBPerSecond"/>, plus 15 s to start the engine and open files.
    /// It is an assumption, not a measurement, and says so (<see cref="Describe"/>): nothing is known of a host's
    /// storage before it writes. The engine creates a database at the device's sequential write speed (1,305 MiB/s on
    /// the virtio disk of docs/benchmarks.md, 0.87x fio's 1 MiB writes); 100 MB/s is what a host gets from an array
    /// that several hosts fill at once, or from a few spinning disks. The estimate only sets how far ahead the common
    /// start instant lies: every engine waits for that instant after preparing, and a host not ready in time starts
    /// late and says so (its window is then shifted against the others'): give -StartAtUtc for a later start.
    /// </summary>
    internal static class PreparationEstimate
    {
        /// <summary>The creation rate the estimate assumes for a host, in MB/s.</summary>
        public const double AssumedMBPerSecond = 100;

        private const double BytesPerSecond = AssumedMBPerSecond * 1024 * 1024;

        /// <summary>Starting the engine and opening the files, whatever the storage.</summary>
        public const double StartSeconds = 15;

        /// <summary>The least lead time of a start instant the module chooses itself.</summary>
        public static readonly TimeSpan MinimumLead = TimeSpan.FromSeconds(60);

        public static TimeSpan For(JsonObject? plan) => TimeSpan.FromSeconds(StartSeconds + SecondsFor(ToCreate(plan)));

        /// <summary>Seconds to write (or read through) <paramref name="bytes"/> at the assumed rate.</summary>
        public static double SecondsFor(double bytes) => Math.Ceiling(bytes / BytesPerSecond);

        /// <summary>The bytes of the plan's files that do not exist yet.</summary>
        public static double ToCreate(JsonObject? plan) =>
            plan?.GetArray(EventFields.Plan.Files).OfType<JsonObject>()
                .Where(f => !(f[EventFields.Plan.File.Exists] is bool exists && exists))
                .Sum(f => f.GetNumber(EventFields.Plan.File.SizeBytes) ?? 0) ?? 0;

        /// <summary>The estimate in words: what it counts and what it assumes.</summary>
        public static string Describe(JsonObject? plan)
        {
            double bytes = ToCreate(plan);
            return bytes <= 0
                ? string.Format(CultureInfo.InvariantCulture, "preparation about {0:0} s (nothing to create)", For(plan).TotalSeconds)
                : string.Format(CultureInfo.InvariantCulture, "preparation about {0:0} s ({1:0.#} GiB to create at an assumed {2:0} MB/s)", For(plan).TotalSeconds, bytes / (1024.0 * 1024 * 1024), AssumedMBPerSecond);
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
