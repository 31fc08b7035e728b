using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Capacity;

/// <summary>
/// The capacity search's domain logic beyond its step sequence, defined once and free of I/O (docs/capacity.md): a step's
/// target, the answer, the rule that limits it and the headroom arithmetic. The sequence itself — which count the next
/// step loads, when the search has its answer — is the contract's <see cref="CapacitySequence"/>, shared with the
/// orchestrator that steps several hosts together.
/// </summary>
public static class CapacitySearch
{
    /// <summary>The transactional IOPS a step at <paramref name="mailboxes"/> must reach: what a Performance test of that many mailboxes targets (with the profile's headroom).</summary>
    public static double TargetIops(MailboxProfile profile, int mailboxes) =>
        Math.Round(mailboxes * profile.IopsPerMailbox * (1 + profile.HeadroomPercent / 100.0), 3);

    /// <summary>
    /// The mailboxes the answer's IOPS carry at the profile's IOPS per mailbox alone, without its headroom: the same load
    /// spread over more mailboxes (arithmetic on the measured answer, not a step of its own).
    /// </summary>
    public static int WithoutHeadroom(MailboxProfile profile, int mailboxes) =>
        (int)Math.Floor(mailboxes * (1 + profile.HeadroomPercent / 100.0) + 1e-9);

    /// <summary>
    /// The rule that failed a step, by the codes of <see cref="Verdict.VerdictJudge"/>: an I/O error first (one fails any
    /// test); then <see cref="Verdict.MachineLimit.Code"/> when the host explains every failed load rule (the step says
    /// nothing about the storage: the answer is a lower bound); else the latency or IOPS reason furthest beyond its
    /// limit (latency: measured / limit; IOPS: target / achieved); page fault stalls only when no latency or IOPS rule
    /// failed, because stalls are what slow reads do to the database cache and their 1/s limit would outrank every
    /// latency ratio. Null for a step with no reason.
    /// </summary>
    public static string? LimitingRule(IReadOnlyList<VerdictReason> reasons)
    {
        if (reasons.Count == 0) return null;
        var io = reasons.FirstOrDefault(r => r.Code == Verdict.VerdictJudge.IoErrorsCode);
        if (io is not null) return io.Code;
        if (reasons.Any(r => r.Code == Verdict.MachineLimit.Code)) return Verdict.MachineLimit.Code;
        VerdictReason? worst = null;
        double worstRatio = double.NegativeInfinity;
        foreach (var r in reasons)
        {
            double ratio = r.Code == "PageFaultStalls" ? double.MinValue : Overshoot(r);
            if (ratio > worstRatio) { worst = r; worstRatio = ratio; }
        }
        return worst!.Code;
    }

    private static double Overshoot(VerdictReason r)
    {
        if (r.Measured is not double m || r.Limit is not double l) return 0;
        if (r.Code == "TargetIopsNotMet") return m > 0 ? l / m : double.PositiveInfinity;
        return l > 0 ? m / l : double.PositiveInfinity;
    }

    /// <summary>
    /// The answer of the steps so far (docs/capacity.md): the largest count that passed below the first fail, the
    /// rule of that fail, whether the answer only bounds the storage's capacity from below and what cut it
    /// (<see cref="LowerBoundReason"/>), and the answer set against the profile's own mailbox count as an ESRP headroom
    /// line reads it. <paramref name="stopReason"/> is why the search ended (<see cref="CapacityStopReasons"/>); null or
    /// empty while it runs (a checkpoint's answer, which stays only if the run never finishes).
    /// </summary>
    public static CapacityAnswer Answer(MailboxProfile profile, IReadOnlyList<CapacityStep> steps, string? stopReason = null)
    {
        var outcomes = steps.Select(s => new StepOutcome(s.Mailboxes, s.Passed)).ToList();
        var (pass, fail) = outcomes.Count == 0 ? (null, null) : CapacitySequence.Bracket(outcomes);
        int mailboxes = pass ?? 0;
        var passed = pass is int p ? steps.Where(s => s.Passed && s.Mailboxes == p).MaxBy(s => s.AchievedIops) : null;
        var failed = fail is int f ? steps.First(s => !s.Passed && s.Mailboxes == f) : null;
        double required = profile.TargetIops;
        double achieved = passed?.AchievedIops ?? 0;
        string? cut = LowerBoundReason(pass, failed, stopReason);
        return new CapacityAnswer
        {
            Mailboxes = mailboxes,
            MailboxesWithoutHeadroom = WithoutHeadroom(profile, mailboxes),
            TargetIops = TargetIops(profile, mailboxes),
            AchievedIops = Math.Round(achieved, 3),
            LimitingMailboxes = fail,
            LimitingRule = failed?.LimitingRule,
            LowerBound = cut is not null,
            LowerBoundReason = cut,
            LimitingReasons = failed?.Reasons ?? new List<VerdictReason>(),
            Resolved = fail is int ff && pass is int pp ? ff - pp <= CapacitySequence.Resolution(pp) : fail is 1,
            RequiredMailboxes = profile.MailboxCount,
            PercentOverRequirement = profile.MailboxCount > 0 ? Math.Round((mailboxes / (double)profile.MailboxCount - 1) * 100, 1) : 0,
            RequiredIops = required,
            ReserveIops = Math.Round(achieved - required, 3),
        };
    }

    /// <summary>
    /// The step whose window a capacity document's measured figures are (docs/capacity.md, "Reading the answer"): the
    /// answer's (the passing step at the answer with the most IOPS), or, when no step passed, the first failing step, which
    /// shows why; null when no step finished.
    /// </summary>
    public static CapacityStep? ReportedStep(IReadOnlyList<CapacityStep> steps, CapacityAnswer answer) =>
        answer.Mailboxes > 0
            ? steps.Where(s => s.Passed && s.Mailboxes == answer.Mailboxes).MaxBy(s => s.AchievedIops)
            : answer.LimitingMailboxes is int f ? steps.FirstOrDefault(s => !s.Passed && s.Mailboxes == f) : null;

    /// <summary>
    /// What keeps the answer from being the storage's limit, or null when a step failed on the storage's own rules: the
    /// host (<see cref="Verdict.MachineLimit.Code"/>: it, not the storage, failed the first failing step), or, when a step
    /// passed and none failed, what ended the search before it found a failing step — its stop reason (TimeBoundReached,
    /// MaximumReached, Stopped, Failed) or <see cref="Completions.Interrupted"/> for a search that has not ended (the
    /// checkpoint of a killed run). Either way the storage carries at least the answer; how many more is not known.
    /// </summary>
    public static string? LowerBoundReason(int? pass, CapacityStep? failed, string? stopReason)
    {
        if (failed is not null) return failed.LimitingRule == Verdict.MachineLimit.Code ? Verdict.MachineLimit.Code : null;
        if (pass is null) return null;
        return string.IsNullOrEmpty(stopReason) ? Completions.Interrupted : stopReason;
    }
}
