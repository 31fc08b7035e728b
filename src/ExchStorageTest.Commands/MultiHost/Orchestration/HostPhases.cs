using System;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    // A multi-host run hands each host from phase to phase (docs/module.md, "Multi-host runs"): given, checked, planned,
    // running, collected. Each phase is a new record holding the one before; nothing is filled in later, so a phase's
    // code can only see what the phases before it found. A host that fails leaves the run at its phase (HostRoster).

    /// <summary>A host as given (-ComputerName, -Session): how it is reached, or why it could not be.</summary>
    internal sealed class HostTarget
    {
        public HostTarget(string address, IHostLink? link, string? unreachable = null)
        {
            Address = address;
            Link = unreachable == null ? link : null;
            Unreachable = link == null ? unreachable ?? "it could not be reached." : unreachable;
        }

        /// <summary>How the host was reached: the name the user gave, or the session's computer name (often an address).</summary>
        public string Address { get; }

        /// <summary>The link to the host; null when none could be opened (<see cref="Unreachable"/> says why).</summary>
        public IHostLink? Link { get; }

        /// <summary>Why the host could not be reached (reported when its link was opened), or null.</summary>
        public string? Unreachable { get; }
    }

    /// <summary>
    /// Checked: this module usable there (installed, or copied by this run), the machine name it reports and the host's
    /// name in the run: that machine name made safe for a folder and unique in the run, in the order the hosts were given
    /// (a second session to one machine is &lt;name&gt;-2). The name replaces {host} in its paths and names its results folder here.
    /// </summary>
    internal sealed class CheckedHost
    {
        public CheckedHost(HostTarget target, IHostLink link, HostFacts facts, string key, int progressId)
        {
            Target = target;
            Link = link;
            Facts = facts;
            Key = key;
            ProgressId = progressId;
        }

        public HostTarget Target { get; }
        public IHostLink Link { get; }
        public HostFacts Facts { get; }
        public string Key { get; }

        /// <summary>The id of the host's progress bar, a child of the run's bar.</summary>
        public int ProgressId { get; }

        public string Address => Target.Address;
        public string ComputerName => HostRoster.ComputerName(Facts, Address);
        public string Label => HostRoster.Label(Key, Address);

        /// <summary>The host after this run copied the module there: the facts read from the copy.</summary>
        public CheckedHost WithFacts(HostFacts facts) => new CheckedHost(Target, Link, facts, Key, ProgressId);

        /// <summary>The profile with the host's paths ({host} replaced), every other setting the same.</summary>
        public MailboxProfile ForHost(MailboxProfile profile) =>
            profile.WithPaths(profile.DatabasePaths.Select(ForHost).ToArray(), profile.LogPaths.Select(ForHost).ToArray());

        private string ForHost(string path) => path.Replace("{host}", Key);
    }

    /// <summary>Planned: the host's clock against this computer's and its engine's plan of its own paths.</summary>
    internal sealed class PlannedHost
    {
        public PlannedHost(CheckedHost host, ClockSkew skew, JsonObject plan)
        {
            Host = host;
            Skew = skew;
            Plan = plan;
        }

        public CheckedHost Host { get; }

        /// <summary>Remote clock minus local clock, measured with the round trip taken into account.</summary>
        public ClockSkew Skew { get; }

        public JsonObject Plan { get; }

        public HostTarget Target => Host.Target;
        public string Label => Host.Label;

        /// <summary>An instant of this computer's clock on the host's clock.</summary>
        public DateTime OnHostClock(DateTime instant) => instant + Skew.Skew;
    }

    /// <summary>Running: its engine started with the run's request, loading from the agreed instants on its own clock.</summary>
    internal sealed class RunningHost
    {
        public RunningHost(PlannedHost planned, RemoteEngine engine, DateTime startAtUtc, DateTime measureAtUtc)
        {
            Planned = planned;
            Engine = engine;
            StartAtUtc = startAtUtc;
            MeasureAtUtc = measureAtUtc;
        }

        public PlannedHost Planned { get; }

        /// <summary>The host's engine, as the orchestrator drives it over the host's link.</summary>
        public RemoteEngine Engine { get; }

        /// <summary>The agreed load start on this host's own clock.</summary>
        public DateTime StartAtUtc { get; }

        /// <summary>The agreed measuring start on this host's own clock.</summary>
        public DateTime MeasureAtUtc { get; }

        public HostTarget Target => Planned.Target;
        public CheckedHost Host => Planned.Host;
        public string Label => Planned.Label;
    }

    /// <summary>Collected: the host's TestResult, its results file copied here.</summary>
    internal sealed class CollectedHost
    {
        public CollectedHost(RunningHost running, TestResult result)
        {
            Running = running;
            Result = result;
        }

        public RunningHost Running { get; }
        public TestResult Result { get; }
        public HostTarget Target => Running.Target;
    }
}
