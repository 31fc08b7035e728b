using System;
using System.Globalization;
using System.Management.Automation;
using System.Management.Automation.Host;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The host a remote command runs under: one without a user interface. A pipeline on a remote runspace otherwise
    /// runs under the runspace's host — for a session from New-PSSession, the caller's console — and every verbose,
    /// warning and progress record then reaches the console twice: once as a host call, bare, and once in the
    /// pipeline's streams, which the orchestrator relays with the host's name (measured over SSH: each remote verbose
    /// message printed twice, and 4&gt;&amp;1 could not capture the bare one). Without a UI the records travel only in the
    /// streams. The remote command never prompts (it runs with -Force), so nothing is lost.
    /// </summary>
    internal sealed class StreamsOnlyHost : PSHost
    {
        private static readonly Guid Id = Guid.NewGuid();

        public static PSInvocationSettings Settings() => new PSInvocationSettings { Host = new StreamsOnlyHost() };

        public override string Name => "ExchStorageTest multi-host run";
        public override Version Version => typeof(StreamsOnlyHost).Assembly.GetName().Version;
        public override Guid InstanceId => Id;
        public override PSHostUserInterface? UI => null;
        public override CultureInfo CurrentCulture => CultureInfo.CurrentCulture;
        public override CultureInfo CurrentUICulture => CultureInfo.CurrentUICulture;
        public override void SetShouldExit(int exitCode) { }
        public override void EnterNestedPrompt() => throw new NotSupportedException("A multi-host run's remote command has no prompt.");
        public override void ExitNestedPrompt() { }
        public override void NotifyBeginApplication() { }
        public override void NotifyEndApplication() { }
    }
}
