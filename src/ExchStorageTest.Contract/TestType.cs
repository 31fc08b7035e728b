using System;

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

        /// <summary>
        /// The measured window when a request gives none, as Jetstress and ESRP have it: 2 hours Performance and
        /// Throughput, 24 hours Stress; backup and soft recovery end when their work is done (24 hours bounds them).
        /// A capacity search's duration is its time bound (<see cref="CapacityBoundSeconds"/>).
        /// </summary>
        public static double DurationSeconds(TestType type) =>
            type == Contract.TestType.Capacity ? CapacityBoundSeconds
            : type == Contract.TestType.Performance || type == Contract.TestType.Throughput ? 2 * 3600 : 24 * 3600;
    }
}
