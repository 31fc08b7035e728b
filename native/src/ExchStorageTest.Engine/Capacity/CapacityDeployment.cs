using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Capacity;

/// <summary>
/// A deployment's load curve and answer from its hosts' searches when they stepped together (docs/capacity.md, "Several
/// hosts"): step k loaded the same mailboxes on every host, so the deployment's step k carries every host's mailboxes and
/// passes only when every host passed it (<see cref="CapacitySequence.Deployment"/>). Pure, so the aggregate over the
/// hosts' results files and its tests share one definition.
/// </summary>
public static class CapacityDeployment
{
    /// <summary>
    /// The deployment's steps: mailboxes, target, paced and achieved IOPS and sessions summed over the hosts; latencies and
    /// stalls the worst host's (each host, as each database, is judged on its own); the failing hosts' reasons, each
    /// message naming its host, and the limiting rule among them. Refuses steps that did not go together.
    /// </summary>
    public static List<CapacityStep> Steps(IReadOnlyList<(string Host, IReadOnlyList<CapacityStep> Steps)> hosts)
    {
        if (hosts.Count == 0) throw new ArgumentException("A deployment has at least one host.", nameof(hosts));
        int count = hosts.Min(h => h.Steps.Count);
        var steps = new List<CapacityStep>();
        for (int k = 0; k < count; k++)
        {
            var each = hosts.Select(h => (h.Host, Step: h.Steps[k])).ToList();
            int mailboxes = each[0].Step.Mailboxes;
            if (each.Any(e => e.Step.Mailboxes != mailboxes))
                throw new ArgumentException($"Step {k + 1} loaded different mailbox counts ({string.Join(", ", each.Select(e => $"{e.Host} {e.Step.Mailboxes}"))}): the hosts did not step together.", nameof(hosts));
            var reasons = each.Where(e => !e.Step.Passed)
                .SelectMany(e => e.Step.Reasons.Select(r => new VerdictReason { Code = r.Code, Measured = r.Measured, Limit = r.Limit, Message = $"{e.Host}: {r.Message}" }))
                .ToList();
            var hostSteps = each.Select(e => e.Step).ToList();
            steps.Add(new CapacityStep
            {
                Step = k + 1,
                Mailboxes = mailboxes * hosts.Count,
                TargetIops = Math.Round(hostSteps.Sum(s => s.TargetIops), 3),
                PacedIops = Math.Round(hostSteps.Sum(s => s.PacedIops), 3),
                Sessions = hostSteps.Sum(s => s.Sessions),
                MeasureStartUtc = hostSteps.Min(s => s.MeasureStartUtc),
                WindowSeconds = hostSteps.Min(s => s.WindowSeconds),
                AchievedIops = Math.Round(hostSteps.Sum(s => s.AchievedIops), 3),
                DatabaseReadLatencyAverageMs = hostSteps.Max(s => s.DatabaseReadLatencyAverageMs),
                DatabaseReadLatencyP99Ms = hostSteps.Max(s => s.DatabaseReadLatencyP99Ms),
                DatabaseReadLatencyMaximumMs = hostSteps.Max(s => s.DatabaseReadLatencyMaximumMs),
                LogWriteLatencyAverageMs = hostSteps.Max(s => s.LogWriteLatencyAverageMs),
                LogWriteLatencyP99Ms = hostSteps.Max(s => s.LogWriteLatencyP99Ms),
                LogWriteLatencyMaximumMs = hostSteps.Max(s => s.LogWriteLatencyMaximumMs),
                PageFaultStallsPerSecond = hostSteps.Max(s => s.PageFaultStallsPerSecond),
                IoErrors = hostSteps.Sum(s => s.IoErrors),
                Passed = CapacitySequence.Deployment(mailboxes, hostSteps.Select(s => s.Passed).ToList()).Passed,
                Reasons = reasons,
                LimitingRule = DeploymentLimitingRule(hostSteps, reasons),
            });
        }
        return steps;
    }

    /// <summary>
    /// The host limited the deployment's step only when it limited every host that failed it; one host whose storage
    /// failed it makes the step the storage's, judged without the other hosts' HostLimited reasons.
    /// </summary>
    private static string? DeploymentLimitingRule(List<CapacityStep> hostSteps, List<VerdictReason> reasons)
    {
        var failing = hostSteps.Where(s => !s.Passed).ToList();
        if (failing.Count > 0 && failing.All(s => s.LimitingRule == Verdict.MachineLimit.Code)) return Verdict.MachineLimit.Code;
        return CapacitySearch.LimitingRule(reasons.Where(r => r.Code != Verdict.MachineLimit.Code).ToList());
    }

