using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// -TestType Capacity on several hosts (docs/capacity.md, "Several hosts"): one search for the deployment, every host
    /// stepping together. Each host's engine runs the whole search in one process (its database set prepared once, its
    /// cache warmed once), stepped by its caller (<see cref="CapacityStepping.Caller"/>): its channel carries this computer's
    /// <c>step</c> lines in and its judged steps (<c>capacityStep</c> events) out. For each step this computer chooses,
    /// with the engine's own rule (<see cref="CapacitySequence.Decide"/>) over the deployment's outcomes so far, the mailbox
    /// count a host and one measuring instant, given to each host on its own clock; every host loads that many mailboxes,
    /// settles, measures its window from the instant and judges it by the Performance rules; the step passes for the
    /// deployment only when every host passed it (<see cref="CapacitySequence.Deployment"/>). The search ends as one host's
    /// does (resolved, the most it tries, the time bound, a stop) or when a host's engine ends first (Failed); every host's
    /// results file then holds its own search and answer, and the engine's report over them adds the deployment's.
    /// </summary>
    internal sealed partial class MultiHostRun
    {
        private bool IsCapacitySearch => _settings.TestType == nameof(TestType.Capacity);

        private void Search(MailboxProfile profile, List<PlannedHost> hosts, RunSettings hostSettings, DateTime startAt, string activity, string runId)
        {
            SearchTiming timing = SearchTiming.Of(hosts);
            foreach (PlannedHost host in hosts)
                Open(host, hostSettings.ToRequest(EngineCommands.Run, host.Host.ForHost(profile), runId: runId).Set(RequestFields.CapacitySteps, CapacityStepping.Caller), host.OnHostClock(startAt), timing.Lead);
            List<RunningHost> running = Running();

            DateTime bound = startAt.AddSeconds(timing.BoundSeconds);
            DateTime measureAt = startAt.AddSeconds(timing.Lead);
            var outcomes = new List<StepOutcome>();
            string stopReason, message;
            while (true)
            {
                if (running.Count == 0 || running.Any(h => h.Engine.Ended))
                {
                    string lost = string.Join(", ", running.Where(h => h.Engine.Ended).Select(h => h.Label));
                    (stopReason, message) = (CapacityStopReasons.Failed, running.Count == 0 ? "no host started its search" : $"the search ended on {lost} before the deployment's did");
                    break;
                }
                if (outcomes.Count > 0) measureAt = UtcTime.ToMilliseconds(_timing.Now() + _timing.StepNotice).AddSeconds(timing.SettleSeconds);
                DateTime windowAt = measureAt;
                CapacityDecision decision = CapacitySequence.Decide(profile.MailboxCount, outcomes, _ => windowAt.AddSeconds(timing.StepSeconds) <= bound, timing.BoundSeconds, running.Count);
                if (!(decision.Mailboxes is int mailboxes))
                {
                    (stopReason, message) = (decision.StopReason!, decision.Message!);
                    break;
                }
                int number = outcomes.Count + 1;
                foreach (RunningHost host in running)
                {
                    var step = new JsonObject().Set(ControlFields.Mailboxes, mailboxes).Set(ControlFields.MeasureAtUtc, UtcTime.Iso(host.Planned.OnHostClock(measureAt)));
                    host.Engine.Send(ControlCommands.Step + " " + JsonWriter.Write(step));
                }
                string name = $"Step {number}: {mailboxes} mailboxes a host ({mailboxes * running.Count} in all)";
                _output.Verbose($"{name}: every host measures from {UtcTime.Iso(measureAt)} (this computer's clock) for {timing.StepSeconds:0.#} s.");
                _relay.Wait(activity, running, () => running.All(h => h.Engine.Ended || StepsOf(h).Count >= number), finished =>
                {
                    DateTime now = _timing.Now();
                    return now < windowAt
                        ? string.Format(CultureInfo.InvariantCulture, "{0}: loading; every host measures from {1} (in {2:0} s)", name, UtcTime.Iso(windowAt), (windowAt - now).TotalSeconds)
                        : string.Format(CultureInfo.InvariantCulture, "{0}: measuring; {1} of {2} judged", name, running.Count(h => StepsOf(h).Count >= number), Wording.Count(running.Count, "host"));
                });
                var judged = new List<(RunningHost Host, JsonObject Step)>();
                foreach (RunningHost host in running)
                    if (StepsOf(host).ElementAtOrDefault(number - 1) is JsonObject step) judged.Add((host, step));
                if (judged.Count < running.Count) continue; // a host ended without judging it: the loop's first check ends the search
                StepOutcome outcome = CapacitySequence.Deployment(mailboxes, judged.Select(j => j.Step.GetString(EventFields.Result.CapacityFields.Step.Result) == Verdicts.Pass).ToList());
                outcomes.Add(outcome);
                var starts = judged.Select(j => UtcTime.Parse(j.Step.GetString(EventFields.Result.CapacityFields.Step.MeasureStartUtc)) - j.Host.Planned.Skew.Skew).OfType<DateTime>().ToList();
                double skew = starts.Count < 2 ? 0 : (starts.Max() - starts.Min()).TotalSeconds;
                _output.Verbose(string.Format(CultureInfo.InvariantCulture, "{0}: {1} for the deployment ({2}); the hosts' windows started within {3:0.###} s of each other.",
                    name, Verdicts.Of(outcome.Passed), string.Join("; ", judged.Select(j => Describe(j.Host, j.Step))), skew));
            }

            _output.Verbose($"The deployment's capacity search ended ({stopReason}): {message}.");
            var end = new JsonObject().Set(ControlFields.StopReason, stopReason).Set(ControlFields.Message, message);
            foreach (RunningHost host in running)
            {
                host.Engine.Send(ControlCommands.End + " " + JsonWriter.Write(end));
                host.Engine.Close();
            }
            _relay.Wait(activity, running, () => false, finished => $"Search ended ({stopReason}); {finished} of {Wording.Count(running.Count, "host")} saved their results");
        }

        /// <summary>The steps a host's engine has judged so far (its capacityStep events).</summary>
        private static List<JsonObject> StepsOf(RunningHost host) => host.Engine.ReceivedOf(EventTypes.CapacityStep).ToList();

        private static string Describe(RunningHost host, JsonObject step)
        {
            string result = step.GetString(EventFields.Result.CapacityFields.Step.Result) ?? "";
            string? rule = step.GetString(EventFields.Result.CapacityFields.Step.LimitingRule);
            return string.Format(CultureInfo.InvariantCulture, "{0} {1}{2}, {3:0.#} of {4:0.#} IOPS", host.Label, result, rule == null ? "" : $" on {rule}",
                step.GetNumber(EventFields.Result.CapacityFields.Step.AchievedIops) ?? 0, step.GetNumber(EventFields.Result.CapacityFields.Step.TargetIops) ?? 0);
        }

        /// <summary>How a search spends its bound, from a host's plan (its capacity section).</summary>
        private readonly struct SearchTiming
        {
            public SearchTiming(double bound, double warmup, double settle, double step)
            {
                BoundSeconds = bound;
                WarmupSeconds = warmup;
                SettleSeconds = settle;
                StepSeconds = step;
            }

            public double BoundSeconds { get; }
            public double WarmupSeconds { get; }
            public double SettleSeconds { get; }
            public double StepSeconds { get; }

            /// <summary>The first step measures after the warm-up and settling the plans give (the same on every host).</summary>
            public double Lead => WarmupSeconds + SettleSeconds;

            private static SearchTiming From(JsonObject? plan)
            {
                JsonObject? c = plan?.GetObject(EventFields.Plan.Capacity);
                double N(string field) => c?.GetNumber(field) ?? 0;
                return new SearchTiming(N(EventFields.Plan.CapacityPlan.BoundSeconds), N(EventFields.Plan.CapacityPlan.WarmupSeconds),
                    N(EventFields.Plan.CapacityPlan.SettleSeconds), N(EventFields.Plan.CapacityPlan.StepSeconds));
            }

            /// <summary>The hosts share their settings, so their timings agree; where they do not, the shortest bound and the longest of the rest hold for all.</summary>
            public static SearchTiming Of(IEnumerable<PlannedHost> hosts)
            {
                var each = hosts.Select(h => From(h.Plan)).ToList();
                return new SearchTiming(each.Min(t => t.BoundSeconds), each.Max(t => t.WarmupSeconds), each.Max(t => t.SettleSeconds), each.Max(t => t.StepSeconds));
            }
        }
    }
}
