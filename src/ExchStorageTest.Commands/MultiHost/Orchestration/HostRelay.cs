using System;
using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using System.Threading;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The running hosts' events on this computer, as a run on this computer writes them (<see cref="EngineRecords"/>):
    /// each message with its host's name, each host's progress under its own bar (a child of the run's).
    /// </summary>
    internal sealed class HostRelay
    {
        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

        private readonly IRunOutput _output;
        private readonly HashSet<RemoteEngine> _announced = new HashSet<RemoteEngine>();

        public HostRelay(IRunOutput output) => _output = output;

        /// <summary>
        /// Relays every host's events until <paramref name="until"/> holds or every engine has ended, with the run's status
        /// (given how many hosts finished) on its bar; a stop waits for each host to stop cleanly (a host that does not
        /// answer is not waited for forever).
        /// </summary>
        public void Wait(string activity, IReadOnlyList<RunningHost> hosts, Func<bool> until, Func<int, string> status)
        {
            DateTime? stopDeadline = null;
            while (true)
            {
                int finished = 0;
                foreach (RunningHost host in hosts)
                {
                    bool ended = host.Engine.Ended;
                    Relay(host);
                    if (ended) finished++;
                }
                if (finished == hosts.Count || (!_output.Stopping && until())) break;
                if (_output.Stopping)
                {
                    stopDeadline = stopDeadline ?? DateTime.UtcNow + EngineSession.StopGrace + TimeSpan.FromSeconds(30);
                    if (DateTime.UtcNow > stopDeadline) break;
                }
                else _output.Progress(new ProgressRecord(1, activity, status(finished)) { PercentComplete = hosts.Count == 0 ? 0 : 100 * finished / hosts.Count });
                WaitHandle[] pending = hosts.Where(h => !h.Engine.Ended).Select(h => h.Engine.Changed).Take(64).ToArray();
                if (pending.Length > 0) WaitHandle.WaitAny(pending, Poll);
            }
            if (_output.Stopping)
            {
                _output.WarnWhileStopping("ExchStorageTest: the multi-host run was stopped; each host judged and saved its partial result in its own results folder.");
                throw new PipelineStoppedException();
            }
        }

        /// <summary>A host's events since the last look; while the command stops, only read.</summary>
        private void Relay(RunningHost host)
        {
            RemoteEngine engine = host.Engine;
            bool wasEnded = engine.Ended;
            IReadOnlyList<JsonObject> events = engine.Take();
            // An engine that has exited needs no more input: its agent's pipeline ends, and the host's runspace is free.
            if (engine.ExitCode.HasValue) engine.Close();
            if (_output.Stopping) return;
            string name = host.Label;
            int progressId = host.Host.ProgressId;
            if (engine.EngineVersion != null && _announced.Add(engine))
                _output.Verbose($"{name}: ExchStorageTest engine {engine.EngineVersion} (process {engine.ProcessId}): {EngineCommands.Run}.");
            JsonObject? progress = null;
            foreach (JsonObject e in events)
            {
                switch (e.GetString(EventFields.Type))
                {
                    case EventTypes.Log: EngineRecords.Log(_output, e, name + ": "); break;
                    case EventTypes.Progress: progress = e; break;
                }
            }
            if (progress != null)
            {
                ProgressRecord record = EngineRecords.Progress(progressId, name, progress);
                record.ParentActivityId = 1;
                _output.Progress(record);
            }
            if (!wasEnded && engine.Ended)
                _output.Progress(new ProgressRecord(progressId, name, "Finished") { ParentActivityId = 1, RecordType = ProgressRecordType.Completed });
        }
    }
}
