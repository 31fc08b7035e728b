using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// A multi-host run's first phases, on every host at once: what the host is and this module there (a copy reused, or
    /// made after the host's question), its name in the run (<see cref="CheckedHost"/>), its clock skew and its engine's
    /// plan of its own paths, which checks its folders and free space (<see cref="PlannedHost"/>).
    /// </summary>
    internal sealed class HostChecks
    {
        private static readonly TimeSpan PlanTimeout = TimeSpan.FromMinutes(10);
        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

        private readonly IRunOutput _output;
        private readonly RunSettings _settings;
        private readonly ModuleCopy _module;
        private readonly OrchestratorTiming _timing;
        private readonly HostRoster _roster;
        private readonly EveryHost _everyHost;

        public HostChecks(IRunOutput output, RunSettings settings, ModuleCopy module, OrchestratorTiming timing, HostRoster roster)
        {
            _output = output;
            _settings = settings;
            _module = module;
            _timing = timing;
            _roster = roster;
            _everyHost = new EveryHost(output, roster);
        }

        /// <summary>
        /// Checks and plans every usable host; returns those ready, in the order given, and every host's settings: the run's,
        /// without its output folder, naming the fault script's host.
        /// </summary>
        public (List<PlannedHost> Ready, RunSettings HostSettings) Check(MailboxProfile profile, string activity)
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            Version version = _module.Version;
            var inspected = _everyHost.Run(_roster.Usable(), t => t, activity, "Checking", (target, say) =>
            {
                IHostLink link = target.Link ?? throw new InvalidOperationException(target.Unreachable);
                HostFacts facts = link.Inspect(version, null);
                // Not installed: a copy made earlier (by an earlier run of this build, or another session to this host) is reused.
                if (facts.ModuleBase == null && facts.ModuleError == null) facts = link.Inspect(version, _module.RemoteManifest(facts));
                return (Target: target, Link: link, Facts: facts);
            });
            RunSettings hostSettings = FaultScriptHost(inspected.Select(i => (i.Target, i.Facts)).ToList());

            var keys = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
            var named = new List<(CheckedHost Host, bool Copy)>();
            int progressId = 1;
            foreach (var (target, link, facts) in inspected)
            {
                var host = new CheckedHost(target, link, facts, UniqueKey(keys, HostRoster.ComputerName(facts, target.Address)), ++progressId);
                _roster.Reached(target, host);
                bool copy = facts.ModuleBase == null && facts.ModuleError == null;
                // The question is the command's, asked on its thread, one host at a time.
                if (!copy || _everyHost.Attempt(target, () => _module.Confirm(_output, facts, host.Label))) named.Add((host, copy));
            }
            var ready = _everyHost.Run(named, n => n.Host.Target, activity, "Preparing", (n, say) => Prepare(n.Host, n.Copy, profile, hostSettings, say));
            int copies = named.Count(n => n.Copy);
            _output.Verbose(string.Format(CultureInfo.InvariantCulture, "Checked {0} at once in {1:0.0} s (module{2}, machine name, clock, plan): {3} ready.",
                Wording.Count(named.Count, "host"), clock.Elapsed.TotalSeconds, copies > 0 ? $", copied to {copies}" : "", ready.Count));
            return (ready, hostSettings);
        }

        /// <summary>Copies the module when the host lacks it, checks it has an engine, reads its clock and has its engine plan its paths.</summary>
        private PlannedHost Prepare(CheckedHost host, bool copy, MailboxProfile profile, RunSettings hostSettings, Action<string> say)
        {
            Version version = _module.Version;
            if (copy)
            {
                say($"Copying ExchStorageTest {version} and its engine for {host.Facts.RuntimeId} to {host.Label}.");
                _module.CopyTo(host.Link, host.Facts);
                HostFacts copied = host.Link.Inspect(version, _module.RemoteManifest(host.Facts));
                copied.ModuleCopied = true;
                host = host.WithFacts(copied);
                _roster.Reached(host.Target, host);
            }
            HostFacts facts = host.Facts;
            if (facts.ModuleBase == null)
                throw new StorageTestException(ErrorCodes.ModuleNotAvailable, $"ExchStorageTest {version} cannot be used on the host: {facts.ModuleError ?? "the module could not be found or loaded"}", host.Key);
            if (facts.EnginePath == null)
                throw new StorageTestException(ErrorCodes.EngineNotAvailable, $"ExchStorageTest {version} on the host ('{facts.ModuleBase}') has no engine for its platform ({facts.RuntimeId}). Install the engine there, or the full module.", host.Key);
            var planned = new PlannedHost(host, host.Link.MeasureSkew(), Plan(host, host.ForHost(profile), hostSettings));
            _roster.Reached(host.Target, planned);
            say($"{host.Label}: machine {facts.ComputerName} ({{host}} in its paths is '{host.Key}'), PowerShell {facts.PSVersion}, module at '{facts.ModuleBase}'{(facts.ModuleCopied ? " (copied by this run)" : "")}; " +
                $"clock skew {planned.Skew}; {PreparationEstimate.Describe(planned.Plan)}.");
            return planned;
        }

        /// <summary>
        /// A fault script runs on one host only: the first given (-ComputerName, -Session), by the machine name it reports
        /// (its engine compares it with its own), or by the name given when it could not be asked. Every host gets the
        /// window; the plans and runs that follow carry the name in every host's request.
        /// </summary>
        private RunSettings FaultScriptHost(List<(HostTarget Target, HostFacts Facts)> inspected)
        {
            RunSettings hostSettings = _settings.With(RunSetting.OutputPath, null);
            if (_settings.FaultScript == null || _roster.Targets.Count == 0) return hostSettings;
            HostTarget first = _roster.Targets[0];
            HostFacts? facts = inspected.Where(i => i.Target == first).Select(i => i.Facts).FirstOrDefault();
            string name = HostRoster.ComputerName(facts, first.Address);
            if (_roster.Failed(first))
                _output.Warning($"The fault script '{_settings.FaultScript}' runs on the first host only, '{first.Address}', which failed: no host starts it, and every other host judges the window as declared.");
            else
                _output.Verbose($"The fault script '{_settings.FaultScript}' runs on the first host only, '{name}'; every host judges the window.");
            return hostSettings.With(RunSetting.FaultScriptHost, name);
        }

        /// <summary>The machine name made safe for a folder name and unique in the run: a second session to one machine is &lt;name&gt;-2, never the address (which the user cannot prepare folders for).</summary>
        private static string UniqueKey(HashSet<string> keys, string computerName)
        {
            string key = SharedResults.SafeName(computerName);
            string unique = key;
            for (int n = 2; !keys.Add(unique); n++) unique = key + "-" + n;
            return unique;
        }

        /// <summary>The host's engine plans its own paths, over the link a run uses; an error it reports (even one it went on after) fails the host.</summary>
        private JsonObject Plan(CheckedHost host, MailboxProfile hostProfile, RunSettings hostSettings)
        {
            using (var engine = new RemoteEngine(host.Link.OpenAgentPipeline(), _timing.Silence))
            {
                engine.Open(JsonWriter.Write(hostSettings.ToRequest(EngineCommands.Plan, hostProfile)));
                DateTime deadline = DateTime.UtcNow + PlanTimeout;
                while (!engine.Ended)
                {
                    if (_output.Stopping) throw new PipelineStoppedException();
                    if (DateTime.UtcNow > deadline) throw new TimeoutException($"its engine did not plan within {PlanTimeout}.");
                    engine.Changed.WaitOne(Poll);
                    engine.Take();
                }
                engine.Take();
                engine.CloseAndWait(EngineSession.StopGrace);
                JsonObject? plan = engine.ReceivedOf(EventTypes.Plan).FirstOrDefault();
                JsonObject? error = engine.ReceivedOf(EventTypes.Error).LastOrDefault();
                if (engine.Lost != null) throw new InvalidOperationException(engine.Lost, engine.LostBy);
                EngineEnd end = engine.Judge(answered: plan != null);
                if (error != null || (end != EngineEnd.Ran && end != EngineEnd.Unanswered)) throw EngineRecords.Error(error, engine.ExitCode ?? EngineExit.DidNotExit, engine.ErrorTail ?? "");
                return plan ?? throw new StorageTestException(ErrorCodes.PlanMissing, "its engine returned no plan.", host.Key);
            }
        }
    }
}