    /// <summary>
    /// The deployment's search from its hosts' results of one run: their steps (<see cref="Steps"/>) and answer
    /// (<see cref="Answer"/>), hosts named by their machine names; null, with the reason, when the hosts' documents cannot
    /// give a true one: a host without a search, hosts that searched on their own (not stepped together by a caller),
    /// different profiles or thresholds' load, or steps that did not go together.
    /// </summary>
    public static (CapacityResult? Deployment, string? WhyNot) Of(IReadOnlyList<TestResults> hosts)
    {
        if (hosts.Count < 2 || hosts.Any(h => h.Capacity is null)) return (null, "not every host ran a capacity search");
        var alone = hosts.Where(h => h.Capacity!.SteppedBy != CapacityStepping.Caller).Select(h => h.Environment.MachineName).ToList();
        if (alone.Count > 0)
            return (null, $"{string.Join(", ", alone)} searched on its own (steppedBy Engine), not stepped together with the other hosts, so their steps share no measuring windows");
        var p = hosts[0].Profile;
        if (hosts.Any(h => h.Profile.MailboxCount != p.MailboxCount || h.Profile.IopsPerMailbox != p.IopsPerMailbox || h.Profile.HeadroomPercent != p.HeadroomPercent))
            return (null, "the hosts' profiles differ (mailbox count, IOPS per mailbox or headroom), so a step's mailboxes do not add up to one deployment's load");
        List<CapacityStep> steps;
        try
        {
            steps = Steps(hosts.Select(h => (h.Environment.MachineName, (IReadOnlyList<CapacityStep>)h.Capacity!.Steps)).ToList());
        }
        catch (ArgumentException ex)
        {
            return (null, ex.Message.Split(" (Parameter", 2)[0]);
        }
        var first = hosts[0].Capacity!;
        var reasons = hosts.Select(h => h.Capacity!.StopReason).Distinct(StringComparer.Ordinal).ToList();
        // The caller ends every host's search alike; hosts that ended otherwise (one stopped, one failed) say so.
        string stopReason = reasons.Count == 1 ? reasons[0] : reasons.Contains(CapacityStopReasons.Stopped) ? CapacityStopReasons.Stopped : CapacityStopReasons.Failed;
        return (new CapacityResult
        {
            BoundSeconds = first.BoundSeconds, SettleSeconds = first.SettleSeconds, StepSeconds = first.StepSeconds,
            StartMailboxes = first.StartMailboxes * hosts.Count, ResolutionPercent = first.ResolutionPercent, PaceFactor = first.PaceFactor,
            SteppedBy = CapacityStepping.Caller,
            Steps = steps,
            Answer = Answer(p, hosts.Count, steps, stopReason),
            StopReason = stopReason,
            StopMessage = reasons.Count == 1 ? first.StopMessage : string.Join("; ", hosts.Select(h => $"{h.Environment.MachineName}: {h.Capacity!.StopReason} ({h.Capacity.StopMessage})")),
        }, null);
    }

    /// <summary>
    /// The deployment's answer over its steps: the same arithmetic as one host's, against the requirement of every host's
    /// profile together (mailboxes and IOPS x the hosts), so its headroom line reads as the deployment's. Whether it is
    /// resolved is judged where the search decided, in mailboxes a host: a deployment step's count is a multiple of the
    /// hosts, so its bracket (say 56 pass, 60 fail) is coarser than the resolution in deployment mailboxes would ask.
    /// <paramref name="stopReason"/> is why the deployment's search ended: what cut it when no step failed.
    /// </summary>
    public static CapacityAnswer Answer(MailboxProfile hostProfile, int hosts, IReadOnlyList<CapacityStep> deploymentSteps, string? stopReason = null)
    {
        var answer = CapacitySearch.Answer(new MailboxProfile
        {
            MailboxCount = hostProfile.MailboxCount * hosts, IopsPerMailbox = hostProfile.IopsPerMailbox,
            HeadroomPercent = hostProfile.HeadroomPercent, MailboxSizeMB = hostProfile.MailboxSizeMB,
            DatabaseCount = hostProfile.DatabaseCount * hosts, CopiesPerDatabase = hostProfile.CopiesPerDatabase,
        }, deploymentSteps, stopReason);
        var perHost = CapacitySearch.Answer(hostProfile, deploymentSteps.Select(s => new CapacityStep { Mailboxes = s.Mailboxes / hosts, Passed = s.Passed, Reasons = s.Reasons }).ToList());
        answer.Resolved = perHost.Resolved;
        return answer;
    }
}
