using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Capacity;

/// <summary>What a finished step of the search contributes to the next decision: its mailbox count and whether it passed.</summary>
public readonly record struct StepOutcome(int Mailboxes, bool Passed);

/// <summary>
/// The capacity search's domain logic, defined once and free of I/O (docs/capacity.md): which mailbox count the next
/// step loads, when the search has its answer, the answer, the rule that limits it and the headroom arithmetic.
/// <para>The sequence: start at the profile's mailbox count; while every step passes, double; while every step fails,
/// halve; once there is a passing count below a failing one, bisect between the largest such pass and the smallest
/// fail until they are within <see cref="ResolutionPercent"/> of the pass (at least one mailbox). The search assumes
/// what storage does: more load never lowers latency. Where a measurement contradicts it (a pass above a fail), the
/// smallest fail bounds the answer, so the answer is never a count above a step that failed.</para>
/// </summary>
public static class CapacitySearch
{
    /// <summary>The bisection stops when the last pass and the first fail are this close, in percent of the pass.</summary>
    public const double ResolutionPercent = 5;

    /// <summary>The most a search doubles to: beyond this a step's rate is no storage's, and the count would overflow.</summary>
    public const int MaximumMailboxes = 1 << 26;

    /// <summary>The mailbox count of the next step, or null when the search has its answer (or cannot go further).</summary>
    public static int? Next(int start, IReadOnlyList<StepOutcome> steps)
    {
        if (start < 1) throw new ArgumentOutOfRangeException(nameof(start), start, "A search starts at one mailbox or more.");
        if (steps.Count == 0) return start;
        var (pass, fail) = Bracket(steps);
        if (fail is not int f)
        {
            int top = pass!.Value;
            return top >= MaximumMailboxes ? null : Math.Min(MaximumMailboxes, top * 2);
        }
        if (pass is not int p) return f <= 1 ? null : f / 2;
        if (f - p <= Resolution(p)) return null;
        return p + (f - p) / 2;
    }

    /// <summary>
    /// The largest passing count below the smallest failing one, and that failing count: the interval the answer lies in.
    /// Pass null: no step passed below the first fail; fail null: no step failed.
    /// </summary>
    public static (int? Pass, int? Fail) Bracket(IReadOnlyList<StepOutcome> steps)
    {
        int? fail = null;
        foreach (var s in steps) if (!s.Passed && (fail is null || s.Mailboxes < fail)) fail = s.Mailboxes;
        int? pass = null;
        foreach (var s in steps) if (s.Passed && (fail is null || s.Mailboxes < fail) && (pass is null || s.Mailboxes > pass)) pass = s.Mailboxes;
        return (pass, fail);
    }

    /// <summary>How close the bracket must be around a passing count: <see cref="ResolutionPercent"/> of it, at least one mailbox.</summary>
    public static int Resolution(int passedMailboxes) => Math.Max(1, (int)Math.Ceiling(passedMailboxes * ResolutionPercent / 100));

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
    /// test); else the latency or IOPS reason furthest beyond its limit (latency: measured / limit; IOPS: target /
    /// achieved); page fault stalls only when no latency or IOPS rule failed, because stalls are what slow reads do to
    /// the database cache and their 1/s limit would outrank every latency ratio. Null for a step with no reason.
    /// </summary>
    public static string? LimitingRule(IReadOnlyList<VerdictReason> reasons)
    {
        if (reasons.Count == 0) return null;
        var io = reasons.FirstOrDefault(r => r.Code == "IoErrors");
        if (io is not null) return io.Code;
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
    /// rule of that fail, and the answer set against the profile's own mailbox count as an ESRP headroom line reads it.
    /// </summary>
    public static CapacityAnswer Answer(MailboxProfile profile, IReadOnlyList<CapacityStep> steps)
    {
        var outcomes = steps.Select(s => new StepOutcome(s.Mailboxes, s.Passed)).ToList();
        var (pass, fail) = outcomes.Count == 0 ? (null, null) : Bracket(outcomes);
        int mailboxes = pass ?? 0;
        var passed = pass is int p ? steps.Where(s => s.Passed && s.Mailboxes == p).MaxBy(s => s.AchievedIops) : null;
        var failed = fail is int f ? steps.First(s => !s.Passed && s.Mailboxes == f) : null;
        double required = profile.TargetIops;
        double achieved = passed?.AchievedIops ?? 0;
        return new CapacityAnswer
        {
            Mailboxes = mailboxes,
            MailboxesWithoutHeadroom = WithoutHeadroom(profile, mailboxes),
            TargetIops = TargetIops(profile, mailboxes),
            AchievedIops = Math.Round(achieved, 3),
            LimitingMailboxes = fail,
            LimitingRule = failed?.LimitingRule,
            LimitingReasons = failed?.Reasons ?? new List<VerdictReason>(),
            Resolved = fail is int ff && pass is int pp ? ff - pp <= Resolution(pp) : fail is 1,
            RequiredMailboxes = profile.MailboxCount,
            PercentOverRequirement = profile.MailboxCount > 0 ? Math.Round((mailboxes / (double)profile.MailboxCount - 1) * 100, 1) : 0,
            RequiredIops = required,
            ReserveIops = Math.Round(achieved - required, 3),
        };
    }
}
