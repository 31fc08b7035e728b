using System;
using System.Collections.Concurrent;
using System.Linq;
using System.Management.Automation;
using System.Threading;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
using ExchStorageTest.Jobs;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// One host's part of a deployment's capacity search (docs/capacity.md, "Several hosts"), on that host: its engine runs
    /// the whole search in one process (one database set, one warm cache) and takes each step from the orchestrator, which
    /// steps every host together. The orchestrator's remote pipeline (<see cref="Script"/>) starts it, feeds it the
    /// engine's control lines as pipeline input (<c>step {...}</c>, then <c>end {...}</c> or <c>stop</c>) and reads back
    /// the engine's events as JSON text: a <c>capacityStep</c> event when a step is judged, the <c>result</c> event at the
    /// end. Text in and out, as <see cref="HostAgent.Plan"/>, so nothing depends on how remoting serializes objects.
    /// <para>The engine runs on a thread of its own (<see cref="StorageTestJob"/>, as -AsJob does) because the pipeline
    /// thread returns between two steps to wait for the next line; its progress, warnings and verbose records are written
    /// to the host's pipeline while a command is being carried out, so the orchestrator relays them as it relays a test's.
    /// Public because the remote script calls it.</para>
    /// </summary>
    public sealed class SteppedSearch : IDisposable
    {
        /// <summary>The remote pipeline: the search starts in begin, each input line is one control command, end stops an unfinished search.</summary>
        internal const string Script = @"
[CmdletBinding()]
param([string] $Request, [string] $ProfileName, [Parameter(ValueFromPipeline = $true)][string] $Line)
begin { $search = [ExchStorageTest.MultiHost.SteppedSearch]::Start($Request, $ProfileName) }
process { $search.Control($Line, $PSCmdlet) }
end { $search.Finish($PSCmdlet) }";

        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(200);

        private readonly StorageTestJob _job;
        private readonly ConcurrentQueue<string> _events = new ConcurrentQueue<string>();
        private readonly AutoResetEvent _arrived = new AutoResetEvent(false);
        private bool _finished;
        /// <summary>The orchestrator ended the search (end or stop): the end of its input adds nothing.</summary>
        private bool _told;

        private SteppedSearch(JsonObject request, string? profileName)
        {
            _job = new StorageTestJob("Invoke-StorageTest -TestType Capacity (stepped)", $"ExchStorageTest-Capacity-{profileName}", (run, sink) =>
            {
                HelperOutcome outcome = run.Run(request, LocalRun.Activity(request.GetString(RequestFields.TestType), profileName), 1, sink, Arrived);
                return outcome.OfType(EventTypes.Result).Select(result => (object)JsonWriter.Write(result.Fields)).ToList();
            });
        }

        /// <summary>Starts the host's engine with a capacity request stepped by its caller (<see cref="CapacityStepping.Caller"/>).</summary>
        public static SteppedSearch Start(string requestJson, string? profileName)
        {
            if (!(JsonReader.Parse(requestJson) is JsonObject request) || request.GetString(RequestFields.Command) != HelperCommands.Run
                || request.GetString(RequestFields.CapacitySteps) != CapacityStepping.Caller)
                throw new ArgumentException("The request is not a run request of a capacity search stepped by its caller.", nameof(requestJson));
            var search = new SteppedSearch(request, profileName);
            search._job.Start();
            return search;
        }

        /// <summary>
        /// One control line from the orchestrator, passed to the engine as it is. After a <c>step</c>, returns once the
        /// step is judged (its event written) or the engine has ended; after <c>end</c> or <c>stop</c>, once the engine has
        /// written its result.
        /// </summary>
        public void Control(string line, PSCmdlet cmdlet)
        {
            if (_finished) return;
            string trimmed = (line ?? "").Trim();
            int space = trimmed.IndexOf(' ');
            string command = space < 0 ? trimmed : trimmed.Substring(0, space);
            JsonObject? argument = space < 0 ? null : JsonReader.Parse(trimmed.Substring(space + 1)) as JsonObject;
            _job.Send(command, argument);
            if (command != ControlCommands.Step)
            {
                _told = true;
                Finish(cmdlet);
            }
            else
            {
                Relay(cmdlet, untilStep: true);
                // An engine that ended instead of judging the step (an error, a stop) answers with its end.
                if (_job.Finished.WaitOne(0) && _events.IsEmpty) WriteEnd(cmdlet);
            }
        }

        /// <summary>The end of the orchestrator's input: a search it did not end is stopped (its finished steps are kept); then the result.</summary>
        public void Finish(PSCmdlet cmdlet)
        {
            if (_finished) return;
            if (!_told && _job.JobStateInfo.State == JobState.Running) _job.Send(ControlCommands.Stop);
            Relay(cmdlet, untilStep: false);
            WriteEnd(cmdlet);
        }

        /// <summary>The engine's errors and its result event, once it has ended.</summary>
        private void WriteEnd(PSCmdlet cmdlet)
        {
            _finished = true;
            foreach (ErrorRecord error in _job.Error.ReadAll()) cmdlet.WriteError(error);
            foreach (PSObject result in _job.Output.ReadAll()) cmdlet.WriteObject(result.BaseObject);
        }

        /// <summary>Writes the engine's records to the host's pipeline until a step's event arrives (when asked) or the engine ends; a stopped pipeline stops the engine.</summary>
        private void Relay(PSCmdlet cmdlet, bool untilStep)
        {
            while (true)
            {
                if (cmdlet.Stopping)
                {
                    // The engine judges and saves what it has; the stopped pipeline returns no record, the results file keeps it.
                    _job.StopJob();
                    _finished = true;
                    throw new PipelineStoppedException();
                }
                foreach (ProgressRecord progress in _job.Progress.ReadAll()) cmdlet.WriteProgress(progress);
                foreach (WarningRecord warning in _job.Warning.ReadAll()) cmdlet.WriteWarning(warning.Message);
                foreach (VerboseRecord verbose in _job.Verbose.ReadAll()) cmdlet.WriteVerbose(verbose.Message);
                _job.Information.ReadAll();
                while (_events.TryDequeue(out string? json))
                {
                    cmdlet.WriteObject(json);
                    if (untilStep) return;
                }
                if (_job.Finished.WaitOne(0))
                {
                    if (_events.IsEmpty) return;
                    continue;
                }
                WaitHandle.WaitAny(new WaitHandle[] { _arrived, _job.Finished }, Poll);
            }
        }

        private void Arrived(HelperEvent e)
        {
            if (!e.Is(EventTypes.CapacityStep)) return;
            _events.Enqueue(JsonWriter.Write(e.Fields));
            _arrived.Set();
        }

        public void Dispose()
        {
            _job.Dispose();
            _arrived.Dispose();
        }
    }
}
