using System;
using System.Globalization;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The rules of a test's settings, defined once. The engine's plan checks every request with them (Invoke-StorageTest
    /// plans before ShouldProcess, so a bad value is refused before anything is written); the module uses the few a
    /// command needs before any engine runs: an ESRP suite's StressDuration and New-StorageTestRun's start instant.
    /// </summary>
    public static class RunRules
    {
        /// <summary>How far ahead a start instant may lie: further is a typo, not a plan.</summary>
        public static readonly TimeSpan MaximumStartLead = TimeSpan.FromDays(7);

        public static readonly NumberRule Duration = new NumberRule("Duration", RequestFields.DurationSeconds, ErrorCodes.DurationOutOfRange, 0, 30 * 86400,
            exclusiveMinimum: true, seconds: true, hint: "for example 00:30:00");
        public static readonly NumberRule StressDuration = Duration.Named("StressDuration", RequestFields.DurationSeconds);
        public static readonly NumberRule Warmup = new NumberRule("Warmup", RequestFields.WarmupSeconds, ErrorCodes.WarmupOutOfRange, 0, 86400,
            seconds: true, hint: "omit it for the automatic warm-up");
        public static readonly NumberRule SampleInterval = new NumberRule("SampleIntervalSeconds", RequestFields.SampleIntervalSeconds, ErrorCodes.SampleIntervalOutOfRange, 1, 3600);
        public static readonly NumberRule TuningSeconds = new NumberRule("TuningSeconds", RequestFields.TuningSeconds, ErrorCodes.TuningSecondsOutOfRange, 4, 3600,
            hint: "omit it for the default: the test duration, within 12 to 180 seconds");
        public static readonly NumberRule ThreadCount = ProfileRules.ThreadCount.Named("ThreadCount", RequestFields.ThreadCount);
        public static readonly NumberRule TargetRateIops = new NumberRule("TargetRateIops", RequestFields.TargetRateIops, ErrorCodes.TargetRateOutOfRange, 0, 10_000_000, exclusiveMinimum: true);
        public static readonly NumberRule LogFilesToReplay = new NumberRule("LogFilesToReplay", RequestFields.LogFilesToReplay, ErrorCodes.LogFilesToReplayOutOfRange, 1, 100_000, integer: true);
        // Up to 100, as Jetstress's CapacityPercentage: the share is of the room left after the databases' logs, the results and
        // file-system metadata (ThroughputSizing), and a database grows by at most half the free space left (RunContext).
        public static readonly NumberRule CapacityPercent = new NumberRule("CapacityPercent", RequestFields.CapacityPercent, ErrorCodes.CapacityPercentOutOfRange, 0, 100, exclusiveMinimum: true);
        // Whole percentages: the database header records them (DataProfile). Compressibility stops at 90% (10:1), duplicates at
        // 75% (the first 4 KiB block of every page carries its identity and is never a duplicate).
        public static readonly NumberRule CompressibilityPercent = new NumberRule("CompressibilityPercent", RequestFields.CompressibilityPercent, ErrorCodes.CompressibilityPercentOutOfRange, 0, 90, integer: true);
        public static readonly NumberRule DuplicatePercent = new NumberRule("DuplicatePercent", RequestFields.DuplicatePercent, ErrorCodes.DuplicatePercentOutOfRange, 0, 75, integer: true);
        public static readonly NumberRule MaxResultAgeHours = new NumberRule("MaxResultAgeHours", RequestFields.MaxResultAgeHours, ErrorCodes.MaxResultAgeOutOfRange, 0, 87_600, exclusiveMinimum: true);

        /// <summary>The rule of one latency limit of <c>thresholds</c> (every limit has the same range).</summary>
        public static NumberRule Threshold(string limit) =>
            new NumberRule(limit, RequestFields.Thresholds + "." + limit, ErrorCodes.ThresholdOutOfRange, 0, 100_000, exclusiveMinimum: true);

        /// <summary>
        /// Every number rule of a request's own fields (the profile's are in <see cref="ProfileRules.Numbers"/>): the run
        /// settings' (<see cref="RunSettingTable"/>), the validation command's and each latency limit's. Made on each call, so
        /// that the table, whose entries name the rules above, may be read from anywhere without an order of initialisation.
        /// </summary>
        public static NumberRule[] Numbers =>
            RunSettingTable.All.Where(s => s.Rule != null).Select(s => s.Rule!).Concat(new[] { MaxResultAgeHours })
            .Concat(ThresholdFields.Limits.Select(Threshold)).ToArray();

        /// <summary>A fixed session count drives a closed loop, a target rate an open one: not both.</summary>
        public static Violation? CheckLoad(int? threadCount, double? targetRateIops) =>
            threadCount.HasValue && targetRateIops.HasValue
                ? new Violation(ErrorCodes.ConflictingLoadSettings, "ThreadCount and TargetRateIops cannot be used together: a fixed thread count drives a closed loop, a target rate an open loop. Give one of them.")
                : null;

        /// <summary>
        /// A capacity search's driver (<see cref="RequestFields.CapacitySteps"/>): absent or <see cref="CapacityStepping.Engine"/>,
        /// or <see cref="CapacityStepping.Caller"/> for a capacity search only (no other test type has steps to send).
        /// </summary>
        public static Violation? CheckCapacitySteps(string? capacitySteps, TestType testType)
        {
            if (capacitySteps is null || string.Equals(capacitySteps, CapacityStepping.Engine, StringComparison.OrdinalIgnoreCase)) return null;
            if (!string.Equals(capacitySteps, CapacityStepping.Caller, StringComparison.OrdinalIgnoreCase))
                return new Violation(ErrorCodes.CapacitySteppingInvalid, $"capacitySteps '{capacitySteps}' is not {CapacityStepping.Engine} or {CapacityStepping.Caller}.", capacitySteps);
            if (testType != TestType.Capacity)
                return new Violation(ErrorCodes.CapacitySteppingInvalid, $"capacitySteps {CapacityStepping.Caller} is for a capacity search; a {testType} test has no steps to send.", capacitySteps);
            return null;
        }

        /// <summary>Restore needs the folder of the backup set; no other source takes one.</summary>
        public static Violation? CheckRestore(DatabaseSource source, string? restoreFromPath)
        {
            bool given = !string.IsNullOrWhiteSpace(restoreFromPath);
            if (source == DatabaseSource.Restore && !given)
                return new Violation(ErrorCodes.RestorePathMissing, "DatabaseSource Restore needs RestoreFromPath: the folder holding the backup set to restore.");
            if (source != DatabaseSource.Restore && given)
                return new Violation(ErrorCodes.RestorePathWithoutRestore, $"RestoreFromPath is only used with DatabaseSource Restore (DatabaseSource is '{source}').", restoreFromPath);
            return null;
        }

        /// <summary>A start instant lies ahead of <paramref name="nowUtc"/>, and not more than <see cref="MaximumStartLead"/>.</summary>
        public static Violation? CheckStart(DateTime? startAtUtc, DateTime nowUtc)
        {
            if (!startAtUtc.HasValue) return null;
            DateTime at = startAtUtc.Value.Kind == DateTimeKind.Local ? startAtUtc.Value.ToUniversalTime() : startAtUtc.Value;
            string shown = at.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);
            if (at <= nowUtc)
                return new Violation(ErrorCodes.StartTimeOutOfRange, $"StartAtUtc {shown} is not in the future.", shown);
            if (at > nowUtc + MaximumStartLead)
                return new Violation(ErrorCodes.StartTimeOutOfRange, $"StartAtUtc {shown} is more than {MaximumStartLead.TotalDays:0} days ahead.", shown);
            return null;
        }
    }
}
