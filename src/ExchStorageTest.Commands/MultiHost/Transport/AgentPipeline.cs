using System;
using System.Management.Automation;
using System.Management.Automation.Runspaces;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The agent's pipeline on a host's link, under one <see cref="RemoteEngine"/>: a pipeline on the host running <see cref="HostAgent.Script"/>,
    /// lines in, answers (text) out, in order. Over a remoting runspace it is <see cref="RunspaceAgentPipeline"/>; the module's
    /// unit tests call the agent in-process. Callbacks come on any thread.
    /// </summary>
    internal interface IAgentPipeline : IDisposable
    {
        /// <summary>Starts the agent with the request; <paramref name="answered"/> gets each answer, <paramref name="ended"/> the pipeline's end (its error, or null).</summary>
        void Start(string requestJson, Action<string> answered, Action<Exception?> ended);

        /// <summary>One line of the agent's input; nothing once the pipeline was stopped or has ended (no one reads it).</summary>
        void Send(string line);

        /// <summary>The end of the agent's input: it finishes (an engine still running is stopped) and answers what is left; nothing once the pipeline was stopped or has ended.</summary>
        void Complete();

        /// <summary>Stops the pipeline itself: for a host that no longer answers. Its input ends with it.</summary>
        void Abort();
    }

    /// <summary>The agent in a pipeline on a host's runspace (WinRM, SSH, or a PSSession's), under a host without a UI.</summary>
    internal sealed class RunspaceAgentPipeline : IAgentPipeline
    {
        private readonly PowerShell _ps;
        private readonly PSDataCollection<PSObject> _input = new PSDataCollection<PSObject>();
        private readonly PSDataCollection<PSObject> _output = new PSDataCollection<PSObject>();
        private readonly object _inputGate = new object();
        private Action<string>? _answered;
        private int _read;
        private bool _stopRequested;

        public RunspaceAgentPipeline(Runspace runspace)
        {
            _ps = PowerShell.Create();
            _ps.Runspace = runspace;
        }

        public void Start(string requestJson, Action<string> answered, Action<Exception?> ended)
        {
            _answered = answered;
            _output.DataAdded += (_, __) => Deliver();
            _ps.AddScript(HostAgent.Script).AddArgument(requestJson);
            _ps.BeginInvoke<PSObject, PSObject>(_input, _output, StreamsOnlyHost.Settings(), pending =>
            {
                Exception? failure = null;
                try
                {
                    _ps.EndInvoke(pending);
                }
                catch (Exception ex) when (ex is RuntimeException || ex is InvalidOperationException)
                {
                    // A remote terminating error (the engine could not start), a stopped pipeline or a broken connection.
                    failure = ex;
                }
                Deliver();
                ended(failure);
            }, null);
        }

        /// <summary>Every answer not yet handed on, in order (by index: the collection is still being written to).</summary>
        private void Deliver()
        {
            lock (_output)
            {
                while (_read < _output.Count)
                {
                    object? item = _output[_read++]?.BaseObject;
                    if (item is string text) _answered?.Invoke(text);
                }
            }
        }

        public void Send(string line) => WriteInput(() => _input.Add(PSObject.AsPSObject(line)));

        public void Complete() => WriteInput(_input.Complete);

        /// <summary>
        /// Writes to the pipeline's input only while the pipeline runs on an open runspace and was not stopped from here.
        /// PowerShell's remoting client tears the command's transport down as soon as a stop begins (or the runspace
        /// starts closing) but leaves this collection attached until the pipeline's end arrives, so a line or the end of
        /// input written meanwhile throws a NullReferenceException inside its fragmentor ("Object reference not set to an
        /// instance of an object"; over SSH: 27 of 40 writes within 20 ms of BeginStop, every write after the session's
        /// CloseAsync). A close from elsewhere (the user's session removed, a broken connection) can still begin between
        /// the check and the write: that write's NullReferenceException is the same teardown, taken as such only when the
        /// pipeline or its runspace is then seen to be ending; any other propagates.
        /// </summary>
        private void WriteInput(Action write)
        {
            lock (_inputGate)
            {
                if (!AcceptsInput || !_input.IsOpen) return;
                try
                {
                    write();
                }
                catch (NullReferenceException) when (!AcceptsInput)
                {
                    // Torn down under the write; the pipeline's end reaches the RemoteEngine through its ended callback.
                }
            }
        }

        private bool AcceptsInput
        {
            get
            {
                if (_stopRequested) return false;
                PSInvocationState state = _ps.InvocationStateInfo.State;
                return (state == PSInvocationState.NotStarted || state == PSInvocationState.Running) &&
                    _ps.Runspace?.RunspaceStateInfo.State == RunspaceState.Opened;
            }
        }

        public void Abort()
        {
            // First: no write may start once the stop does (one already writing finishes before it).
            lock (_inputGate) _stopRequested = true;
            try
            {
                _ps.BeginStop(null, null);
            }
            catch (Exception ex) when (ex is InvalidOperationException || ex is RuntimeException)
            {
                // Finished or broken already.
            }
        }

        public void Dispose()
        {
            _ps.Dispose();
            _input.Dispose();
            _output.Dispose();
        }
    }
}
