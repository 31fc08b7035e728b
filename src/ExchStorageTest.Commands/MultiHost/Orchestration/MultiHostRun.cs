using System;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// Invoke-StorageTest -ComputerName / -Session: one profile on several hosts at once, measured over one window.
    /// Every host runs what a run on this computer runs — its engine with a request, its event stream relayed back over
    /// the host's link (<see cref="RemoteEngine"/> to its <see cref="HostAgent"/>) — and this computer turns the events into
    /// records and results with the mappers a local run uses. Each host goes from phase to phase as a new record
    /// (<see cref="HostTarget"/>, <see cref="CheckedHost"/>, <see cref="PlannedHost"/>, <see cref="RunningHost"/>,
    /// <see cref="CollectedHost"/>); <see cref="HostRoster"/> keeps the phase each reached and why it failed.
    /// <list type="number">
    /// <item>Every host is checked at once (<see cref="HostChecks"/>): this module's version there (copied over when missing,
    /// after one question per host), the machine name it reports (its name in the run, and {host} in its paths), its clock
    /// skew against this computer, and its engine's plan for its own paths, which checks its folders and free space.</item>
    /// <item>One confirmation for the whole run.</item>
    /// <item>Two agreed instants: the load start, -StartAtUtc or now + the longest preparation estimate (at least 60 s),
    /// and the measuring start, the load start + the plans' lead (tuning budget, warm-up bound, settling). Each host
    /// gets them on its own clock (instant + its skew); its engine prepares, starts loading at the first and measures
    /// from the second, whatever its own tuning and warm-up took (docs/load-model.md).</item>
    /// <item>Every host's engine starts at once with its request, with one child progress bar per host; a capacity
    /// search is stepped from here (MultiHostRun.Search.cs).</item>
    /// <item>Each host's results JSON is copied back into &lt;OutputPath&gt;/&lt;host&gt;/; the output is one TestResult per
    /// host, then an AggregateResult merged by the engine's report over those files (with the largest skew between the
    /// hosts' measuring starts). &lt;OutputPath&gt;/run.json records the hosts, their skew, instants and outcome.</item>
    /// </list>
    /// A host that fails at any step is reported as HostFailed (non-terminating, target = host name) and left out;
    /// the others go on. When every host fails, the run record and the AggregateResult with each host's reason are
    /// still written.
    /// </summary>
    internal sealed partial class MultiHostRun
    {
        /// <summary>A given start instant must leave at least this long to start every host.</summary>
        public static readonly TimeSpan MinimumNotice = TimeSpan.FromSeconds(10);

        private readonly IRunOutput _output;
        private readonly RunSettings _settings;
        private readonly OrchestratorTiming _timing;
        private readonly HostRoster _roster;
        private readonly HostChecks _checks;
        private readonly EveryHost _everyHost;
        private readonly HostRelay _relay;
        // The engines started (a stop reaches each; the end of the run releases each).
        private readonly List<RunningHost> _running = new List<RunningHost>();
        private readonly object _gate = new object();
        // The command was stopped: no engine starts after it.
        private bool _stopped;
        // This profile's run has ended (or failed part-way): its engines are being let go and none more starts for it.
        // The command's next profile starts afresh.
        private bool _released;

        /// <param name="output">The command (or a test's stand-in).</param>
        /// <param name="settings">The run's settings; OutputPath is where the hosts' results are collected here, so each host's engine keeps its own default.</param>
        /// <param name="hosts">Every host given, those that could not be reached already failed.</param>
        /// <param name="module">This module, to copy to hosts that lack it.</param>
        /// <param name="timing">The orchestrator's clock and waits (a test's are short).</param>
        public MultiHostRun(IRunOutput output, RunSettings settings, IReadOnlyList<HostTarget> hosts, ModuleCopy module, OrchestratorTiming? timing = null)
        {
            _output = output;
            _settings = settings;
            _timing = timing ?? new OrchestratorTiming();
            _roster = new HostRoster(hosts);
            _checks = new HostChecks(output, settings, module, _timing, _roster);
            _everyHost = new EveryHost(output, _roster);
            _relay = new HostRelay(output);
        }

        /// <summary>Stops every host's engine (from StopProcessing's thread): a stop line to each; each host keeps its partial result.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                _stopped = true;
                foreach (RunningHost host in _running) host.Engine.Stop();
            }
        }

        /// <param name="profile">The checked profile; its paths are the hosts' paths.</param>
        /// <param name="startAtUtc">-StartAtUtc (UTC), or null to choose the instant from the plans.</param>
        public void Run(MailboxProfile profile, DateTime? startAtUtc)
        {
            string runId = RunIds.New(_timing.Now());
            string outputPath = _settings.OutputPath ?? _output.ResolvePath("ExchStorageTest-" + runId);
            string activity = $"Multi-host storage test {runId}";
            if (File.Exists(outputPath))
                throw new StorageTestException(ErrorCodes.OutputPathIsFile, $"The output folder '{outputPath}' is a file: the hosts' results are collected in a folder.", outputPath);
            _roster.BeginRun();
            lock (_gate)
            {
                _running.Clear();
                _released = false;
            }
            try
            {
                // 1. Checked and planned, every host at once.
                var (planned, hostSettings) = _checks.Check(profile, activity);
                if (planned.Count == 0)
                {
                    // Nothing to run, but the user is owed the record of why (under -WhatIf nothing is written or returned).
                    if (!_output.WhatIf) Finish(runId, profile, outputPath, null, 0, new List<CollectedHost>());
                    return;
                }

                // 2. One confirmation, then the agreed instants.
                TimeSpan prepare = PreparationEstimate.Lead(planned.Select(h => h.Plan).ToArray());
                double lead = IsCapacitySearch ? SearchTiming.Of(planned).Lead : planned.Max(h => RunInstants.LeadSeconds(h.Plan));
                if (!_output.ShouldRun(RunPreview.Describe(_settings, hostSettings, profile, planned, runId, startAtUtc, prepare, lead, outputPath),
                        $"Run a {_settings.TestType} storage test with profile '{profile.Name}' on {Wording.Count(planned.Count, "host")}? It creates the planned files on every host and loads their disks.",
                        "Invoke-StorageTest"))
                    return;
                DateTime startAt = startAtUtc ?? UtcTime.ToMilliseconds(_timing.Now() + prepare);
                if (startAt < _timing.Now() + _timing.MinimumNotice)
                    throw TooSoon(startAt);
                Directory.CreateDirectory(outputPath);
                _output.Verbose($"Run {runId}: on this computer's clock, {RunInstants.Describe(startAt, lead)}; results are collected in '{outputPath}'.");

                // 3. Running: every host's engine at once, relayed here; a capacity search is stepped from here.
                if (IsCapacitySearch) Search(profile, planned, hostSettings, startAt, activity, runId);
                else
                {
                    // Each host's engine derives the measuring start from the load start and the same settings: its lead is this one.
                    foreach (PlannedHost host in planned)
                        Open(host, hostSettings.ToRequest(EngineCommands.Run, host.Host.ForHost(profile), host.OnHostClock(startAt), runId: runId), host.OnHostClock(startAt), lead);
                    DateTime measureAt = startAt.AddSeconds(lead);
                    List<RunningHost> running = Running();
                    _relay.Wait(activity, running, () => false, finished =>
                    {
                        DateTime now = _timing.Now();
                        return now < startAt
                            ? string.Format(CultureInfo.InvariantCulture, "Preparing; all hosts start at {0} (in {1:0} s) and measure from {2}", UtcTime.Iso(startAt), (startAt - now).TotalSeconds, UtcTime.Iso(measureAt))
                            : now < measureAt
                            ? string.Format(CultureInfo.InvariantCulture, "Tuning and warming up; all hosts measure from {0} (in {1:0} s)", UtcTime.Iso(measureAt), (measureAt - now).TotalSeconds)
                            : $"{finished} of {Wording.Count(running.Count, "host")} finished";
                    });
                }

                // 4. Collected: each host's result and results file, then the aggregate and the run record.
                Finish(runId, profile, outputPath, startAt, lead, new HostResults(_output, _roster, _everyHost).Collect(Running(), profile, outputPath, activity));
            }
            finally
            {
                Release();
                if (!_output.Stopping) _output.Progress(new ProgressRecord(1, activity, "Finished") { RecordType = ProgressRecordType.Completed });
            }
        }

        /// <summary>Refuses a -StartAtUtc too close to start every host in time (or past).</summary>
        public static StorageTestException TooSoon(DateTime startAt) =>
            new StorageTestException(ErrorCodes.StartTimeOutOfRange,
                $"StartAtUtc {UtcTime.Iso(startAt)} is less than {MinimumNotice.TotalSeconds:0} seconds away (or past): the hosts could not all be started in time.", startAt);

        /// <summary>Starts the host's engine with a run request (load start on its clock, measuring <paramref name="lead"/> s later); a stop that came first starts nothing more.</summary>
        private void Open(PlannedHost host, JsonObject request, DateTime startAtOnHost, double lead)
        {
            _everyHost.Attempt(host.Target, () =>
            {
                var engine = new RemoteEngine(host.Host.Link.OpenAgentPipeline(), _timing.Silence);
                lock (_gate)
                {
                    if (_stopped || _released)
                    {
                        engine.Dispose();
                        throw new PipelineStoppedException();
                    }
                    var running = new RunningHost(host, engine, startAtOnHost, startAtOnHost.AddSeconds(lead));
                    _running.Add(running);
                    _roster.Reached(host.Target, running);
                    engine.Open(JsonWriter.Write(request));
                }
            });
        }

        /// <summary>The hosts whose engine was started.</summary>
        private List<RunningHost> Running()
        {
            lock (_gate) return _running.ToList();
        }

        /// <summary>The hosts' results, the aggregate (with every failed host's reason) and the run record.</summary>
        private void Finish(string runId, MailboxProfile profile, string outputPath, DateTime? startAt, double lead, List<CollectedHost> collected)
        {
            DateTime? measureAt = startAt?.AddSeconds(lead);
            var results = collected.Select(c => c.Result).ToList();
            IReadOnlyList<HostLine> hosts = _roster.Lines();
            AggregateResult aggregate = Aggregate.Build(runId, startAt, measureAt, hosts, results, Report(results, outputPath), outputPath);
            foreach (TestResult result in results) _output.Output(result);
            _output.Output(aggregate);
            try
            {
                Directory.CreateDirectory(outputPath);
                RunRecord.Write(outputPath, runId, startAt, measureAt, aggregate, profile, hosts);
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                _output.Warning($"The run record could not be written to '{outputPath}': {ex.Message}. The results are there all the same.");
            }
        }

        /// <summary>The engine's report over the collected files (it merges them: rates summed, histograms merged), or null when it failed.</summary>
        private TestReport? Report(IReadOnlyList<TestResult> results, string outputPath)
        {
            string[] files = results.Select(r => r.ResultsPath).OfType<string>().ToArray();
            if (files.Length == 0) return null;
            try
            {
                return _output.Merge(files);
            }
            catch (StorageTestException ex)
            {
                _output.Error(new StorageTestException(ErrorCodes.AggregateFailed, $"The per-host results were collected in '{outputPath}', but they could not be merged: {ex.Message}",
                    outputPath, ex).ErrorRecord);
                return null;
            }
        }

        /// <summary>
        /// Ends what is still running on the hosts (the run failed part-way): each engine's input is closed, so its agent
        /// stops it, and it saves what it measured; a host that does not finish in time is cut off.
        /// </summary>
        private void Release()
        {
            List<RemoteEngine> engines;
            lock (_gate)
            {
                _released = true;
                engines = _running.Select(h => h.Engine).ToList();
            }
            foreach (RemoteEngine engine in engines) engine.Close();
            DateTime deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
            foreach (RemoteEngine engine in engines)
            {
                TimeSpan left = deadline - DateTime.UtcNow;
                engine.CloseAndWait(left > TimeSpan.Zero ? left : TimeSpan.Zero);
                engine.Dispose();
            }
        }
    }
}
