using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The five Jetstress test types (SPEC section 2) and the capacity search (docs/capacity.md). The module's -TestType
    /// sets name them with nameof, so a cmdlet cannot offer a type the engine does not run.
    /// </summary>
    public enum TestType
    {
        Performance,
        Stress,
        DatabaseBackup,
        SoftRecovery,
        Throughput,
        /// <summary>Steps the paced mailbox load up until a step fails the Performance rules: how many mailboxes the storage carries.</summary>
        Capacity,
    }

    /// <summary>
    /// What a test type is, declared once (docs/module.md, "Adding a test type"): the module, the engine's plan, runs,
    /// verdict and reports ask these instead of listing types. docs/Invoke-StorageTest.md's test-type table states the same
    /// (a test holds the two together).
    /// </summary>
    public sealed class TestTypeTraits
    {
        internal TestTypeTraits(TestType type, bool transactional, double defaultDurationSeconds, string thresholdsPreset, string? jetstressName, string esrpTitle)
        {
            Type = type;
            Transactional = transactional;
            DefaultDurationSeconds = defaultDurationSeconds;
            ThresholdsPreset = thresholdsPreset;
            JetstressName = jetstressName;
            EsrpTitle = esrpTitle;
        }

        public TestType Type { get; }

        /// <summary>
        /// Exchange's transactional load over one measured window (sessions tuned or given, a warm-up, page-fault stalls):
        /// what a fault window, a re-judgement, a comparison's load figures and the calculator and capture checks need.
        /// </summary>
        public bool Transactional { get; }

        /// <summary>Whether a failure-mode window may be declared: only a test with a measured load window has one to put it in.</summary>
        public bool TakesFaultWindow => Transactional;

        /// <summary>The measured window when a request gives none (<see cref="RunDefaults.DurationSeconds"/>).</summary>
        public double DefaultDurationSeconds { get; }

        /// <summary>The latency limits it is judged by unless told otherwise: <see cref="ThresholdPresets"/>.</summary>
        public string ThresholdsPreset { get; }

        /// <summary>The Jetstress test it is (JetstressCmd's /type, JetstressConfig.xml's Type); null for one Jetstress has not.</summary>
        public string? JetstressName { get; }

        /// <summary>The title of its appendix in the ESRP document.</summary>
        public string EsrpTitle { get; }

        public override string ToString() => Type.ToString();
    }

    /// <summary>The names of the latency presets (SPEC section 4): Strict by default, Lenient for Stress.</summary>
    public static class ThresholdPresets
    {
        public const string Strict = "Strict";
        public const string Lenient = "Lenient";
    }

    /// <summary>Every test type's traits (<see cref="TestTypeTraits"/>), one row each, in <see cref="TestType"/>'s order.</summary>
    public static class TestTypes
    {
        private const double Hour = 3600;

        public static readonly IReadOnlyList<TestTypeTraits> All = new[]
        {
            // Jetstress and ESRP: 2 hours Performance and Throughput, 24 hours Stress; backup and soft recovery end when their work
            // is done (24 hours bounds them); a capacity search's duration is its time bound, the whole search in 30 minutes.
            new TestTypeTraits(TestType.Performance, transactional: true, 2 * Hour, ThresholdPresets.Strict, "Performance", "Performance testing"),
            new TestTypeTraits(TestType.Stress, transactional: true, 24 * Hour, ThresholdPresets.Lenient, "Stress", "Stress testing"),
            new TestTypeTraits(TestType.DatabaseBackup, transactional: false, 24 * Hour, ThresholdPresets.Strict, "DatabaseBackup", "Backup testing"),
            new TestTypeTraits(TestType.SoftRecovery, transactional: false, 24 * Hour, ThresholdPresets.Strict, "SoftRecovery", "Recovery testing"),
            // Jetstress's Performance test with DatabaseSizing Capacity (JetstressCmd sends reportedAs Performance).
            new TestTypeTraits(TestType.Throughput, transactional: true, 2 * Hour, ThresholdPresets.Strict, "Performance", "Throughput testing"),
            new TestTypeTraits(TestType.Capacity, transactional: false, RunDefaults.CapacityBoundSeconds, ThresholdPresets.Strict, null, "Capacity testing"),
        };

        /// <summary>The traits of <paramref name="type"/>.</summary>
        public static TestTypeTraits Of(TestType type) => All.First(t => t.Type == type);

        /// <summary>The test types with a measured transactional load window, as messages name them: "Performance, Stress or Throughput".</summary>
        public static string TransactionalNames
        {
            get
            {
                var names = All.Where(t => t.Transactional).Select(t => t.Type.ToString()).ToList();
                return names.Count < 2 ? string.Join("", names) : string.Join(", ", names.Take(names.Count - 1)) + " or " + names[names.Count - 1];
            }
        }
    }

    /// <summary>Where the database set comes from before the run.</summary>
    public enum DatabaseSource
    {
        /// <summary>Create new databases (re-using a compatible set of ours when present).</summary>
        Create,
        /// <summary>Validate and use an existing set: header, geometry, instance ids.</summary>
        Attach,
        /// <summary>Copy a backup set into place, then attach.</summary>
        Restore,
    }

    /// <summary>The tests of an ESRP submission, in the order they run on one database set.</summary>
    public static class EsrpTests
    {
        /// <summary>Performance, Stress (with its checksum pass), DatabaseBackup, SoftRecovery.</summary>
        public static readonly TestType[] Order = { TestType.Performance, TestType.Stress, TestType.DatabaseBackup, TestType.SoftRecovery };
    }

    /// <summary>
    /// What a request gets for a setting it leaves out: the engine applies these, and the module sends only the
    /// settings a user gave, so each default is written here once.
    /// </summary>
    public static class RunDefaults
    {
        public const TestType TestType = Contract.TestType.Performance;
        public const DatabaseSource DatabaseSource = Contract.DatabaseSource.Create;
        /// <summary>The longest sample interval a request gets when it gives none (Jetstress's 15 s).</summary>
        public const double SampleIntervalSeconds = 15;
        /// <summary>The samples a measured window gets at least when the interval is picked for it: a chart of 2 points shows nothing.</summary>
        public const int MinimumSamples = 20;

        /// <summary>
        /// The sample interval for a window when the request gives none: whole seconds, at most 15 s, short enough for
        /// <see cref="MinimumSamples"/> samples, never under the rule's 1 s (a 30 s run samples every second, 2 hours every 15 s).
        /// </summary>
        public static double SampleIntervalFor(double durationSeconds) =>
            Math.Max(1, Math.Min(SampleIntervalSeconds, Math.Floor(durationSeconds / MinimumSamples)));
        public const int LogFilesToReplay = 500;
        public const double CapacityPercent = 20;
        public const bool PinWorkerThreads = true;
        /// <summary>How fresh a passing result must be for the desired state (validation, dsc).</summary>
        public const double MaxResultAgeHours = 24;

        /// <summary>The capacity search's time bound when a request gives none: the whole search in 30 minutes.</summary>
        public const double CapacityBoundSeconds = 30 * 60;

        /// <summary>The measured window when a request gives none: the test type's (<see cref="TestTypeTraits.DefaultDurationSeconds"/>).</summary>
        public static double DurationSeconds(TestType type) => TestTypes.Of(type).DefaultDurationSeconds;
    }
}
