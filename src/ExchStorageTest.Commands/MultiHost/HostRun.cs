using System;
using System.Collections;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using System.Threading;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The storage test on one host: the module's own Invoke-StorageTest (<see cref="Test"/>), or the host's part of a
    /// deployment's capacity search (<see cref="Search"/>, fed its control lines with <see cref="Send"/>), run
    /// asynchronously on the host's runspace so all hosts run at once. Its progress, warnings and verbose records stay in the pipeline's streams until the
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
        private readonly PSDataCollection<PSObject>? _input;
        private IAsyncResult? _pending;

        private HostRun(RemoteHost host, int progressId, string script, object[] arguments, bool takesInput)
        {
            Host = host;
            ProgressId = progressId;
            _ps = PowerShell.Create();
            _ps.Runspace = host.Runspace;
            _ps.AddScript(script);
            foreach (object argument in arguments) _ps.AddArgument(argument);
            if (takesInput) _input = new PSDataCollection<PSObject>();
        }

        /// <summary>Invoke-StorageTest on the host with these parameters.</summary>
        public static HostRun Test(RemoteHost host, int progressId, Hashtable parameters) =>
            new HostRun(host, progressId, Script, new object[] { parameters }, takesInput: false);

        /// <summary>The host's engine running a capacity search stepped by this computer (<see cref="SteppedSearch"/>).</summary>
        public static HostRun Search(RemoteHost host, int progressId, string requestJson, string? profileName, bool verbose)
        {
            var run = new HostRun(host, progressId, SteppedSearch.Script, new object[] { requestJson, profileName ?? "" }, takesInput: true);
            if (verbose) run._ps.AddParameter("Verbose", true);
            return run;
        }

        public RemoteHost Host { get; }

        /// <summary>The id of this host's progress bar, a child of the run's bar.</summary>
        public int ProgressId { get; }

        public bool Done { get; private set; }

        /// <summary>Set when the host's command ended by a terminating error (or was stopped).</summary>
        public Exception? Failure { get; private set; }

        /// <summary>The output so far (by index: enumerating a collection still being written to would wait for its end).</summary>
        public IReadOnlyList<PSObject> Output
        {
            get
            {
                var items = new List<PSObject>();
                for (int i = 0; i < _output.Count; i++) items.Add(_output[i]);
                return items;
            }
        }

        public IReadOnlyList<ErrorRecord> Errors => _ps.Streams.Error.ToList();

        public WaitHandle? Finished => _pending?.AsyncWaitHandle;

        public bool IsFinished => _pending == null || _pending.IsCompleted;

        public void Start() => _pending = _ps.BeginInvoke<PSObject, PSObject>(_input, _output, StreamsOnlyHost.Settings(), null, null);

        /// <summary>One line of input for a search (<see cref="Search"/>): a control command for its engine.</summary>
        public void Send(string line)
        {
            if (_input == null || !_input.IsOpen) return;
            if (line.StartsWith(ControlCommands.Step + " ", StringComparison.Ordinal)) StepsSent++;
            _input.Add(PSObject.AsPSObject(line));
        }

        /// <summary>The step lines sent to a search.</summary>
        public int StepsSent { get; private set; }

        /// <summary>Ends a search's input: the host's search ends (stopped, unless an end command came first) and returns its result.</summary>
        public void EndInput()
        {
            if (_input != null && _input.IsOpen) _input.Complete();
        }

        /// <summary>The search's output items that are engine events (JSON text), in order.</summary>
        public IReadOnlyList<JsonObject> Events() =>
            Output.Select(o => o.BaseObject as string).Where(t => t != null).Select(t => JsonReader.Parse(t!) as JsonObject).Where(e => e != null).Select(e => e!).ToList();

        /// <summary>Progress records that arrived since the last call (taken out of the stream, so a long run does not pile them up).</summary>
        public ICollection<ProgressRecord> TakeProgress() => _ps.Streams.Progress.ReadAll();

        public ICollection<WarningRecord> TakeWarnings() => _ps.Streams.Warning.ReadAll();

        public ICollection<VerboseRecord> TakeVerbose() => _ps.Streams.Verbose.ReadAll();

        /// <summary>
        /// Asks the host's command to stop; it returns at once, the host finishes stopping on its own. A search is told to
        /// stop on its input, so its engine saves the finished steps and returns its result.
        /// </summary>
        public void Stop()
        {
            if (_pending == null || _pending.IsCompleted) return;
            // Between two steps the host waits for its next line, so the line stops it. During a step it reads no input
            // until the step is judged; stopping its pipeline makes it stop its engine, which saves the finished steps.
            if (_input != null && _input.IsOpen && StepsSent <= Events().Count(e => e.GetString(EventFields.Type) == EventTypes.CapacityStep))
            {
                Send(ControlCommands.Stop);
                EndInput();
            }
            else _ps.BeginStop(null, null);
        }

        /// <summary>The host's result: Invoke-StorageTest's TestResult, or a search's result event; null when there is none.</summary>
        public TestResult? Result(string? profileName)
        {
            if (_input == null)
            {
                PSObject? item = Output.FirstOrDefault(RemoteResult.IsTestResult);
                return item == null ? null : RemoteResult.Read(item);
            }
            JsonObject? result = Events().LastOrDefault(e => e.GetString(EventFields.Type) == EventTypes.Result);
            return result == null ? null : TestResult.FromEvent(result, profileName);
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

        public void Dispose()
        {
            _ps.Dispose();
            _input?.Dispose();
        }
    }
}
