using System;
using System.Collections.Concurrent;
using System.Collections.Generic;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text;
using System.Threading;
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
    /// one channel (<see cref="HostChannel"/>, <see cref="HostAgent"/>) — and this computer turns the events into records
    /// and results with the mappers a local run uses.
    /// <list type="number">
    /// <item>Every host is checked at once (<see cref="Prepare"/>): this module's version there (copied over when missing,
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

        private static readonly TimeSpan PlanTimeout = TimeSpan.FromMinutes(10);
        private static readonly TimeSpan Poll = TimeSpan.FromMilliseconds(250);

        private readonly IRunOutput _output;
        private readonly RunSettings _settings;
        // Every host's settings: the run's, without its output folder, and naming the fault script's host once it is known.
        private RunSettings _hostSettings;
        private readonly IReadOnlyList<RemoteHost> _hosts;
        private readonly ModuleCopy _module;
        private readonly OrchestratorTiming _timing;
        private readonly HashSet<string> _keys = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        private readonly HashSet<HostChannel> _announced = new HashSet<HostChannel>();
        private readonly object _gate = new object();
        private bool _stopped;

        /// <param name="output">The command (or a test's stand-in).</param>
        /// <param name="settings">The run's settings; OutputPath is where the hosts' results are collected here, so each host's engine keeps its own default.</param>
        /// <param name="hosts">Every host given, those that could not be reached already failed.</param>
        /// <param name="module">This module, to copy to hosts that lack it.</param>
        /// <param name="timing">The orchestrator's clock and waits (a test's are short).</param>
        public MultiHostRun(IRunOutput output, RunSettings settings, IReadOnlyList<RemoteHost> hosts, ModuleCopy module, OrchestratorTiming? timing = null)
        {
            _output = output;
            _settings = settings;
            _hostSettings = settings.With(RunSetting.OutputPath, null);
            _hosts = hosts;
            _module = module;
            _timing = timing ?? new OrchestratorTiming();
        }

        /// <summary>Stops every host's engine (from StopProcessing's thread): a stop line on each channel; each host keeps its partial result.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                _stopped = true;
                foreach (RemoteHost host in _hosts) host.Channel?.Stop();
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
            var hosts = new List<RemoteHost>();
            try
            {
                hosts = Prepare(profile, activity);
                if (hosts.Count == 0)
                {
                    // Nothing to run, but the user is owed the record of why (under -WhatIf nothing is written or returned).
                    if (!_output.WhatIf) Finish(runId, profile, outputPath, null, 0, new List<TestResult>());
                    return;
                }

                TimeSpan prepare = PreparationEstimate.Lead(hosts.Select(h => h.Plan).ToArray());
                double lead = IsCapacitySearch ? SearchLead(hosts) : hosts.Max(h => RunInstants.LeadSeconds(h.Plan));
                if (!_output.ShouldRun(Describe(profile, hosts, runId, startAtUtc, prepare, lead, outputPath),
                        $"Run a {_settings.TestType} storage test with profile '{profile.Name}' on {Wording.Count(hosts.Count, "host")}? It creates the planned files on every host and loads their disks.",
                        "Invoke-StorageTest"))
                    return;

                DateTime startAt = startAtUtc ?? UtcTime.ToMilliseconds(_timing.Now() + prepare);
                if (startAt < _timing.Now() + _timing.MinimumNotice)
                    throw TooSoon(startAt);
                Directory.CreateDirectory(outputPath);
                _output.Verbose($"Run {runId}: on this computer's clock, {RunInstants.Describe(startAt, lead)}; results are collected in '{outputPath}'.");

                if (IsCapacitySearch) Search(profile, hosts, startAt, activity, runId);
                else
                {
                    foreach (RemoteHost host in hosts)
                    {
                        // The host's engine derives the measuring start from the load start and the same settings: its lead is this one.
                        host.StartAtUtc = startAt + host.Skew!.Skew;
                        host.MeasureAtUtc = host.StartAtUtc.Value.AddSeconds(lead);
                        Open(host, _hostSettings.ToRequest(HelperCommands.Run, ForHost(profile, host), host.StartAtUtc.Value, runId: runId));
                    }
                    DateTime measureAt = startAt.AddSeconds(lead);
                    Wait(activity, Running(hosts), () => false, finished =>
                    {
                        // A new record each time: the host keeps the records it was given, so one must not be changed after it was written.
                        DateTime now = _timing.Now();
                        return now < startAt
                            ? string.Format(CultureInfo.InvariantCulture, "Preparing; all hosts start at {0} (in {1:0} s) and measure from {2}", UtcTime.Iso(startAt), (startAt - now).TotalSeconds, UtcTime.Iso(measureAt))
                            : now < measureAt
                            ? string.Format(CultureInfo.InvariantCulture, "Tuning and warming up; all hosts measure from {0} (in {1:0} s)", UtcTime.Iso(measureAt), (measureAt - now).TotalSeconds)
                            : $"{finished} of {Wording.Count(Running(hosts).Count, "host")} finished";
                    });
                }
                Finish(runId, profile, outputPath, startAt, lead, Collect(Running(hosts), profile, outputPath, activity));
            }
            finally
            {
                Release(hosts);
                if (!_output.Stopping) _output.Progress(new ProgressRecord(1, activity, "Finished") { RecordType = ProgressRecordType.Completed });
            }
        }

        /// <summary>Refuses a -StartAtUtc too close to start every host in time (or past).</summary>
        public static StorageTestException TooSoon(DateTime startAt) =>
            new StorageTestException(ErrorCodes.StartTimeOutOfRange,
                $"StartAtUtc {UtcTime.Iso(startAt)} is less than {MinimumNotice.TotalSeconds:0} seconds away (or past): the hosts could not all be started in time.", startAt);

        /// <summary>
        /// Checks every host at once: its facts and this module there (a copy reused, or made after the host's question),
        /// its name in the run (unique, in the order the hosts were given), its clock skew and its engine's plan of its own
        /// paths. Returns the hosts that passed, in the order given.
        /// </summary>
        private List<RemoteHost> Prepare(MailboxProfile profile, string activity)
        {
            var clock = System.Diagnostics.Stopwatch.StartNew();
            var hosts = _hosts.Where(h => !h.Failed).ToList();
            Version version = _module.Version;
            OnEveryHost(hosts, activity, "Checking", (host, say) =>
            {
                HostFacts facts = host.Connection!.Inspect(version, null);
                // Not installed: a copy made earlier (by an earlier run of this build, or another session to this host) is reused.
                if (facts.ModuleBase == null && facts.ModuleError == null) facts = host.Connection.Inspect(version, _module.RemoteManifest(facts));
                host.Facts = facts;
            });
            NameFaultScriptHost();
            hosts = hosts.Where(h => !h.Failed).ToList();
            var copies = new HashSet<RemoteHost>();
            int progressId = 1;
            foreach (RemoteHost host in hosts)
            {
                Name(host);
                host.ProgressId = ++progressId;
                if (host.Facts!.ModuleBase != null || host.Facts.ModuleError != null) continue;
                // The question is the command's, asked on its thread, one host at a time.
                Attempt(host, () => _module.Confirm(_output, host.Facts, host.Label));
                if (!host.Failed) copies.Add(host);
            }
            hosts = hosts.Where(h => !h.Failed).ToList();
            OnEveryHost(hosts, activity, "Preparing", (host, say) =>
            {
                IHostConnection connection = host.Connection!;
                if (copies.Contains(host))
                {
                    say($"Copying ExchStorageTest {version} and its engine for {host.Facts!.RuntimeId} to {host.Label}.");
                    _module.CopyTo(connection, host.Facts);
                    host.Facts = connection.Inspect(version, _module.RemoteManifest(host.Facts));
                    host.Facts.ModuleCopied = true;
                }
                HostFacts facts = host.Facts!;
                if (facts.ModuleBase == null)
                    throw new StorageTestException(ErrorCodes.ModuleNotAvailable, $"ExchStorageTest {version} cannot be used on the host: {facts.ModuleError ?? "the module could not be found or loaded"}", host.Name);
                if (facts.EnginePath == null)
                    throw new StorageTestException(ErrorCodes.EngineNotAvailable, $"ExchStorageTest {version} on the host ('{facts.ModuleBase}') has no engine for its platform ({facts.RuntimeId}). Install the engine there, or the full module.", host.Name);
                host.Skew = connection.MeasureSkew();
                host.Plan = Plan(host, ForHost(profile, host));
                say($"{host.Label}: machine {facts.ComputerName} ({{host}} in its paths is '{host.Key}'), PowerShell {facts.PSVersion}, module at '{facts.ModuleBase}'{(facts.ModuleCopied ? " (copied by this run)" : "")}; " +
                    $"clock skew {host.Skew}; {PreparationEstimate.Describe(host.Plan)}.");
            });
            var ready = hosts.Where(h => !h.Failed).ToList();
            _output.Verbose(string.Format(CultureInfo.InvariantCulture, "Checked {0} at once in {1:0.0} s (module{2}, machine name, clock, plan): {3} ready.",
                Wording.Count(hosts.Count, "host"), clock.Elapsed.TotalSeconds, copies.Count > 0 ? $", copied to {copies.Count}" : "", ready.Count));
            return ready;
        }

        /// <summary>
        /// A fault script runs on one host only: the first given (-ComputerName, -Session), by the machine name it reports
        /// (its engine compares it with its own), or by the name given when it could not be asked. Every host gets the
        /// window; the plans and runs that follow carry the name in every host's request.
        /// </summary>
        private void NameFaultScriptHost()
        {
            if (_settings.FaultScript == null || _hosts.Count == 0) return;
            RemoteHost first = _hosts[0];
            _hostSettings = _hostSettings.With(RunSetting.FaultScriptHost, first.ComputerName);
            if (first.Failed)
                _output.Warning($"The fault script '{_settings.FaultScript}' runs on the first host only, '{first.Label}', which failed: no host starts it, and every other host judges the window as declared.");
            else
                _output.Verbose($"The fault script '{_settings.FaultScript}' runs on the first host only, '{first.ComputerName}'; every host judges the window.");
        }

        /// <summary>
        /// Names a checked host by the machine name it reports, unique in the run in the order the hosts were given: a
        /// second session to one machine is &lt;name&gt;-2, never the address (which the user cannot prepare folders for).
        /// </summary>
        private void Name(RemoteHost host)
        {
            string key = SharedResults.SafeName(host.ComputerName);
            string unique = key;
            for (int n = 2; !_keys.Add(unique); n++) unique = key + "-" + n;
            host.Key = unique;
        }

        /// <summary>The host's engine plans its own paths, over the channel a run uses; an error it reports (even one it went on after) fails the host.</summary>
        private JsonObject Plan(RemoteHost host, MailboxProfile hostProfile)
        {
            using (var channel = new HostChannel(host.Connection!.OpenLink(), _timing.Silence))
            {
                channel.Open(JsonWriter.Write(_hostSettings.ToRequest(HelperCommands.Plan, hostProfile)));
                DateTime deadline = DateTime.UtcNow + PlanTimeout;
                while (!channel.Ended)
                {
                    if (_output.Stopping) throw new PipelineStoppedException();
                    if (DateTime.UtcNow > deadline) throw new TimeoutException($"its engine did not plan within {PlanTimeout}.");
                    channel.Changed.WaitOne(Poll);
                    channel.Take();
                }
                channel.Take();
                channel.CloseAndWait(EngineProcess.StopGrace);
                JsonObject? plan = channel.ReceivedOf(EventTypes.Plan).FirstOrDefault();
                JsonObject? error = channel.ReceivedOf(EventTypes.Error).LastOrDefault();
                if (channel.Lost != null) throw new InvalidOperationException(channel.Lost, channel.LostBy);
                EngineEnd end = channel.Judge(answered: plan != null);
                if (error != null || (end != EngineEnd.Ran && end != EngineEnd.Unanswered)) throw EngineRecords.Error(error, channel.ExitCode ?? EngineExit.DidNotExit, channel.ErrorTail ?? "");
                return plan ?? throw new StorageTestException(ErrorCodes.PlanMissing, "its engine returned no plan.", host.Name);
            }
        }

        /// <summary>Opens the host's channel with a run request; a stop that came first starts nothing more.</summary>
        private void Open(RemoteHost host, JsonObject request)
        {
            Attempt(host, () =>
            {
                var channel = new HostChannel(host.Connection!.OpenLink(), _timing.Silence);
                lock (_gate)
                {
                    if (_stopped)
                    {
                        channel.Dispose();
                        throw new PipelineStoppedException();
                    }
                    host.Channel = channel;
                    channel.Open(JsonWriter.Write(request));
                }
            });
        }

        /// <summary>The hosts whose engine was started.</summary>
        private static List<RemoteHost> Running(IEnumerable<RemoteHost> hosts) => hosts.Where(h => h.Channel != null).ToList();

        /// <summary>
        /// Relays every host's events until <paramref name="until"/> holds or every engine has ended, with the run's status
        /// (given how many hosts finished) on its bar; a stop waits for each host to stop cleanly (a host that does not
        /// answer is not waited for forever).
        /// </summary>
        private void Wait(string activity, IReadOnlyList<RemoteHost> hosts, Func<bool> until, Func<int, string> status)
        {
            DateTime? stopDeadline = null;
            while (true)
            {
                int finished = 0;
                foreach (RemoteHost host in hosts)
                {
                    bool ended = host.Channel!.Ended;
                    Relay(host);
                    if (ended) finished++;
                }
                if (finished == hosts.Count || (!_output.Stopping && until())) break;
                if (_output.Stopping)
                {
                    stopDeadline = stopDeadline ?? DateTime.UtcNow + EngineProcess.StopGrace + TimeSpan.FromSeconds(30);
                    if (DateTime.UtcNow > stopDeadline) break;
                }
                else _output.Progress(new ProgressRecord(1, activity, status(finished)) { PercentComplete = hosts.Count == 0 ? 0 : 100 * finished / hosts.Count });
                WaitHandle[] pending = hosts.Where(h => !h.Channel!.Ended).Select(h => h.Channel!.Changed).Take(64).ToArray();
                if (pending.Length > 0) WaitHandle.WaitAny(pending, Poll);
            }
            if (_output.Stopping)
            {
                _output.WarnWhileStopping("ExchStorageTest: the multi-host run was stopped; each host judged and saved its partial result in its own results folder.");
                throw new PipelineStoppedException();
            }
        }

        /// <summary>
        /// A host's events since the last look, as a run on this computer writes them (<see cref="EngineRecords"/>), with
        /// the host's name on each message and its progress under its own bar; while the command stops, only read.
        /// </summary>
        private void Relay(RemoteHost host)
        {
            HostChannel channel = host.Channel!;
            bool wasEnded = channel.Ended;
            IReadOnlyList<JsonObject> events = channel.Take();
            // An engine that has exited needs no more input: its agent's pipeline ends, and the host's runspace is free.
            if (channel.ExitCode.HasValue) channel.Close();
            if (_output.Stopping) return;
            string name = host.Label;
            if (channel.EngineVersion != null && _announced.Add(channel))
                _output.Verbose($"{name}: ExchStorageTest engine {channel.EngineVersion} (process {channel.ProcessId}): {HelperCommands.Run}.");
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
                ProgressRecord record = EngineRecords.Progress(host.ProgressId, name, progress);
                record.ParentActivityId = 1;
                _output.Progress(record);
            }
            if (!wasEnded && channel.Ended)
                _output.Progress(new ProgressRecord(host.ProgressId, name, "Finished") { ParentActivityId = 1, RecordType = ProgressRecordType.Completed });
        }

        /// <summary>
        /// Each host's TestResult (its result event, mapped as a local run maps it) with its results JSON copied here; a
        /// host whose engine ended without a result, failed (exit 1 or 2, as a local run fails), or was lost, fails.
        /// </summary>
        private List<TestResult> Collect(IReadOnlyList<RemoteHost> hosts, MailboxProfile profile, string outputPath, string activity)
        {
            var collected = new List<RemoteHost>();
            foreach (RemoteHost host in hosts)
            {
                HostChannel channel = host.Channel!;
                // Its engine has ended: the agent's pipeline ends too, and the host's runspace is free for the copies back.
                channel.CloseAndWait(EngineProcess.StopGrace);
                channel.Take();
                JsonObject? result = channel.ReceivedOf(EventTypes.Result).LastOrDefault();
                var errors = channel.ReceivedOf(EventTypes.Error).ToList();
                EngineEnd end = channel.Judge(answered: result != null);
                if (channel.Lost != null || result == null || end == EngineEnd.Failed || end == EngineEnd.Lost)
                {
                    string reason = channel.Lost ?? (channel.EngineLost != null ? channel.EngineLost + "." + EngineSession.DescribeTail(channel.ErrorTail)
                        : end == EngineEnd.Unanswered && errors.Count == 0 ? "its engine ended without a result."
                        : EngineRecords.Error(errors.LastOrDefault(), channel.ExitCode ?? EngineExit.DidNotExit, channel.ErrorTail ?? "").Message);
                    _output.Error(host.Fail(reason, channel.LostBy));
                    continue;
                }
                // Errors the engine went on after: this host's warnings, as a local run's are non-terminating errors.
                foreach (JsonObject error in errors) _output.Warning($"{host.Label}: {error.GetString(EventFields.Error.Message)}");
                TestResult item = TestResult.FromEvent(result, profile.Name);
                item.ComputerName = host.ComputerName;
                item.Address = host.Address;
                item.RemoteResultsPath = item.ResultsPath;
                item.ClockSkewMs = host.Skew == null ? (double?)null : Math.Round(host.Skew.Skew.TotalMilliseconds, 1);
                host.Result = item;
                collected.Add(host);
            }
            // The results files come back from every host at once; one that cannot be copied fails its host (its results stay there).
            OnEveryHost(collected, activity, "Collecting results", (host, say) =>
            {
                TestResult item = host.Result!;
                string? remotePath = item.RemoteResultsPath;
                item.ResultsPath = null;
                if (remotePath == null) return;
                string folder = Path.Combine(outputPath, host.Key!);
                string localPath = Path.Combine(folder, remotePath.Split('\\', '/').Last());
                try
                {
                    Directory.CreateDirectory(folder);
                    host.Connection!.Fetch(remotePath, localPath);
                }
                catch (Exception ex) when (!(ex is PipelineStoppedException))
                {
                    host.Result = null;
                    throw new InvalidOperationException($"its results could not be copied back from '{remotePath}' (they are kept there): {ex.Message}", ex);
                }
                item.ResultsPath = localPath;
            });
            return collected.Where(h => !h.Failed && h.Result != null).Select(h => h.Result!).ToList();
        }

        /// <summary>The hosts' results, the aggregate (with every failed host's reason) and the run record.</summary>
        private void Finish(string runId, MailboxProfile profile, string outputPath, DateTime? startAt, double lead, List<TestResult> results)
        {
            DateTime? measureAt = startAt?.AddSeconds(lead);
            AggregateResult aggregate = Aggregate.Build(runId, startAt, measureAt, _hosts, results, Report(results, outputPath), outputPath);
            foreach (TestResult result in results) _output.Output(result);
            _output.Output(aggregate);
            try
            {
                Directory.CreateDirectory(outputPath);
                RunRecord.Write(outputPath, runId, startAt, measureAt, aggregate, profile, _hosts);
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                _output.Warning($"The run record could not be written to '{outputPath}': {ex.Message}. The results are there all the same.");
            }
        }

        /// <summary>The engine's report over the collected files (it merges them: rates summed, histograms merged), or null when it failed.</summary>
        private TestReport? Report(IReadOnlyList<TestResult> results, string outputPath)
        {
            string[] files = results.Select(r => r.ResultsPath).Where(p => p != null).Select(p => p!).ToArray();
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
        /// Runs <paramref name="work"/> on every host at once, each on a thread of its own (remote calls wait on the
        /// network, not the CPU), while this thread writes what they have to say and the progress. A failure fails its host
        /// only; a stop stops the command once every host's work has returned.
        /// </summary>
        private void OnEveryHost(IReadOnlyList<RemoteHost> hosts, string activity, string doing, Action<RemoteHost, Action<string>> work)
        {
            if (hosts.Count == 0) return;
            var said = new ConcurrentQueue<string>();
            var failures = new ConcurrentDictionary<RemoteHost, Exception>();
            int left = hosts.Count;
            using (var done = new ManualResetEvent(false))
            {
                foreach (RemoteHost host in hosts)
                {
                    var thread = new Thread(() =>
                    {
                        try
                        {
                            work(host, said.Enqueue);
                        }
                        catch (Exception ex)
                        {
                            failures[host] = ex;
                        }
                        finally
                        {
                            if (Interlocked.Decrement(ref left) == 0) done.Set();
                        }
                    }) { IsBackground = true, Name = "ExchStorageTest host " + host.Address };
                    thread.Start();
                }
                while (true)
                {
                    bool all = done.WaitOne(Poll);
                    while (said.TryDequeue(out string? message)) if (!_output.Stopping) _output.Verbose(message);
                    if (all) break;
                    if (!_output.Stopping)
                        _output.Progress(new ProgressRecord(1, activity, $"{doing} {Wording.Count(hosts.Count, "host")}: {hosts.Count - Volatile.Read(ref left)} done") { CurrentOperation = doing });
                }
            }
            if (_output.Stopping) throw new PipelineStoppedException();
            foreach (RemoteHost host in hosts)
                if (failures.TryGetValue(host, out Exception? failure)) _output.Error(host.Fail(Unwrapped(failure).Message, failure));
        }

        /// <summary>Runs <paramref name="step"/> for one host on the command's thread; any failure but a stop fails that host only.</summary>
        private void Attempt(RemoteHost host, Action step)
        {
            try
            {
                step();
            }
            catch (Exception ex) when (!(ex is PipelineStoppedException) && !_output.Stopping)
            {
                _output.Error(host.Fail(ex.Message, ex));
            }
        }

        /// <summary>The error itself, not the wrapper a remote call or a thread put around it.</summary>
        private static Exception Unwrapped(Exception ex) =>
            ex is InvalidOperationException && ex.InnerException is IContainsErrorRecord && ex.Message == ex.InnerException.Message ? ex.InnerException : ex;

        /// <summary>
        /// Ends what is still running on the hosts (the run failed part-way): each channel's input is closed, so its agent
        /// stops its engine, which saves what it measured; a host that does not finish in time is cut off.
        /// </summary>
        private void Release(IReadOnlyList<RemoteHost> hosts)
        {
            List<HostChannel> channels;
            lock (_gate)
            {
                _stopped = true;
                channels = hosts.Where(h => h.Channel != null).Select(h => h.Channel!).ToList();
            }
            foreach (HostChannel channel in channels) channel.Close();
            DateTime deadline = DateTime.UtcNow + TimeSpan.FromSeconds(10);
            foreach (HostChannel channel in channels)
            {
                TimeSpan left = deadline - DateTime.UtcNow;
                channel.CloseAndWait(left > TimeSpan.Zero ? left : TimeSpan.Zero);
                channel.Dispose();
            }
        }

        /// <summary>The profile with the host's paths ({host} replaced), every other setting the same.</summary>
        private static MailboxProfile ForHost(MailboxProfile profile, RemoteHost host) =>
            profile.WithPaths(profile.DatabasePaths.Select(host.ForHost).ToArray(), profile.LogPaths.Select(host.ForHost).ToArray());

        private string Describe(MailboxProfile profile, List<RemoteHost> hosts, string runId, DateTime? startAtUtc, TimeSpan prepare, double lead, string outputPath)
        {
            var text = new StringBuilder();
            text.AppendFormat(CultureInfo.InvariantCulture, "{0} storage test '{1}' on {2}, run {3}.", _settings.TestType, profile.Name, Wording.Count(hosts.Count, "host"), runId).AppendLine();
            text.AppendLine(startAtUtc.HasValue
                ? $"Start: {RunInstants.Describe(startAtUtc.Value, lead)}."
                : string.Format(CultureInfo.InvariantCulture, "Start: about {0:0} s after confirmation (the longest preparation estimate, at least {1:0} s; database creation assumed at {3:0} MB/s a host, a host not ready starts late and says so); measuring {2:0.###} s later on every host, after tuning and warm-up.",
                    prepare.TotalSeconds, PreparationEstimate.MinimumLead.TotalSeconds, lead, PreparationEstimate.AssumedMBPerSecond));
            if (IsCapacitySearch)
                text.AppendLine("One capacity search for the deployment: every host steps together. The first step measures after the warm-up on every host at once; each later step's " +
                    "mailbox count (the same on every host) is chosen from every host's verdict on the steps before, and every host measures it from one instant. " +
                    "A step passes for the deployment only when every host passed it; each host's results keep its own answer, the aggregate the deployment's.");
            text.AppendLine($"Results are collected in '{outputPath}'.");
            foreach (RemoteHost host in hosts)
            {
                text.AppendLine();
                text.AppendLine($"Host {host.Label} (clock skew {host.Skew}):");
                text.Append(TestPlanText.Describe(host.Plan, ForHost(profile, host), _hostSettings)).AppendLine();
            }
            return text.ToString().TrimEnd();
        }
    }

    /// <summary>
    /// The orchestrator's clock and waits: this computer's clock and the documented notices; the module's unit tests give
    /// a clock of their own and short waits, so a whole run of fake hosts takes milliseconds.
    /// </summary>
    internal sealed class OrchestratorTiming
    {
        public Func<DateTime> Now { get; set; } = () => DateTime.UtcNow;

        /// <summary>A start instant must leave this long to start every host.</summary>
        public TimeSpan MinimumNotice { get; set; } = MultiHostRun.MinimumNotice;

        /// <summary>How far ahead of its measuring instant (beyond settling) a capacity step is announced: the control line's trip to every host.</summary>
        public TimeSpan StepNotice { get; set; } = TimeSpan.FromSeconds(3);

        /// <summary>How long a host may leave the channel unanswered before it counts as lost.</summary>
        public TimeSpan Silence { get; set; } = HostChannel.DefaultSilence;
    }
}
