using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>What a finished step of a capacity search contributes to the next decision: its mailbox count and whether it passed.</summary>
    public readonly struct StepOutcome
    {
        public StepOutcome(int mailboxes, bool passed)
        {
            Mailboxes = mailboxes;
            Passed = passed;
        }

        public int Mailboxes { get; }
        public bool Passed { get; }

        public override string ToString() => Mailboxes + (Passed ? " Pass" : " Fail");
    }

    /// <summary>
    /// The capacity search's step sequence (docs/capacity.md, "The sequence"), defined once and free of I/O. It lives in the
    /// contract, not the engine, because two drivers decide steps with it: the engine's search on one host, and the
    /// orchestrator that steps several hosts together and must choose the deployment's next count from every host's
    /// verdict (docs/capacity.md, "Several hosts") — it cannot call the engine's code, so both compile this.
    /// <para>Start at the profile's mailbox count; while every step passes, double; while every step fails, halve; once
    /// there is a passing count below a failing one, bisect between the largest such pass and the smallest fail until they
    /// are within <see cref="ResolutionPercent"/> of the pass (at least one mailbox). The search assumes what storage does:
    /// more load never lowers latency. Where a measurement contradicts it (a pass above a fail), the smallest fail bounds
    /// the answer, so the answer is never a count above a step that failed.</para>
    /// </summary>
    public static class CapacitySequence
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
            if (!(fail is int f))
            {
                int top = pass!.Value;
                return top >= MaximumMailboxes ? (int?)null : Math.Min(MaximumMailboxes, top * 2);
            }
            if (!(pass is int p)) return f <= 1 ? (int?)null : f / 2;
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

        /// <summary>
        /// The search's next move, for the engine's own search and an orchestrator's alike: the next step's mailbox count
        /// (<see cref="Next"/>), unless the sequence has its answer (<see cref="CapacityStopReasons.Resolved"/>), cannot go
        /// further (<see cref="CapacityStopReasons.MaximumReached"/>), or the next step would not end within the time bound
        /// (<see cref="CapacityStopReasons.TimeBoundReached"/>; <paramref name="fits"/> says whether a step of that many
        /// mailboxes still ends within it). <paramref name="hosts"/> is how many hosts step together: above one, the counts
        /// are a host's and the words say so.
        /// </summary>
        public static CapacityDecision Decide(int start, IReadOnlyList<StepOutcome> steps, Func<int, bool> fits, double boundSeconds, int hosts = 1)
        {
            bool deployment = hosts > 1;
            if (!(Next(start, steps) is int mailboxes))
            {
                var (pass, fail) = Bracket(steps);
                if (fail is null)
                    return CapacityDecision.End(CapacityStopReasons.MaximumReached, deployment
                        ? $"{pass} mailboxes a host passed on every host, the most the search tries"
                        : $"{pass} mailboxes passed, the most the search tries");
                string resolution = ResolutionPercent.ToString("0.#", CultureInfo.InvariantCulture);
                return CapacityDecision.End(CapacityStopReasons.Resolved, pass is int p
                    ? deployment
                        ? $"{p} mailboxes a host pass on every host and {fail} fail on at least one, within the {resolution}% resolution"
                        : $"{p} mailboxes pass and {fail} fail, within the {resolution}% resolution"
                    : deployment ? $"even {fail} mailbox(es) a host fail" : $"even {fail} mailbox fails");
            }
            if (!fits(mailboxes))
                return CapacityDecision.End(CapacityStopReasons.TimeBoundReached,
                    string.Format(CultureInfo.InvariantCulture, "the time bound ({0:0} s) leaves no room for the {1}-mailbox step", boundSeconds, mailboxes));
            return CapacityDecision.Step(mailboxes);
        }

        /// <summary>
        /// One step of a deployment whose hosts stepped together, each loading <paramref name="mailboxes"/>: it passes only when
        /// every host passed it — a deployment carries a load only if each of its servers does. Every host must have a verdict:
        /// a host without one (lost, stopped) leaves the step undecided, which is the orchestrator's to handle, not a pass.
        /// </summary>
        public static StepOutcome Deployment(int mailboxes, IReadOnlyCollection<bool> hostsPassed)
        {
            if (hostsPassed.Count == 0) throw new ArgumentException("A deployment's step needs at least one host's verdict.", nameof(hostsPassed));
            return new StepOutcome(mailboxes, hostsPassed.All(passed => passed));
        }
    }
}

namespace ExchStorageTest.Contract
{
    /// <summary>What <see cref="CapacitySequence.Decide"/> chose: the next step's mailbox count, or why the search ends and in what words.</summary>
    public readonly struct CapacityDecision
    {
        private CapacityDecision(int? mailboxes, string? stopReason, string? message)
        {
            Mailboxes = mailboxes;
            StopReason = stopReason;
            Message = message;
        }

        /// <summary>The next step's mailbox count (a host's, for a deployment); null when the search ends.</summary>
        public int? Mailboxes { get; }

        /// <summary>A <see cref="CapacityStopReasons"/> value when the search ends; null otherwise.</summary>
        public string? StopReason { get; }

        /// <summary>The stop message (results-schema.md, <c>capacity.stopMessage</c>).</summary>
        public string? Message { get; }

        public bool Ends => StopReason != null;

        internal static CapacityDecision Step(int mailboxes) => new CapacityDecision(mailboxes, null, null);

        internal static CapacityDecision End(string reason, string message) => new CapacityDecision(null, reason, message);

        public override string ToString() => Ends ? $"{StopReason}: {Message}" : $"step {Mailboxes}";
    }
}
