using System.Text.Json.Serialization;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// A capacity search's own part of the results document (results-schema.md, "capacity"): how its steps were timed,
/// every finished step, the answer and why the search ended. Null in every other test type's document.
/// </summary>
public sealed class CapacityResult
{
    /// <summary>The search's time bound: warm-up and every step end within it (the request's duration).</summary>
    public double BoundSeconds { get; set; }
    /// <summary>Each step's settling at its paced rate before it measures (not judged).</summary>
    public double SettleSeconds { get; set; }
    /// <summary>Each step's measured window: at least <see cref="Capacity.CapacityTiming.MinimumWindowSamples"/> sample intervals.</summary>
    public double StepSeconds { get; set; }
    /// <summary>The first step's mailbox count (the profile's).</summary>
    public int StartMailboxes { get; set; }
    /// <summary>The resolution the bisection stops at, in percent of the passing count.</summary>
    public double ResolutionPercent { get; set; }
    /// <summary>How each step's rate relates to its target: sessions think so the load holds this multiple of the target, as a Performance test's do.</summary>
    public double PaceFactor { get; set; }
    /// <summary>
    /// Who chose the steps (<see cref="CapacityStepping"/>): Engine, this host's own search; Caller, an orchestrator stepping
    /// several hosts together (each host's answer is over the steps it ran; the deployment's is in the aggregate report).
    /// </summary>
    public string SteppedBy { get; set; } = CapacityStepping.Engine;
    /// <summary>The unfinished search this one continued (its results file), whose steps open <see cref="Steps"/>; null for a fresh search.</summary>
    public string? ResumedFrom { get; set; }
    /// <summary>Every finished step, in the order they ran; a step cut short by a stop is not kept (it has no verdict).</summary>
    public List<CapacityStep> Steps { get; set; } = new();
    public CapacityAnswer Answer { get; set; } = new();
    /// <summary>
    /// The step whose window the document's measured figures are (instances, sizing's target and achieved IOPS, collection
    /// window, host counters, time series): the answer's step, or the first failing step when none passed
    /// (<see cref="Capacity.CapacitySearch.ReportedStep"/>); null when the document holds no step's window (none finished, or
    /// it ran in the search this one continued).
    /// </summary>
    public int? ReportedStep { get; set; }

    /// <summary>The step of <see cref="ReportedStep"/>; null when the document holds no step's window.</summary>
    public CapacityStep? Reported() => ReportedStep is int n ? Steps.FirstOrDefault(s => s.Step == n) : null;
    /// <summary>Resolved, TimeBoundReached, Stopped, Failed, or MaximumReached: why the search ended.</summary>
    public string StopReason { get; set; } = "";
    /// <summary>The same in words (also in the test log).</summary>
    public string StopMessage { get; set; } = "";
}

/// <summary>One step: a paced load of this many mailboxes, measured and judged by the Performance rules.</summary>
public sealed class CapacityStep
{
    public int Step { get; set; }
    public int Mailboxes { get; set; }
    /// <summary>What a Performance test of this many mailboxes targets: mailboxes x IOPS per mailbox x (1 + headroom).</summary>
    public double TargetIops { get; set; }
    /// <summary>The rate the sessions' think time holds the load to (target x pace factor).</summary>
    public double PacedIops { get; set; }
    public int Sessions { get; set; }
    public DateTime MeasureStartUtc { get; set; }
    public double WindowSeconds { get; set; }
    public double AchievedIops { get; set; }
    /// <summary>Operation-weighted over the databases.</summary>
    public double DatabaseReadLatencyAverageMs { get; set; }
    /// <summary>The highest p99 of any database (each database is judged on its own).</summary>
    public double DatabaseReadLatencyP99Ms { get; set; }
    /// <summary>The highest sample average of any database: what the maximum rule judges.</summary>
    public double DatabaseReadLatencyMaximumMs { get; set; }
    public double LogWriteLatencyAverageMs { get; set; }
    public double LogWriteLatencyP99Ms { get; set; }
    public double LogWriteLatencyMaximumMs { get; set; }
    /// <summary>The highest average Database Page Fault Stalls/sec of any database.</summary>
    public double PageFaultStallsPerSecond { get; set; }
    public long IoErrors { get; set; }
    public bool Passed { get; set; }
    /// <summary>Every rule the step broke, as a Performance test's verdict reasons.</summary>
    public List<VerdictReason> Reasons { get; set; } = new();
    /// <summary>The reason furthest beyond its limit (IoErrors first, then HostLimited); null for a pass.</summary>
    public string? LimitingRule { get; set; }
    /// <summary>How well the host kept up over the step's window (what a HostLimited reason is judged from).</summary>
    // The results files' field keeps its published name (consumers read hostEvidence); the type says what it is.
    [JsonPropertyName("hostEvidence")]
    public MachineEvidence? MachineEvidence { get; set; }
}

/// <summary>The search's answer (docs/capacity.md, "Reading the answer").</summary>
public sealed class CapacityAnswer
{
    /// <summary>The largest mailbox count that passed below the first failing step; 0 when none passed.</summary>
    public int Mailboxes { get; set; }
    /// <summary>The same IOPS at the profile's IOPS per mailbox without its HeadroomPercent: Mailboxes x (1 + headroom).</summary>
    public int MailboxesWithoutHeadroom { get; set; }
    public double TargetIops { get; set; }
    /// <summary>What the passing step achieved.</summary>
    public double AchievedIops { get; set; }
    /// <summary>The first failing step's mailbox count (null: no step failed within the bound).</summary>
    public int? LimitingMailboxes { get; set; }
    /// <summary>The rule that failed it: DatabaseReadLatencyAverage/Maximum, LogWriteLatencyAverage/Maximum, PageFaultStalls, TargetIopsNotMet, IoErrors, or HostLimited (the host, not the storage, failed it).</summary>
    public string? LimitingRule { get; set; }
    /// <summary>
    /// True when the answer only bounds the storage's capacity from below: the storage carries at least <see cref="Mailboxes"/>,
    /// how many more is not known. <see cref="LowerBoundReason"/> says what cut the search.
    /// </summary>
    public bool LowerBound { get; set; }
    /// <summary>
    /// What cut the search before the storage failed a step (<see cref="Capacity.CapacitySearch.LowerBoundReason"/>):
    /// HostLimited (the host failed the first failing step), or, when no step failed, the stop reason (TimeBoundReached,
    /// MaximumReached, Stopped, Failed) or Interrupted (a search that never ended); null when a failing step bounds the answer.
    /// </summary>
    public string? LowerBoundReason { get; set; }
    public List<VerdictReason> LimitingReasons { get; set; } = new();
    /// <summary>True when the last pass and the first fail are within the resolution: the answer is as exact as the search goes.</summary>
    public bool Resolved { get; set; }
    /// <summary>The profile's mailbox count: the requirement the headroom line compares with.</summary>
    public int RequiredMailboxes { get; set; }
    /// <summary>(Mailboxes / RequiredMailboxes - 1) x 100: the ESRP line's "N% over the requirement".</summary>
    public double PercentOverRequirement { get; set; }
    /// <summary>The profile's target IOPS (its mailbox count at its IOPS per mailbox and headroom).</summary>
    public double RequiredIops { get; set; }
    /// <summary>AchievedIops - RequiredIops: the ESRP line's "M IOPS of reserve" (negative: short of the requirement).</summary>
    public double ReserveIops { get; set; }
}
