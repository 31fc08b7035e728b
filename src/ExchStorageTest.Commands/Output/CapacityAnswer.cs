using System;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest
{
    /// <summary>
    /// A capacity search's answer (PSTypeName ExchStorageTest.CapacityAnswer), the <c>Capacity</c> of its TestResult: how
    /// many mailboxes the storage carried at the profile's IOPS per mailbox, the rule that failed the next step, the
    /// ESRP headroom line's figures, and the load curve (docs/capacity.md, "Reading the answer").
    /// </summary>
    public sealed class CapacityAnswer
    {
        /// <summary>The largest mailbox count that passed below the first failing step (with the profile's headroom); 0 when none passed.</summary>
        public int Mailboxes { get; set; }
        /// <summary>The same IOPS at the profile's IOPS per mailbox without its HeadroomPercent.</summary>
        public int MailboxesWithoutHeadroom { get; set; }
        /// <summary>The first failing step's mailbox count; null when no step failed within the bound.</summary>
        public int? LimitingMailboxes { get; set; }
        /// <summary>The rule that failed it: DatabaseReadLatencyAverage/Maximum, LogWriteLatencyAverage/Maximum, PageFaultStalls, TargetIopsNotMet, IoErrors, or HostLimited (the host, not the storage, failed it).</summary>
        public string? LimitingRule { get; set; }
        /// <summary>True when the answer only bounds the capacity from below: the storage carries at least Mailboxes, how many more is not known (LowerBoundReason says why).</summary>
        public bool LowerBound { get; set; }
        /// <summary>
        /// What cut the search before the storage failed a step: HostLimited (this host, not the storage, failed the next
        /// step), or, when no step failed, the search's stop reason (TimeBoundReached, MaximumReached, Stopped, Failed); null
        /// when a failing step bounds the answer.
        /// </summary>
        public string? LowerBoundReason { get; set; }
        /// <summary>True when the last pass and the first fail lie within the search's resolution.</summary>
        public bool Resolved { get; set; }
        /// <summary>The profile's mailbox count.</summary>
        public int RequiredMailboxes { get; set; }
        /// <summary>"N% over the requirement": (Mailboxes / RequiredMailboxes - 1) x 100.</summary>
        public double PercentOverRequirement { get; set; }
        /// <summary>"M IOPS of reserve": the passing step's achieved IOPS less the profile's target.</summary>
        public double ReserveIops { get; set; }
        /// <summary>Resolved, TimeBoundReached, MaximumReached, Stopped or Failed.</summary>
        public string? StopReason { get; set; }
        public string? StopMessage { get; set; }
        /// <summary>Every finished step in the order they ran: the load curve.</summary>
        public CapacityStep[] Steps { get; set; } = Array.Empty<CapacityStep>();

        internal static CapacityAnswer? FromEvent(JsonObject? c)
        {
            if (c == null) return null;
            return new CapacityAnswer
            {
                Mailboxes = (int)(c.GetNumber(EventFields.Result.CapacityFields.Mailboxes) ?? 0),
                MailboxesWithoutHeadroom = (int)(c.GetNumber(EventFields.Result.CapacityFields.MailboxesWithoutHeadroom) ?? 0),
                LimitingMailboxes = c.GetNumber(EventFields.Result.CapacityFields.LimitingMailboxes) is double l ? (int)l : (int?)null,
                LimitingRule = c.GetString(EventFields.Result.CapacityFields.LimitingRule),
                Resolved = c[EventFields.Result.CapacityFields.Resolved] as bool? ?? false,
                LowerBound = c[EventFields.Result.CapacityFields.LowerBound] as bool? ?? false,
                LowerBoundReason = c.GetString(EventFields.Result.CapacityFields.LowerBoundReason),
                RequiredMailboxes = (int)(c.GetNumber(EventFields.Result.CapacityFields.RequiredMailboxes) ?? 0),
                PercentOverRequirement = c.GetNumber(EventFields.Result.CapacityFields.PercentOverRequirement) ?? 0,
                ReserveIops = c.GetNumber(EventFields.Result.CapacityFields.ReserveIops) ?? 0,
                StopReason = c.GetString(EventFields.Result.CapacityFields.StopReason),
                StopMessage = c.GetString(EventFields.Result.CapacityFields.StopMessage),
                Steps = c.GetArray(EventFields.Result.CapacityFields.Steps).OfType<JsonObject>().Select(CapacityStep.From).ToArray(),
            };
        }

        public override string ToString() => (LowerBound ? $"at least {Mailboxes} mailboxes" : $"{Mailboxes} mailboxes")
            + (LimitingRule != null ? $" (limited by {LimitingRule} at {LimitingMailboxes})"
                : LowerBound && LowerBoundReason != null ? $" (no step failed: {LowerBoundReason})" : "");
    }

    /// <summary>One step of a capacity search (PSTypeName ExchStorageTest.CapacityStep): a point of the load curve.</summary>
    public sealed class CapacityStep
    {
        /// <summary>The step's number in the search (1, 2, ...).</summary>
        public int Step { get; set; }
        public int Mailboxes { get; set; }
        public double TargetIops { get; set; }
        public double AchievedIops { get; set; }
        public double DbReadLatencyAvgMs { get; set; }
        public double DbReadLatencyP99Ms { get; set; }
        public double LogWriteLatencyAvgMs { get; set; }
        public double LogWriteLatencyP99Ms { get; set; }
        /// <summary>Pass or Fail, by the Performance test's rules.</summary>
        public string? Result { get; set; }
        public string? LimitingRule { get; set; }
        /// <summary>When the step's measured window started (UTC, the host's clock; a deployment's step: its first host's).</summary>
        public DateTime? MeasureStartUtc { get; set; }
        public double WindowSeconds { get; set; }

        internal static CapacityStep From(JsonObject s) => new CapacityStep
        {
            Step = (int)(s.GetNumber(EventFields.Result.CapacityFields.Step.Number) ?? 0),
            MeasureStartUtc = Runs.UtcTime.Parse(s.GetString(EventFields.Result.CapacityFields.Step.MeasureStartUtc)),
            WindowSeconds = s.GetNumber(EventFields.Result.CapacityFields.Step.WindowSeconds) ?? 0,
            Mailboxes = (int)(s.GetNumber(EventFields.Result.CapacityFields.Step.Mailboxes) ?? 0),
            TargetIops = s.GetNumber(EventFields.Result.CapacityFields.Step.TargetIops) ?? 0,
            AchievedIops = s.GetNumber(EventFields.Result.CapacityFields.Step.AchievedIops) ?? 0,
            DbReadLatencyAvgMs = s.GetNumber(EventFields.Result.CapacityFields.Step.DbReadLatencyAvgMs) ?? 0,
            DbReadLatencyP99Ms = s.GetNumber(EventFields.Result.CapacityFields.Step.DbReadLatencyP99Ms) ?? 0,
            LogWriteLatencyAvgMs = s.GetNumber(EventFields.Result.CapacityFields.Step.LogWriteLatencyAvgMs) ?? 0,
            LogWriteLatencyP99Ms = s.GetNumber(EventFields.Result.CapacityFields.Step.LogWriteLatencyP99Ms) ?? 0,
            Result = s.GetString(EventFields.Result.CapacityFields.Step.Result),
            LimitingRule = s.GetString(EventFields.Result.CapacityFields.Step.LimitingRule),
        };
    }
}
