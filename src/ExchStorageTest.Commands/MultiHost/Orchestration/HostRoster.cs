using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// Every host of a multi-host run, in the order given: the last phase each reached (<see cref="CheckedHost"/> ...
    /// <see cref="CollectedHost"/>) and why it failed. The run record and the AggregateResult are read from it
    /// (<see cref="Lines"/>). A host that failed stays failed for the command's later profiles. Any thread.
    /// </summary>
    internal sealed class HostRoster
    {
        private readonly IReadOnlyList<HostTarget> _targets;
        private readonly Dictionary<HostTarget, object> _reached = new Dictionary<HostTarget, object>();
        private readonly Dictionary<HostTarget, string> _failures = new Dictionary<HostTarget, string>();
        private readonly object _gate = new object();

        public HostRoster(IReadOnlyList<HostTarget> targets)
        {
            _targets = targets;
            foreach (HostTarget target in targets)
                if (target.Unreachable != null) _failures[target] = target.Unreachable;
        }

        public IReadOnlyList<HostTarget> Targets => _targets;

        /// <summary>The hosts not failed so far, in the order given.</summary>
        public List<HostTarget> Usable()
        {
            lock (_gate) return _targets.Where(t => !_failures.ContainsKey(t)).ToList();
        }

        /// <summary>A new run of the command's next profile: what the last one reached is forgotten, its failures are not.</summary>
        public void BeginRun()
        {
            lock (_gate) _reached.Clear();
        }

        public void Reached(HostTarget target, object phase)
        {
            lock (_gate) _reached[target] = phase;
        }

        public bool Failed(HostTarget target)
        {
            lock (_gate) return _failures.ContainsKey(target);
        }

        /// <summary>Marks the host as failed; returns the HostFailed error to report (non-terminating, its target the host's name).</summary>
        public ErrorRecord Fail(HostTarget target, string reason, Exception? inner = null)
        {
            HostLine line;
            lock (_gate)
            {
                _failures[target] = reason;
                line = Line(target);
            }
            return Failure(line.Label, line.Name, reason, inner);
        }

        /// <summary>Every host's line, in the order given.</summary>
        public IReadOnlyList<HostLine> Lines()
        {
            lock (_gate) return _targets.Select(Line).ToList();
        }

        /// <summary>The one HostFailed error: its message names the host as messages do, its target is the host's name.</summary>
        public static ErrorRecord Failure(string label, string name, string reason, Exception? inner) =>
            new StorageTestException(ErrorCodes.HostFailed, $"Host '{label}' failed: {reason}", name, inner).ErrorRecord;

        /// <summary>The host as messages name it: its name in the run, with its address when that differs.</summary>
        public static string Label(string name, string address) =>
            string.Equals(name, address, StringComparison.OrdinalIgnoreCase) ? name : $"{name} ({address})";

        /// <summary>The machine name the host reports, or its address when it reported none.</summary>
        public static string ComputerName(HostFacts? facts, string address) =>
            facts?.ComputerName is string machine && machine.Length > 0 ? machine : address;

        private HostLine Line(HostTarget target)
        {
            _reached.TryGetValue(target, out object? phase);
            var collected = phase as CollectedHost;
            RunningHost? running = collected?.Running ?? phase as RunningHost;
            PlannedHost? planned = running?.Planned ?? phase as PlannedHost;
            CheckedHost? host = planned?.Host ?? phase as CheckedHost;
            _failures.TryGetValue(target, out string? failure);
            return new HostLine(target.Address, host?.Key, host?.Facts, planned?.Skew, running?.StartAtUtc, running?.MeasureAtUtc, collected?.Result, failure);
        }
    }

    /// <summary>One host's line in the run's record (run.json) and its AggregateResult: what its phases found, and why it failed.</summary>
    internal sealed class HostLine
    {
        public HostLine(string address, string? key = null, HostFacts? facts = null, ClockSkew? skew = null, DateTime? startAtUtc = null, DateTime? measureAtUtc = null,
            TestResult? result = null, string? failureReason = null)
        {
            Address = address;
            Key = key;
            ComputerName = HostRoster.ComputerName(facts, address);
            ModuleCopied = facts?.ModuleCopied ?? false;
            Skew = skew;
            StartAtUtc = startAtUtc;
            MeasureAtUtc = measureAtUtc;
            Result = result;
            FailureReason = failureReason;
        }

        public string Address { get; }

        /// <summary>The host's name in the run once checked (<see cref="CheckedHost.Key"/>), else null.</summary>
        public string? Key { get; }

        /// <summary>The host's name in the run: its key once checked, its address until then.</summary>
        public string Name => Key ?? Address;

        public string Label => HostRoster.Label(Name, Address);
        public string ComputerName { get; }
        public bool ModuleCopied { get; }
        public ClockSkew? Skew { get; }
        public DateTime? StartAtUtc { get; }
        public DateTime? MeasureAtUtc { get; }
        public TestResult? Result { get; }
        public string? FailureReason { get; }
        public bool Failed => FailureReason != null;
    }
}
