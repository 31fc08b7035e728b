using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>What a multi-host run will do, as -WhatIf and the confirmation show it: the instants, the hosts and each host's plan.</summary>
    internal static class RunPreview
    {
        public static string Describe(RunSettings settings, RunSettings hostSettings, MailboxProfile profile, IReadOnlyList<PlannedHost> hosts, string runId,
            DateTime? startAtUtc, TimeSpan prepare, double lead, string outputPath)
        {
            var text = new StringBuilder();
            text.AppendFormat(CultureInfo.InvariantCulture, "{0} storage test '{1}' on {2}, run {3}.", settings.TestType, profile.Name, Wording.Count(hosts.Count, "host"), runId).AppendLine();
            text.AppendLine(startAtUtc.HasValue
                ? $"Start: {RunInstants.Describe(startAtUtc.Value, lead)}."
                : string.Format(CultureInfo.InvariantCulture, "Start: about {0:0} s after confirmation (the longest preparation estimate, at least {1:0} s; database creation assumed at {3:0} MB/s a host, a host not ready starts late and says so); measuring {2:0.###} s later on every host, after tuning and warm-up.",
                    prepare.TotalSeconds, PreparationEstimate.MinimumLead.TotalSeconds, lead, PreparationEstimate.AssumedMBPerSecond));
            if (settings.TestType == nameof(TestType.Capacity))
                text.AppendLine("One capacity search for the deployment: every host steps together. The first step measures after the warm-up on every host at once; each later step's " +
                    "mailbox count (the same on every host) is chosen from every host's verdict on the steps before, and every host measures it from one instant. " +
                    "A step passes for the deployment only when every host passed it; each host's results keep its own answer, the aggregate the deployment's.");
            text.AppendLine($"Results are collected in '{outputPath}'.");
            foreach (PlannedHost host in hosts)
            {
                text.AppendLine();
                text.AppendLine($"Host {host.Label} (clock skew {host.Skew}):");
                text.Append(TestPlanText.Describe(host.Plan, host.Host.ForHost(profile), hostSettings)).AppendLine();
            }
            return text.ToString().TrimEnd();
        }
    }
}
