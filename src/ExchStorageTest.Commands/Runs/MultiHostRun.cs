// PLACEHOLDER (not to be committed): replaced by the multi-host implementation.
using System;
using System.Management.Automation;
using System.Management.Automation.Runspaces;
namespace ExchStorageTest.Runs
{
    internal sealed class MultiHostRun
    {
        public MultiHostRun(Commands.InvokeStorageTestCommand cmdlet, RunSettings settings) { }
        public void Run(MailboxProfile profile, string[]? computerName, PSCredential? credential, bool useSsh, PSSession[]? session, DateTime? startAtUtc) => throw new NotImplementedException();
    }
    internal sealed class StartFileRun
    {
        public StartFileRun(Commands.InvokeStorageTestCommand cmdlet, RunSettings settings) { }
        public void Run(MailboxProfile profile, string startFile, ExchStorageTest.Json.JsonObject? plan, DateTime? startAtUtc, TimeSpan timeout) => throw new NotImplementedException();
    }
}
namespace ExchStorageTest { public sealed class AggregateResult { } }
