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
    /// cache warmed once) and takes its steps from here (<see cref="SteppedSearch"/>). For each step this computer chooses
    /// the mailbox count a host with <see cref="CapacitySequence.Next"/> over the deployment's outcomes so far and one
    /// measuring instant, given to each host on its own clock; every host loads that many mailboxes, settles, measures
    /// its window from the instant and judges it by the Performance rules; the step passes for the deployment only when
    /// every host passed it (<see cref="CapacitySequence.Deployment"/>). The search ends as one host's does (resolved,
    /// the most it tries, the time bound, a stop) or when a host is lost (Failed); every host's results file then holds
    /// its own search and answer, and the engine's report over them adds the deployment's curve and answer.
    /// </summary>
    internal sealed partial class MultiHostRun
    {
        /// <summary>How far ahead of its measuring instant (beyond settling) a step is announced: the control line's trip to every host.</summary>
        private static readonly TimeSpan StepNotice = TimeSpan.FromSeconds(3);

        private bool IsCapacitySearch => _settings.TestType == nameof(TestType.Capacity);

        /// <summary>The first step measures after the warm-up and settling the plans give (the search's timing, the same on every host).</summary>
        private static double SearchLead(IEnumerable<RemoteHost> hosts)
        {
            SearchTiming timing = SearchTiming.Of(hosts);
            return timing.WarmupSeconds + timing.SettleSeconds;
        }

        private void Search(MailboxProfile profile, List<RemoteHost> hosts, DateTime startAt, string activity)
        {
            SearchTiming timing = SearchTiming.Of(hosts);
            int progressId = 1;
            foreach (RemoteHost host in hosts)
            {
                progressId++;
                int id = progressId;
                Attempt(host, () =>
                {
                    host.StartAtUtc = startAt + host.Skew!.Skew;
                    host.MeasureAtUtc = host.StartAtUtc.Value.AddSeconds(timing.WarmupSeconds + timing.SettleSeconds);
                    JsonObject request = _hostSettings.ToRequest(HelperCommands.Run, ForHost(profile, host))
                        .Set(RequestFields.CapacitySteps, CapacityStepping.Caller);
                    var run = HostRun.Search(host, id, JsonWriter.Write(request), profile.Name, Verbose);
                    lock (_gate)
                    {
                        if (_stopped) throw new System.Management.Automation.PipelineStoppedException();
                        _runs.Add(run);
                        run.Start();
                    }
                });
            }

            DateTime bound = startAt.AddSeconds(timing.BoundSeconds);
            DateTime measureAt = startAt.AddSeconds(timing.WarmupSeconds + timing.SettleSeconds);
            var outcomes = new List<StepOutcome>();
            string stopReason, message;
            while (true)
            {
                if (_runs.Count == 0 || _runs.Any(r => r.IsFinished))
                {
                    string lost = string.Join(", ", _runs.Where(r => r.IsFinished).Select(r => r.Host.Label));
                    (stopReason, message) = (CapacityStopReasons.Failed, _runs.Count == 0 ? "no host started its search" : $"the search ended on {lost} before the deployment's did");
                    break;
                }
                if (outcomes.Count > 0) measureAt = UtcTime.ToMilliseconds(DateTime.UtcNow + StepNotice).AddSeconds(timing.SettleSeconds);
                DateTime windowStart = measureAt;
                var decision = CapacitySequence.Decide(profile.MailboxCount, outcomes, _ => windowStart.AddSeconds(timing.StepSeconds) <= bound, timing.BoundSeconds, _runs.Count);
                if (!(decision.Mailboxes is int mailboxes))
                {
                    (stopReason, message) = (decision.StopReason!, decision.Message!);
                    break;
                }
                int number = outcomes.Count + 1;
                foreach (HostRun run in _runs)
                {
                    var step = new JsonObject().Set(ControlFields.Mailboxes, mailboxes).Set(ControlFields.MeasureAtUtc, UtcTime.Iso(measureAt + run.Host.Skew!.Skew));
                    run.Send(ControlCommands.Step + " " + JsonWriter.Write(step));
                }
                string name = $"Step {number}: {mailboxes} mailboxes a host ({mailboxes * _runs.Count} in all)";
                _cmdlet.WriteVerbose($"{name}: every host measures from {UtcTime.Iso(measureAt)} (this computer's clock) for {timing.StepSeconds:0.#} s.");
                DateTime windowAt = measureAt;
                Wait(activity, () => _runs.All(r => r.IsFinished || StepsOf(r).Count >= number), finished =>
                {
                    DateTime now = DateTime.UtcNow;
                    return now < windowAt
                        ? string.Format(CultureInfo.InvariantCulture, "{0}: loading; every host measures from {1} (in {2:0} s)", name, UtcTime.Iso(windowAt), (windowAt - now).TotalSeconds)
                        : string.Format(CultureInfo.InvariantCulture, "{0}: measuring; {1} of {2} host(s) judged", name, _runs.Count(r => StepsOf(r).Count >= number), _runs.Count);
                });
                var judged = _runs.Select(r => (Run: r, Step: StepsOf(r).ElementAtOrDefault(number - 1))).ToList();
                if (judged.Any(j => j.Step == null)) continue; // a host ended without judging it: the loop's first check ends the search
                var outcome = CapacitySequence.Deployment(mailboxes, judged.Select(j => j.Step!.GetString(EventFields.Result.CapacityFields.Step.Result) == Verdicts.Pass).ToList());
                outcomes.Add(outcome);
                var starts = judged.Select(j => UtcTime.Parse(j.Step!.GetString(EventFields.Result.CapacityFields.Step.MeasureStartUtc)) - j.Run.Host.Skew!.Skew).OfType<DateTime>().ToList();
                double skew = starts.Count < 2 ? 0 : (starts.Max() - starts.Min()).TotalSeconds;
                _cmdlet.WriteVerbose(string.Format(CultureInfo.InvariantCulture, "{0}: {1} for the deployment ({2}); the hosts' windows started within {3:0.###} s of each other.",
                    name, outcome.Passed ? Verdicts.Pass : Verdicts.Fail, string.Join("; ", judged.Select(j => Describe(j.Run.Host, j.Step!))), skew));
            }

            _cmdlet.WriteVerbose($"The deployment's capacity search ended ({stopReason}): {message}.");
            var end = new JsonObject().Set(ControlFields.StopReason, stopReason).Set(ControlFields.Message, message);
            foreach (HostRun run in _runs)
            {
                run.Send(ControlCommands.End + " " + JsonWriter.Write(end));
                run.EndInput();
            }
            Wait(activity, () => false, finished => $"Search ended ({stopReason}); {finished} of {_runs.Count} host(s) saved their results");
        }

        /// <summary>The steps a host's engine has judged so far (its capacityStep events).</summary>
        private static List<JsonObject> StepsOf(HostRun run) =>
            run.Events().Where(e => e.GetString(EventFields.Type) == EventTypes.CapacityStep).ToList();

        private static string Describe(RemoteHost host, JsonObject step)
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

            private static SearchTiming From(JsonObject? plan)
            {
                JsonObject? c = plan?.GetObject(EventFields.Plan.Capacity);
                double N(string field) => c?.GetNumber(field) ?? 0;
                return new SearchTiming(N(EventFields.Plan.CapacityPlan.BoundSeconds), N(EventFields.Plan.CapacityPlan.WarmupSeconds),
                    N(EventFields.Plan.CapacityPlan.SettleSeconds), N(EventFields.Plan.CapacityPlan.StepSeconds));
            }

            /// <summary>The hosts share their settings, so their timings agree; where they do not, the shortest bound and the longest of the rest hold for all.</summary>
            public static SearchTiming Of(IEnumerable<RemoteHost> hosts)
            {
                var each = hosts.Select(h => From(h.Plan)).ToList();
                return new SearchTiming(each.Min(t => t.BoundSeconds), each.Max(t => t.WarmupSeconds), each.Max(t => t.SettleSeconds), each.Max(t => t.StepSeconds));
            }
        }
    }
}
