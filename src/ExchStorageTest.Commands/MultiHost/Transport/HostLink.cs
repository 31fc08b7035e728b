using System;
using System.Globalization;
using System.Management.Automation.Runspaces;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The link to a host (the one word for the transport): what the orchestrator does there, whatever carries it: ask what the host is (<see cref="HostFacts"/>), put
    /// files there (the module copy) and fetch them back (the results), read its clock, and open the agent's pipeline to its
    /// engine (<see cref="RemoteEngine"/>). Over remoting it is <see cref="RunspaceHostLink"/>; the module's unit tests
    /// give the orchestrator hosts in this process (an agent over an engine of their own), so the orchestrator's rules
    /// run without a network. Calls may come from several threads at once (hosts are prepared in parallel), one at a
    /// time per host.
    /// </summary>
    internal interface IHostLink
    {
        /// <summary>The host's facts, with this module's version imported there (<paramref name="modulePath"/>: a copy's manifest, or null for an installed module).</summary>
        HostFacts Inspect(Version version, string? modulePath);

        /// <summary>Writes a local file to the host (replacing a file of that name there).</summary>
        void Send(string localPath, string remotePath);

        /// <summary>Marks a file on the host executable (a copy through a runspace does not carry the bit).</summary>
        void MakeExecutable(string remotePath);

        /// <summary>The host's clock against this computer's.</summary>
        ClockSkew MeasureSkew();

        /// <summary>A new transport for one engine run on the host.</summary>
        IAgentPipeline OpenAgentPipeline();

        /// <summary>Copies a file of the host to a new local file (never over one).</summary>
        void Fetch(string remotePath, string localPath);
    }

    /// <summary>A host reached through a remoting runspace: short core-language scripts (<see cref="RemoteScript"/>) and the agent's pipeline.</summary>
    internal sealed class RunspaceHostLink : IHostLink
    {
        private readonly Runspace _runspace;
        private readonly Func<bool> _stopping;

        public RunspaceHostLink(Runspace runspace, Func<bool> stopping)
        {
            _runspace = runspace;
            _stopping = stopping;
        }

        public HostFacts Inspect(Version version, string? modulePath) => HostFacts.Read(_runspace, _stopping, version, modulePath);

        public void Send(string localPath, string remotePath) => RemoteFiles.Send(_runspace, _stopping, localPath, remotePath);

        public void MakeExecutable(string remotePath) =>
            RemoteScript.Invoke(_runspace, _stopping, "& chmod u+x $args[0]; if ($LASTEXITCODE) { throw \"chmod $($args[0]) failed\" }", RemoteScript.DefaultTimeout, remotePath);

        public ClockSkew MeasureSkew() => ClockSkew.Measure(() =>
        {
            var answer = RemoteScript.Invoke(_runspace, _stopping, ClockSkew.ReadClock, RemoteScript.DefaultTimeout);
            if (answer.Count == 0) throw new InvalidOperationException("the host did not tell its time.");
            return Convert.ToInt64(answer[0].BaseObject, CultureInfo.InvariantCulture);
        });

        public IAgentPipeline OpenAgentPipeline() => new RunspaceAgentPipeline(_runspace);

        public void Fetch(string remotePath, string localPath) => RemoteFiles.Fetch(_runspace, _stopping, remotePath, localPath);
    }
}
