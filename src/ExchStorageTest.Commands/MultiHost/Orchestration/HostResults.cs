using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>A multi-host run's last phase: each running host's end judged as a run on this computer's is, and its results file copied here.</summary>
    internal sealed class HostResults
    {
        private readonly IRunOutput _output;
        private readonly HostRoster _roster;
        private readonly EveryHost _everyHost;

        public HostResults(IRunOutput output, HostRoster roster, EveryHost everyHost)
        {
            _output = output;
            _roster = roster;
            _everyHost = everyHost;
        }

        /// <summary>
        /// Each host's TestResult (its result event, mapped as a local run maps it) with its results JSON copied here; a
        /// host whose engine ended without a result, failed (exit 1 or 2, as a local run fails), or was lost, fails.
        /// </summary>
        public List<CollectedHost> Collect(IReadOnlyList<RunningHost> hosts, MailboxProfile profile, string outputPath, string activity)
        {
            var judged = new List<CollectedHost>();
            foreach (RunningHost host in hosts)
            {
                RemoteEngine engine = host.Engine;
                // Its engine has ended: the agent's pipeline ends too, and the host's runspace is free for the copies back.
                engine.CloseAndWait(EngineSession.StopGrace);
                engine.Take();
                JsonObject? result = engine.ReceivedOf(EventTypes.Result).LastOrDefault();
                var errors = engine.ReceivedOf(EventTypes.Error).ToList();
                EngineEnd end = engine.Judge(answered: result != null);
                if (engine.Lost != null || result == null || end == EngineEnd.Failed || end == EngineEnd.Lost)
                {
                    string reason = engine.Lost ?? (engine.EngineLost != null ? engine.EngineLost + "." + EngineSession.DescribeTail(engine.ErrorTail)
                        : end == EngineEnd.Unanswered && errors.Count == 0 ? "its engine ended without a result."
                        : EngineRecords.Error(errors.LastOrDefault(), engine.ExitCode ?? EngineExit.DidNotExit, engine.ErrorTail ?? "").Message);
                    _output.Error(_roster.Fail(host.Target, reason, engine.LostBy));
                    continue;
                }
                // Errors the engine went on after: this host's warnings, as a local run's are non-terminating errors.
                foreach (JsonObject error in errors) _output.Warning($"{host.Label}: {error.GetString(EventFields.Error.Message)}");
                TestResult item = TestResult.FromEvent(result, profile.Name);
                item.ComputerName = host.Host.ComputerName;
                item.Address = host.Host.Address;
                item.RemoteResultsPath = item.ResultsPath;
                item.ResultsPath = null;
                item.ClockSkewMs = Math.Round(host.Planned.Skew.Skew.TotalMilliseconds, 1);
                judged.Add(new CollectedHost(host, item));
            }
            // The results files come back from every host at once; one that cannot be copied fails its host (its results stay there).
            return _everyHost.Run(judged, c => c.Target, activity, "Collecting results", (collected, say) =>
            {
                string? remotePath = collected.Result.RemoteResultsPath;
                if (remotePath != null)
                {
                    string folder = Path.Combine(outputPath, collected.Running.Host.Key);
                    string localPath = Path.Combine(folder, remotePath.Split('\\', '/').Last());
                    try
                    {
                        Directory.CreateDirectory(folder);
                        collected.Running.Host.Link.Fetch(remotePath, localPath);
                    }
                    catch (Exception ex) when (!(ex is PipelineStoppedException))
                    {
                        throw new InvalidOperationException($"its results could not be copied back from '{remotePath}' (they are kept there): {ex.Message}", ex);
                    }
                    collected.Result.ResultsPath = localPath;
                }
                _roster.Reached(collected.Target, collected);
                return collected;
            });
        }
    }
}
