using System;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>One host of a multi-host run: how it is reached, what the checks found, its channel, and how it ended.</summary>
    internal sealed class RemoteHost
    {
        public RemoteHost(string address, IHostConnection? connection)
        {
            Address = address;
            Connection = connection;
        }

        /// <summary>How the host was reached: the name the user gave, or the session's computer name (often an address).</summary>
        public string Address { get; }

        /// <summary>
        /// The host's name in the run: the machine name it reports, once checked (two sessions to 127.0.0.1 are two
        /// machines, or one machine twice); its address until then, or when it could not be checked.
        /// </summary>
        public string ComputerName => Facts?.ComputerName is string machine && machine.Length > 0 ? machine : Address;

        /// <summary>
        /// The machine name made safe for a folder name and unique in the run, in the order the hosts were given (the
        /// second session to one machine is &lt;name&gt;-2): replaces {host} in paths and names its results folder here.
        /// Null until the host was checked.
        /// </summary>
        public string? Key { get; set; }

        /// <summary>Null when no session could be opened (the host then failed already).</summary>
        public IHostConnection? Connection { get; }

        /// <summary>The channel to the host's engine for the run (after the plan's): a test or a capacity search.</summary>
        public HostChannel? Channel { get; set; }

        /// <summary>The id of the host's progress bar, a child of the run's bar.</summary>
        public int ProgressId { get; set; }

        /// <summary>Module, engine and clock of the host, once checked.</summary>
        public HostFacts? Facts { get; set; }

        /// <summary>Remote clock minus local clock, measured with the round trip taken into account.</summary>
        public ClockSkew? Skew { get; set; }

        public JsonObject? Plan { get; set; }

        /// <summary>The agreed load start on this host's own clock.</summary>
        public DateTime? StartAtUtc { get; set; }

        /// <summary>The agreed measuring start on this host's own clock.</summary>
        public DateTime? MeasureAtUtc { get; set; }

        public bool Failed { get; private set; }

        public string? FailureReason { get; private set; }

        public TestResult? Result { get; set; }

        /// <summary>The host's name in the run: <see cref="Key"/> once checked, its address until then.</summary>
        public string Name => Key ?? Address;

        /// <summary>The host as messages name it: its name in the run, with its address when that differs.</summary>
        public string Label => string.Equals(Name, Address, StringComparison.OrdinalIgnoreCase) ? Name : $"{Name} ({Address})";

        /// <summary>Marks the host as failed; returns the HostFailed error to report (non-terminating, its target the host's name).</summary>
        public ErrorRecord Fail(string reason, Exception? inner = null)
        {
            Failed = true;
            FailureReason = reason;
            return new StorageTestException(ErrorCodes.HostFailed, $"Host '{Label}' failed: {reason}", Name, inner).ErrorRecord;
        }

        /// <summary>The profile path with {host} replaced: for storage every host sees under the same path.</summary>
        public string ForHost(string path) => path.Replace("{host}", Key ?? throw new InvalidOperationException($"{Label} has no name in the run before it was checked."));
    }
}
