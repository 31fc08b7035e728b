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
                LimitingRule = CapacitySearch.LimitingRule(reasons),
            });
        }
        return steps;
    }

    /// <summary>
    /// The deployment's answer over its steps: the same arithmetic as one host's, against the requirement of every host's
    /// profile together (mailboxes and IOPS x the hosts), so its headroom line reads as the deployment's.
    /// </summary>
    public static CapacityAnswer Answer(MailboxProfile hostProfile, int hosts, IReadOnlyList<CapacityStep> deploymentSteps) =>
        CapacitySearch.Answer(new MailboxProfile
        {
            MailboxCount = hostProfile.MailboxCount * hosts, IopsPerMailbox = hostProfile.IopsPerMailbox,
            HeadroomPercent = hostProfile.HeadroomPercent, MailboxSizeMB = hostProfile.MailboxSizeMB,
            DatabaseCount = hostProfile.DatabaseCount * hosts, CopiesPerDatabase = hostProfile.CopiesPerDatabase,
        }, deploymentSteps);
}
