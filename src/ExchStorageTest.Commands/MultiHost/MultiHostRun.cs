using System.Collections.Generic;
using System.Collections;
using System.Globalization;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text;
using System.Threading;
using System;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Input;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;
using ExchStorageTest.Reports;
using ExchStorageTest.Runs;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// Invoke-StorageTest -ComputerName / -Session: one profile on several hosts at once, measured over one window.
    /// <list type="number">
    /// <item>Each host is checked: this module's version there (copied over when missing), the machine name it reports
    /// (its name in the run, and {host} in its paths), its clock skew against this computer, and its engine's plan for
    /// its own paths, which checks its folders and free space.</item>
    /// <item>One confirmation for the whole run.</item>
    /// <item>Two agreed instants: the load start, -StartAtUtc or now + the longest preparation estimate (at least 60 s),
    /// and the measuring start, the load start + the plans' lead (tuning budget, warm-up bound, settling). Each host
    /// gets them on its own clock (instant + its skew); its helper prepares, starts loading at the first and measures
    /// from the second, whatever its own tuning and warm-up took (docs/load-model.md).</item>
    /// <item>Every host runs the module's Invoke-StorageTest at once (asynchronously on its runspace), with one child
    /// progress bar per host.</item>
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

        private const string PlanScript = @"
param([string] $Request)
try { [ExchStorageTest.MultiHost.HostAgent]::Plan($Request) }
catch {
    $inner = $_.Exception.InnerException
    if ($inner -is [System.Management.Automation.IContainsErrorRecord]) { throw $inner.ErrorRecord }
    throw
}";

        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly RunSettings _settings;
        private readonly RunSettings _hostSettings;
        private readonly HostConnector _connector;
        private readonly ModuleCopy _module;
        private readonly object _gate = new object();
        private readonly List<HostRun> _runs = new List<HostRun>();
        private bool _stopped;

        public MultiHostRun(InvokeStorageTestCommand cmdlet, RunSettings settings, HostConnector connector, PSModuleInfo module)
        {
            _cmdlet = cmdlet;
            _settings = settings;
            _hostSettings = settings.ForRemoteHosts();
            _connector = connector;
            _module = new ModuleCopy(module);
        }

        /// <summary>Stops every host's test (from StopProcessing's thread); each host keeps its partial result.</summary>
        public void Stop()
        {
            lock (_gate)
            {
                _stopped = true;
                foreach (HostRun run in _runs) run.Stop();
            }
        }

        /// <param name="profile">The checked profile; its paths are the hosts' paths.</param>
        /// <param name="startAtUtc">-StartAtUtc (UTC), or null to choose the instant from the plans.</param>
        public void Run(MailboxProfile profile, DateTime? startAtUtc)
        {
            string runId = RunSettings.NewTestId();
            string outputPath = _settings.OutputPath ?? PathInput.Resolve(_cmdlet, "ExchStorageTest-" + runId);
            string activity = $"Multi-host storage test {runId}";
            if (File.Exists(outputPath))
                throw new StorageTestException(ErrorCodes.OutputPathIsFile, $"The output folder '{outputPath}' is a file: the hosts' results are collected in a folder.", outputPath);
            try
            {
                var hosts = _connector.Hosts.Where(h => !h.Failed).ToList();
                foreach (RemoteHost host in hosts)
                {
                    _cmdlet.WriteProgress(new ProgressRecord(1, activity, $"Checking {host.Label}") { CurrentOperation = "Checking hosts" });
                    Attempt(host, () => Check(host, profile));
                }
                hosts = hosts.Where(h => !h.Failed).ToList();
                if (hosts.Count == 0)
                {
                    // Nothing to run, but the user is owed the record of why (under -WhatIf nothing is written or returned).
                    if (!_cmdlet.WhatIfInEffect) Finish(runId, profile, outputPath, null, 0, new List<TestResult>());
                    return;
                }

                TimeSpan prepare = PreparationEstimate.Lead(hosts.Select(h => h.Plan).ToArray());
                double lead = IsCapacitySearch ? SearchLead(hosts) : hosts.Max(h => RunInstants.LeadSeconds(h.Plan));
                if (!_cmdlet.ShouldRun(Describe(profile, hosts, runId, startAtUtc, prepare, lead, outputPath),
                        $"Run a {_settings.TestType} storage test with profile '{profile.Name}' on {hosts.Count} host(s)? It creates the planned files on every host and loads their disks.",
                        "Invoke-StorageTest"))
                    return;

                DateTime startAt = startAtUtc ?? UtcTime.ToMilliseconds(DateTime.UtcNow + prepare);
                if (startAt < DateTime.UtcNow + MinimumNotice)
                    throw TooSoon(startAt);
                Directory.CreateDirectory(outputPath);
                _cmdlet.WriteVerbose($"Run {runId}: on this computer's clock, {RunInstants.Describe(startAt, lead)}; results are collected in '{outputPath}'.");

                if (IsCapacitySearch) Search(profile, hosts, startAt, activity);
                else
                {
                    Start(profile, hosts, startAt, lead);
                    DateTime measureAt = startAt.AddSeconds(lead);
                    Wait(activity, () => false, finished =>
                    {
                        // A new record each time: the host keeps the records it was given, so one must not be changed after it was written.
                        DateTime now = DateTime.UtcNow;
                        return now < startAt
                            ? string.Format(CultureInfo.InvariantCulture, "Preparing; all hosts start at {0} (in {1:0} s) and measure from {2}", UtcTime.Iso(startAt), (startAt - now).TotalSeconds, UtcTime.Iso(measureAt))
                            : now < measureAt
                            ? string.Format(CultureInfo.InvariantCulture, "Tuning and warming up; all hosts measure from {0} (in {1:0} s)", UtcTime.Iso(measureAt), (measureAt - now).TotalSeconds)
                            : $"{finished} of {_runs.Count} host(s) finished";
                    });
                }
                var results = new List<TestResult>();
                foreach (HostRun run in _runs)
                {
                    TestResult? result = Collect(run, profile, outputPath);
                    if (result != null) results.Add(result);
                }
                Finish(runId, profile, outputPath, startAt, lead, results);
            }
            finally
            {
                lock (_gate)
                {
                    foreach (HostRun run in _runs)
                    {
                        run.Stop();
                        run.Dispose();
                    }
                    _runs.Clear();
                }
                if (!_cmdlet.Stopping) _cmdlet.WriteProgress(new ProgressRecord(1, activity, "Finished") { RecordType = ProgressRecordType.Completed });
            }
        }

        /// <summary>The hosts' results, the aggregate (with every failed host's reason) and the run record.</summary>
        private void Finish(string runId, MailboxProfile profile, string outputPath, DateTime? startAt, double lead, List<TestResult> results)
        {
            DateTime? measureAt = startAt?.AddSeconds(lead);
            AggregateResult aggregate = Aggregate.Build(runId, startAt, measureAt, _connector.Hosts, results, Report(results, outputPath), outputPath);
            foreach (TestResult result in results) _cmdlet.WriteObject(result);
            _cmdlet.WriteObject(aggregate);
            try
            {
                Directory.CreateDirectory(outputPath);
                RunRecord.Write(outputPath, runId, startAt, measureAt, aggregate, profile, _connector.Hosts);
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                _cmdlet.WriteWarning($"The run record could not be written to '{outputPath}': {ex.Message}. The results are there all the same.");
            }
        }

        /// <summary>Refuses a -StartAtUtc too close to start every host in time (or past).</summary>
        public static StorageTestException TooSoon(DateTime startAt) =>
            new StorageTestException(ErrorCodes.StartTimeOutOfRange,
                $"StartAtUtc {UtcTime.Iso(startAt)} is less than {MinimumNotice.TotalSeconds:0} seconds away (or past): the hosts could not all be started in time.", startAt);

        /// <summary>Module (copied when missing), machine name, engine, clock skew and plan of one host.</summary>
        private void Check(RemoteHost host, MailboxProfile profile)
        {
            var runspace = host.Runspace!;
            HostFacts facts = HostFacts.Read(runspace, _cmdlet, _module.Version, null);
            host.Facts = facts;
            _connector.Name(host);
            if (facts.ModuleBase == null && facts.ModuleError == null)
            {
                // Not installed: a copy made earlier (by an earlier run of this build, or another session to this host) is reused.
                string copy = _module.RemoteManifest(facts);
                facts = HostFacts.Read(runspace, _cmdlet, _module.Version, copy);
                if (facts.ModuleBase == null && facts.ModuleError == null)
                {
                    _module.CopyTo(runspace, _cmdlet, facts, host.Label);
                    facts = HostFacts.Read(runspace, _cmdlet, _module.Version, copy);
                    facts.ModuleCopied = true;
                }
                host.Facts = facts;
            }
            if (facts.ModuleBase == null)
                throw new StorageTestException(ErrorCodes.ModuleNotAvailable, $"ExchStorageTest {_module.Version} cannot be used on the host: {facts.ModuleError ?? "the module could not be found or loaded"}",
                    host.Name);
            if (facts.EnginePath == null)
                throw new StorageTestException(ErrorCodes.EngineNotAvailable, $"ExchStorageTest {_module.Version} on the host ('{facts.ModuleBase}') has no engine for its platform ({facts.RuntimeId}). Install the engine there, or the full module.",
                    host.Name);
            host.Skew = ClockSkew.Measure(runspace, _cmdlet);

            string request = JsonWriter.Write(_hostSettings.ToRequest(HelperCommands.Plan, ForHost(profile, host)));
            var answer = RemoteCall.Invoke(runspace, _cmdlet, PlanScript, PlanTimeout, request);
            host.Plan = answer.Count > 0 ? JsonReader.Parse(answer[0].BaseObject?.ToString() ?? "") as JsonObject : null;
            if (host.Plan == null)
                throw new StorageTestException(ErrorCodes.PlanMissing, "its engine returned no plan.", host.Name);
            _cmdlet.WriteVerbose($"{host.Label}: machine {facts.ComputerName} ({{host}} in its paths is '{host.Key}'), PowerShell {facts.PSVersion}, module at '{facts.ModuleBase}'{(facts.ModuleCopied ? " (copied by this run)" : "")}; " +
                $"clock skew {host.Skew}; preparation about {PreparationEstimate.For(host.Plan).TotalSeconds:0} s.");
        }

        private void Start(MailboxProfile profile, List<RemoteHost> hosts, DateTime startAt, double lead)
        {
            int progressId = 1;
            foreach (RemoteHost host in hosts)
            {
                progressId++;
                Attempt(host, () =>
                {
                    // The host's engine derives the measuring start from the load start and the same settings: its lead is this one.
                    host.StartAtUtc = startAt + host.Skew!.Skew;
                    host.MeasureAtUtc = host.StartAtUtc.Value.AddSeconds(lead);
                    var run = HostRun.Test(host, progressId, Parameters(ForHost(profile, host), host.StartAtUtc.Value));
                    lock (_gate)
                    {
                        if (_stopped) throw new PipelineStoppedException();
                        _runs.Add(run);
                        run.Start();
                    }
                });
            }
        }

        /// <summary>
        /// Relays every host's progress and messages until <paramref name="until"/> holds or all have finished, with the run's
        /// status (given how many hosts finished) on its bar; a stop waits for each host to stop cleanly.
        /// </summary>
        private void Wait(string activity, Func<bool> until, Func<int, string> status)
        {
            DateTime? stopDeadline = null;
            while (true)
            {
                int finished = 0;
                foreach (HostRun run in _runs)
                {
                    if (!_cmdlet.Stopping) Relay(run);
                    if (!run.Done && run.IsFinished)
                    {
                        run.Complete();
                        if (!_cmdlet.Stopping)
                        {
                            Relay(run);
                            _cmdlet.WriteProgress(new ProgressRecord(run.ProgressId, run.Host.Label, "Finished") { ParentActivityId = 1, RecordType = ProgressRecordType.Completed });
                        }
                    }
                    if (run.Done) finished++;
                }
                if (finished == _runs.Count || (!_cmdlet.Stopping && until())) break;
                if (_cmdlet.Stopping)
                {
                    // Each host stops its helper cleanly; one that does not answer (a dropped connection) is not waited for forever.
                    stopDeadline = stopDeadline ?? DateTime.UtcNow + HelperProcess.StopGrace + TimeSpan.FromSeconds(30);
                    if (DateTime.UtcNow > stopDeadline) break;
                }
                if (!_cmdlet.Stopping)
                    _cmdlet.WriteProgress(new ProgressRecord(1, activity, status(finished)) { PercentComplete = 100 * finished / _runs.Count });
                WaitHandle[] pending = _runs.Where(r => !r.Done && r.Finished != null).Select(r => r.Finished!).Take(64).ToArray();
                if (pending.Length > 0) WaitHandle.WaitAny(pending, Poll);
                else Thread.Sleep(Poll);
            }
            if (_cmdlet.Stopping)
            {
                _cmdlet.WarnWhileStopping("ExchStorageTest: the multi-host run was stopped; each host judged and saved its partial result in its own results folder.");
                throw new PipelineStoppedException();
            }
        }

        /// <summary>A host's records since the last look, under its own progress bar and with its name on its messages.</summary>
        private void Relay(HostRun run)
        {
            string name = run.Host.Label;
            ProgressRecord? last = run.TakeProgress().LastOrDefault(p => p.RecordType != ProgressRecordType.Completed);
            if (last != null)
            {
                _cmdlet.WriteProgress(new ProgressRecord(run.ProgressId, name, string.IsNullOrWhiteSpace(last.StatusDescription) ? "Running" : last.StatusDescription)
                {
                    ParentActivityId = 1,
                    CurrentOperation = last.CurrentOperation,
                    PercentComplete = Math.Max(-1, Math.Min(100, last.PercentComplete)),
                    SecondsRemaining = last.SecondsRemaining,
                });
            }
            foreach (WarningRecord warning in run.TakeWarnings()) _cmdlet.WriteWarning($"{name}: {warning.Message}");
            foreach (VerboseRecord verbose in run.TakeVerbose()) _cmdlet.WriteVerbose($"{name}: {verbose.Message}");
        }

        /// <summary>The host's TestResult with its results JSON copied here, or null when the host failed.</summary>
        private TestResult? Collect(HostRun run, MailboxProfile profile, string outputPath)
        {
            RemoteHost host = run.Host;
            TestResult? result = run.Result(profile.Name);
            if (result == null)
            {
                ErrorRecord? error = run.Errors.FirstOrDefault();
                string reason = run.Failure?.Message ?? error?.Exception?.Message ?? "it returned no result.";
                _connector.Fail(host, reason, run.Failure ?? error?.Exception);
                return null;
            }
            foreach (ErrorRecord error in run.Errors) _cmdlet.WriteWarning($"{host.Label}: {error.Exception?.Message ?? error.ToString()}");

            string? remotePath = result.ResultsPath;
            string? localPath = null;
            if (remotePath != null)
            {
                string folder = Path.Combine(outputPath, host.Key!);
                localPath = Path.Combine(folder, remotePath.Split('\\', '/').Last());
                try
                {
                    Directory.CreateDirectory(folder);
                    RemoteFiles.Fetch(host.Runspace!, _cmdlet, remotePath, localPath);
                }
                catch (Exception ex) when (!(ex is PipelineStoppedException))
                {
                    _connector.Fail(host, $"its results could not be copied back from '{remotePath}' (they are kept there): {ex.Message}", ex);
                    return null;
                }
            }
            result.ProfileName = profile.Name;
            result.ComputerName = host.ComputerName;
            result.Address = host.Address;
            result.ResultsPath = localPath;
            result.RemoteResultsPath = remotePath;
            result.ClockSkewMs = host.Skew == null ? (double?)null : Math.Round(host.Skew.Skew.TotalMilliseconds, 1);
            host.Result = result;
            return result;
        }

        /// <summary>The engine's report over the collected files (it merges them: rates summed, histograms merged), or null when it failed.</summary>
        private TestReport? Report(IReadOnlyList<TestResult> results, string outputPath)
        {
            string[] files = results.Select(r => r.ResultsPath).Where(p => p != null).Select(p => p!).ToArray();
            if (files.Length == 0) return null;
            try
            {
                JsonObject? report = _cmdlet.RunHelper(ReportRequest.For(files, new string[0], null), "Merging the hosts' results").First(EventTypes.Report)?.Fields;
                return report == null ? null : TestReport.FromEvent(report);
            }
            catch (StorageTestException ex)
            {
                _cmdlet.WriteError(new StorageTestException(ErrorCodes.AggregateFailed, $"The per-host results were collected in '{outputPath}', but they could not be merged: {ex.Message}",
                    outputPath, ex).ErrorRecord);
                return null;
            }
        }

        /// <summary>Runs <paramref name="step"/> for one host; any failure but a stop fails that host only.</summary>
        private void Attempt(RemoteHost host, Action step)
        {
            try
            {
                step();
            }
            catch (Exception ex) when (!(ex is PipelineStoppedException) && !_cmdlet.Stopping)
            {
                _connector.Fail(host, ex.Message, ex);
            }
        }

        /// <summary>-Verbose was given here: the hosts' test logs are relayed too.</summary>
        private bool Verbose => _cmdlet.MyInvocation.BoundParameters.TryGetValue("Verbose", out object? verbose) && LanguagePrimitives.IsTrue(verbose);

        private static MailboxProfile ForHost(MailboxProfile profile, RemoteHost host)
        {
            var settings = new Hashtable(StringComparer.OrdinalIgnoreCase);
            foreach (var property in PSObject.AsPSObject(profile).Properties) settings[property.Name] = property.Value;
            settings["DatabasePaths"] = profile.DatabasePaths.Select(host.ForHost).ToArray();
            settings["LogPaths"] = profile.LogPaths.Select(host.ForHost).ToArray();
            return ProfileReader.Read(settings);
        }

        /// <summary>The host's Invoke-StorageTest parameters: the same settings, the host's profile and its start instant; -Force, since the run was confirmed here.</summary>
        private Hashtable Parameters(MailboxProfile hostProfile, DateTime hostStartAtUtc)
        {
            var parameters = new Hashtable(StringComparer.OrdinalIgnoreCase)
            {
                ["MailboxProfile"] = hostProfile,
                ["TestType"] = _hostSettings.TestType,
                ["ContinueOnError"] = _hostSettings.ContinueOnError,
                ["AllowBufferedIo"] = _hostSettings.AllowBufferedIo,
                ["NoCpuAffinity"] = _hostSettings.NoCpuAffinity,
                ["StartAtUtc"] = hostStartAtUtc,
                ["Force"] = true,
                ["Confirm"] = false,
            };
            // Only what was given: every other setting keeps the engine's default on the host too.
            if (_hostSettings.Thresholds != null)
            {
                var thresholds = new Hashtable(StringComparer.OrdinalIgnoreCase);
                foreach (var limit in _hostSettings.Thresholds) thresholds[limit.Key] = limit.Value;
                parameters["Thresholds"] = thresholds;
            }
            if (_hostSettings.DatabaseSource != null) parameters["DatabaseSource"] = _hostSettings.DatabaseSource;
            if (_hostSettings.SampleIntervalSeconds.HasValue) parameters["SampleIntervalSeconds"] = _hostSettings.SampleIntervalSeconds.Value;
            if (_hostSettings.LogFilesToReplay.HasValue) parameters["LogFilesToReplay"] = _hostSettings.LogFilesToReplay.Value;
            if (_hostSettings.CapacityPercent.HasValue) parameters["CapacityPercent"] = _hostSettings.CapacityPercent.Value;
            if (_hostSettings.Duration.HasValue) parameters["Duration"] = _hostSettings.Duration.Value;
            if (_hostSettings.Warmup.HasValue) parameters["Warmup"] = _hostSettings.Warmup.Value;
            if (_hostSettings.RestoreFromPath != null) parameters["RestoreFromPath"] = _hostSettings.RestoreFromPath;
            if (_hostSettings.ThreadCount.HasValue) parameters["ThreadCount"] = _hostSettings.ThreadCount.Value;
            if (_hostSettings.TargetRateIops.HasValue) parameters["TargetRateIops"] = _hostSettings.TargetRateIops.Value;
            if (Verbose) parameters["Verbose"] = true;
            return parameters;
        }

        private string Describe(MailboxProfile profile, List<RemoteHost> hosts, string runId, DateTime? startAtUtc, TimeSpan prepare, double lead, string outputPath)
        {
            var text = new StringBuilder();
            text.AppendFormat(CultureInfo.InvariantCulture, "{0} storage test '{1}' on {2} host(s), run {3}.", _settings.TestType, profile.Name, hosts.Count, runId).AppendLine();
            text.AppendLine(startAtUtc.HasValue
                ? $"Start: {RunInstants.Describe(startAtUtc.Value, lead)}."
                : string.Format(CultureInfo.InvariantCulture, "Start: about {0:0} s after confirmation (the longest preparation estimate, at least {1:0} s); measuring {2:0.###} s later on every host, after tuning and warm-up.",
                    prepare.TotalSeconds, PreparationEstimate.MinimumLead.TotalSeconds, lead));
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
}
