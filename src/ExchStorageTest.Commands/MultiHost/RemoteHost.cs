using System;
using System.Management.Automation.Runspaces;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>One host of a multi-host run: its runspace, what the checks found, and how it ended.</summary>
    internal sealed class RemoteHost
    {
        public RemoteHost(string computerName, string key, Runspace? runspace)
        {
            ComputerName = computerName;
            Key = key;
            Runspace = runspace;
        }

        /// <summary>The name the user gave (or the session's computer name).</summary>
        public string ComputerName { get; }

        /// <summary>The name made safe for a folder name and unique in the run; replaces {host} in paths.</summary>
        public string Key { get; }

        /// <summary>Null when no session could be opened (the host then failed already).</summary>
        public Runspace? Runspace { get; }

        /// <summary>Module, engine and clock of the host, once checked.</summary>
        public HostFacts? Facts { get; set; }

        /// <summary>Remote clock minus local clock, measured with the round trip taken into account.</summary>
        public ClockSkew? Skew { get; set; }

        public JsonObject? Plan { get; set; }

        /// <summary>The agreed start instant on this host's own clock.</summary>
        public DateTime? StartAtUtc { get; set; }

        public bool Failed { get; private set; }

        public string? FailureReason { get; private set; }

        public TestResult? Result { get; set; }

        public void Fail(string reason)
        {
            Failed = true;
            FailureReason = reason;
        }

        /// <summary>The profile path with {host} replaced: for storage every host sees under the same path.</summary>
        public string ForHost(string path) => path.Replace("{host}", Key);
    }
}
