using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using System.Threading;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The storage test on one host: the module's own Invoke-StorageTest, run asynchronously on the host's runspace
    /// so all hosts run at once. Its progress, warnings and verbose records stay in the pipeline's streams until the
    /// orchestrator (on the command's thread, the only one that may write to the command's streams) relays them.
    /// Stopping it stops Invoke-StorageTest there, which stops that host's helper cleanly, as a local Ctrl+C would. It runs
    /// under a host without a UI (<see cref="StreamsOnlyHost"/>), so its records reach the console once, relayed.
    /// </summary>
    internal sealed class HostRun : IDisposable
    {
        // Module-qualified, so a function or alias of that name in the host's session cannot stand in for it.
        private const string Script = "param([hashtable] $Parameters) ExchStorageTest\\Invoke-StorageTest @Parameters";

        private readonly PowerShell _ps;
        private readonly PSDataCollection<PSObject> _output = new PSDataCollection<PSObject>();
        private IAsyncResult? _pending;

        public HostRun(RemoteHost host, int progressId, Hashtable parameters)
        {
            Host = host;
            ProgressId = progressId;
            _ps = PowerShell.Create();
            _ps.Runspace = host.Runspace;
            _ps.AddScript(Script).AddArgument(parameters);
        }

        public RemoteHost Host { get; }

        /// <summary>The id of this host's progress bar, a child of the run's bar.</summary>
        public int ProgressId { get; }

        public bool Done { get; private set; }

        /// <summary>Set when the host's command ended by a terminating error (or was stopped).</summary>
        public Exception? Failure { get; private set; }

        public IReadOnlyList<PSObject> Output => _output.ToList();

        public IReadOnlyList<ErrorRecord> Errors => _ps.Streams.Error.ToList();

        public WaitHandle? Finished => _pending?.AsyncWaitHandle;

        public bool IsFinished => _pending == null || _pending.IsCompleted;

        public void Start() => _pending = _ps.BeginInvoke<PSObject, PSObject>(null, _output, StreamsOnlyHost.Settings(), null, null);

        /// <summary>Progress records that arrived since the last call (taken out of the stream, so a long run does not pile them up).</summary>
        public ICollection<ProgressRecord> TakeProgress() => _ps.Streams.Progress.ReadAll();

        public ICollection<WarningRecord> TakeWarnings() => _ps.Streams.Warning.ReadAll();

        public ICollection<VerboseRecord> TakeVerbose() => _ps.Streams.Verbose.ReadAll();

        /// <summary>Asks the host's command to stop; it returns at once, the host finishes stopping on its own.</summary>
        public void Stop()
        {
            if (_pending != null && !_pending.IsCompleted) _ps.BeginStop(null, null);
        }

        /// <summary>Collects the end of a finished run.</summary>
        public void Complete()
        {
            if (Done || _pending == null) return;
            try
            {
                _ps.EndInvoke(_pending);
            }
            catch (Exception ex) when (ex is RuntimeException || ex is InvalidOperationException)
            {
                // A remote terminating error, a stopped pipeline or a broken connection: this host's failure.
                Failure = ex;
            }
            Done = true;
        }

        public void Dispose() => _ps.Dispose();
    }
}
