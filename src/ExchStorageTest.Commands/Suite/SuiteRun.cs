using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text;
using System;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Jobs;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;
using ExchStorageTest.Reports;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Suite
{
    /// <summary>
    /// Invoke-StorageTest -TestType EsrpSuite on one host: Performance, Stress (with its checksum pass),
    /// DatabaseBackup and SoftRecovery in ESRP order on one database set — the first test creates (or restores)
    /// it, the others attach to it — each into its own folder of the suite folder, with the state file
    /// (<see cref="SuiteState"/>) saved before and after each test. A re-run resumes with the first test that did
    /// not complete. When all four have, the engine's report makes the ESRP document of the suite folder.
    /// The suite lives in the module, not the engine: each of its tests is an ordinary run, so a multi-host suite
    /// keeps its hosts in step test by test with the same start instants a single test uses.
    /// </summary>
    internal sealed class SuiteRun
    {
        /// <summary>Invoke-StorageTest -TestType's name for the suite (not one of the engine's test types: the suite is the module's).</summary>
        public const string TestTypeName = "EsrpSuite";

        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly RunSettings _settings;
        private readonly TimeSpan? _stressDuration;
        private readonly SuiteStartFile? _startFile;

        /// <param name="cmdlet">The Invoke-StorageTest that runs the suite.</param>
        /// <param name="settings">The checked settings; TestType EsrpSuite, OutputPath the suite folder (or null).</param>
        /// <param name="stressDuration">-StressDuration: Stress's window when it differs from -Duration.</param>
        /// <param name="startFile">-StartFile: the hosts of the suite meet on a share and start each test together; null: this host alone.</param>
        public SuiteRun(InvokeStorageTestCommand cmdlet, RunSettings settings, TimeSpan? stressDuration, SuiteStartFile? startFile = null)
        {
            _cmdlet = cmdlet;
            _settings = settings;
            _stressDuration = stressDuration;
            _startFile = startFile;
        }

        /// <summary>The suite folder: -OutputPath, else &lt;first database path&gt;/Results/EsrpSuite (where a re-run finds it again).</summary>
        public static string Folder(RunSettings settings, MailboxProfile profile)
        {
            if (settings.OutputPath != null) return settings.OutputPath;
            if (profile.DatabasePaths.Length == 0)
                throw new StorageTestException(ErrorCodes.DatabasePathRequired, $"Profile '{profile.Name}' names no database path, so the suite has no folder: give -DatabasePath or -OutputPath.", profile.Name);
            return Path.Combine(profile.DatabasePaths[0], "Results", TestTypeName);
        }

        public void Run(MailboxProfile profile, bool asJob)
        {
            string folder = Folder(_settings, profile);
            JsonObject profileJson = profile.ToJson();
            SuiteState? existing = SuiteState.Read(folder);
            existing?.CheckProfile(profileJson);
            SuiteState state = existing ?? SuiteState.New(folder, profileJson);
            SuiteTest? next = state.Next;
            if (next == null)
            {
                _cmdlet.WriteWarning($"The ESRP suite in '{folder}' is complete: no test ran. Give -OutputPath a new folder to run another suite.");
                _cmdlet.WriteObject(Result(state, profile, Document(state, (request, activity) => _cmdlet.RunEngine(request, activity))));
                return;
            }

            RunSettings first = ForTest(next, state, folder);
            // The plan checks the folder the user gave by the engine's rule (it or its parent exists); each test's own
            // folder inside it is made when the suite starts, after ShouldProcess.
            JsonObject? plan = _cmdlet.RunEngine(first.With(RunSetting.OutputPath, _settings.OutputPath).ToRequest(EngineCommands.Plan, profile), $"Planning the {next.TestType} test of the ESRP suite '{profile.Name}'").First(EventTypes.Plan)?.Fields;
            string description = Describe(state, next, folder) + Environment.NewLine + TestPlanText.Describe(plan, profile, first);
            if (_startFile != null)
                description += Environment.NewLine + $"Start instants: every test starts with the other hosts of the run folder '{_startFile.RunFolder}'; results are shared there.";
            if (!_cmdlet.ShouldRun(description, $"Run the ESRP suite with profile '{profile.Name}' in '{folder}'? Its tests load the disks for hours with the ESRP durations.", "Invoke-StorageTest"))
                return;

            Directory.CreateDirectory(folder);
            if (existing == null) state.Save();
            else _cmdlet.WriteVerbose($"Resuming the ESRP suite in '{folder}' with {next.TestType} (test {next.Step} of {state.Tests.Count}).");

            if (asJob)
            {
                var job = new StorageTestJob(_cmdlet.MyInvocation.Line, $"ExchStorageTest-EsrpSuite-{profile.Name}", (run, sink) =>
                {
                    EngineOutcome RunTest(JsonObject request, string activity) => run.Run(request, activity, 1, sink);
                    bool finished = Execute(state, profile, plan, sink, RunTest, () => run.StopRequested);
                    return new object[] { Result(state, profile, finished ? Document(state, RunTest) : null) };
                });
                _cmdlet.JobRepository.Add(job);
                job.Start();
                _cmdlet.WriteObject(job);
                return;
            }

            bool complete = Execute(state, profile, plan, _cmdlet, (request, activity) => _cmdlet.RunEngine(request, activity, beforeStop: outcome => Record(state, outcome)), () => _cmdlet.Stopping);
            _cmdlet.WriteObject(Result(state, profile, complete ? Document(state, (request, activity) => _cmdlet.RunEngine(request, activity)) : null));
        }

        /// <summary>
        /// Runs every test that did not complete, in order, each through <paramref name="runTest"/> (the command's or
        /// the job's engine run). Returns true when all four completed, false when a stop came between tests. A stop
        /// during a test is recorded (its partial result, state Stopped) and ends the suite. <paramref name="plan"/>
        /// is the engine's plan of the first test to run: its preparation sets how far ahead a start file's instant lies.
        /// </summary>
        private bool Execute(SuiteState state, MailboxProfile profile, JsonObject? plan, IRunSink sink, Func<JsonObject, string, EngineOutcome> runTest, Func<bool> stopRequested)
        {
            string folder = state.Folder;
            while (state.Next is SuiteTest test)
            {
                if (stopRequested())
                {
                    if (sink.CanWrite) sink.Warning($"The ESRP suite stopped before {test.TestType}. Run the same command again to resume with it.");
                    return false;
                }
                RunSettings settings = ForTest(test, state, folder);
                Directory.CreateDirectory(settings.OutputPath!);
                // With the other hosts: every one ready, one instant (before the test counts as started).
                var agreed = _startFile?.AgreeStart(state, test, plan);
                plan = null;
                string testId = RunIds.New(DateTime.UtcNow);
                test.State = SuiteTest.Running;
                test.Result = null;
                test.TestId = testId;
                test.ResultsPath = null;
                test.Message = null;
                test.DurationSeconds = settings.Duration?.TotalSeconds;
                test.StartedUtc = DateTime.UtcNow;
                test.EndedUtc = null;
                state.Save();
                EngineOutcome outcome;
                try
                {
                    if (sink.CanWrite) sink.Information($"ESRP suite '{profile.Name}': test {test.Step} of {state.Tests.Count}, {test.TestType} ({testId}) ...");
                    outcome = runTest(settings.ToRequest(EngineCommands.Run, profile, agreed?.StartAtUtc, testId, agreed?.RunId), $"ESRP suite '{profile.Name}': {test.Step}/{state.Tests.Count} {test.TestType} ({testId})");
                }
                catch (StorageTestException ex)
                {
                    Ended(state, test, SuiteTest.Error, ex.Message);
                    throw;
                }
                catch (PipelineStoppedException)
                {
                    // Stopped before the engine reported (a stop between tests lands here too): not Running any more.
                    if (test.State == SuiteTest.Running) Ended(state, test, SuiteTest.Stopped, "stopped before the engine produced a result");
                    throw;
                }
                Record(state, outcome);
                Share(test, sink);
                if (!sink.CanWrite) return false;
                sink.Information($"ESRP suite '{profile.Name}': {test.TestType} {test.Result} ({test.State}). Results: {test.ResultsPath}");
                if (test.State != SuiteTest.Complete)
                {
                    sink.Warning($"The ESRP suite stopped: {test.TestType} ended {test.State}. Run the same command again to run {test.TestType} again and go on.");
                    return false;
                }
            }
            return true;
        }

        /// <summary>
        /// This host's results of a test onto the share of a start-file suite. A share that fails loses nothing: the
        /// results stay in the suite folder, the error says where.
        /// </summary>
        private void Share(SuiteTest test, IRunSink sink)
        {
            if (_startFile == null || test.ResultsPath == null) return;
            try
            {
                string shared = _startFile.Share(test);
                if (sink.CanWrite) sink.Verbose($"{test.TestType} results shared as '{shared}'.");
            }
            catch (StorageTestException ex)
            {
                if (sink.CanWrite) sink.Error(ex.ErrorRecord);
            }
        }

        private static void Ended(SuiteState state, SuiteTest test, string how, string message)
        {
            test.State = how;
            test.Message = message;
            test.EndedUtc = DateTime.UtcNow;
            state.Save();
        }

        /// <summary>The running test's outcome into the state file: the engine's result event, or Error without one.</summary>
        private static void Record(SuiteState state, EngineOutcome outcome)
        {
            SuiteTest? test = state.Tests.FirstOrDefault(t => t.State == SuiteTest.Running);
            if (test == null) return;
            JsonObject? result = outcome.First(EventTypes.Result)?.Fields;
            test.EndedUtc = DateTime.UtcNow;
            if (result == null)
            {
                test.State = outcome.Stopped ? SuiteTest.Stopped : SuiteTest.Error;
                test.Message = outcome.Stopped ? "stopped before the engine produced a result" : "the engine produced no result";
            }
            else
            {
                string completion = result.GetString(EventFields.Result.Completion) ?? SuiteTest.Complete;
                test.State = completion == Completions.Complete ? SuiteTest.Complete : completion == Completions.Stopped ? SuiteTest.Stopped : SuiteTest.Failed;
                test.Result = result.GetString(EventFields.Result.Verdict);
                string? path = result.GetString(EventFields.Result.ResultsPath);
                test.ResultsPath = string.IsNullOrEmpty(path) ? null : path;
            }
            state.Save();
        }

        /// <summary>
        /// One test's settings: the first test of the suite uses -DatabaseSource (Create unless told), every later
        /// one attaches to the set it made; each test gets its own thresholds, duration and folder.
        /// </summary>
        private RunSettings ForTest(SuiteTest test, SuiteState state, string folder)
        {
            bool first = test.Step == 1;
            TimeSpan? duration = test.TestType == nameof(TestType.Performance) ? _settings.Duration
                : test.TestType == nameof(TestType.Stress) ? _stressDuration ?? _settings.Duration
                : null;
            // Every other setting is the user's, as given; each test's engine applies the thresholds to its own preset (Stress is Lenient).
            return _settings
                .With(RunSetting.TestType, test.TestType)
                .With(RunSetting.DatabaseSource, first ? _settings.DatabaseSource : nameof(DatabaseSource.Attach))
                .With(RunSetting.RestoreFromPath, first ? _settings.RestoreFromPath : null)
                .With(RunSetting.Duration, duration)
                .With(RunSetting.OutputPath, Path.Combine(folder, test.Folder));
        }

        /// <summary>The suite for ShouldProcess and -WhatIf: where it goes, each test with its state and length.</summary>
        private string Describe(SuiteState state, SuiteTest next, string folder)
        {
            var text = new StringBuilder();
            text.Append($"ESRP suite in '{folder}' ({(File.Exists(state.Path) ? "resuming" : "new")}):");
            foreach (var t in state.Tests)
            {
                var type = (TestType)Enum.Parse(typeof(TestType), t.TestType);
                TimeSpan? d = type == TestType.Performance ? _settings.Duration : type == TestType.Stress ? _stressDuration ?? _settings.Duration : null;
                string length = type == TestType.DatabaseBackup ? "until every database is read"
                    : type == TestType.SoftRecovery ? $"until {_settings.LogFilesToReplay ?? RunDefaults.LogFilesToReplay} log files per database are replayed"
                    : d?.ToString() ?? $"{TimeSpan.FromSeconds(RunDefaults.DurationSeconds(type))} (ESRP)";
                string status = t.State == SuiteTest.Complete ? $"done: {t.Result}" : ReferenceEquals(t, next) ? "next" : "to run";
                text.AppendLine();
                text.Append($"  {t.Step}. {t.TestType,-15} {length,-45} {status}");
            }
            return text.ToString();
        }

        /// <summary>
        /// The ESRP document of the completed suite: the engine's report of every results file in the suite folder, its
        /// files known by the kinds the engine gives them (text and HTML), and kept in the state file, so a complete suite
        /// run again returns the document it wrote instead of writing another.
        /// </summary>
        private static SuiteDocument Document(SuiteState state, Func<JsonObject, string, EngineOutcome> runTest)
        {
            if (state.Document is SuiteDocument kept && kept.Files.All(File.Exists)) return kept;
            EngineOutcome outcome = runTest(ReportRequest.For(new[] { state.Folder }, new[] { "EsrpHtml" }, null), "Writing the ESRP document");
            JsonObject? report = outcome.First(EventTypes.Report)?.Fields;
            var document = new SuiteDocument(
                report == null ? new string[0] : ReportFiles.OfKind(report, EventFields.Report.Reports, ReportKinds.SubmissionEsrp, ReportKinds.SubmissionEsrpHtml).ToArray(),
                report == null ? null : ReportFiles.OfKind(report, EventFields.Report.Reports, ReportKinds.SubmissionEsrpHtml).FirstOrDefault());
            if (document.Files.Length > 0)
            {
                state.Document = document;
                state.Save();
            }
            return document;
        }

        private static SuiteResult Result(SuiteState state, MailboxProfile profile, SuiteDocument? document) => new SuiteResult
        {
            ProfileName = profile.Name,
            SuiteId = state.SuiteId,
            ComputerName = Environment.MachineName,
            Path = state.Folder,
            ResultsPath = state.Folder,
            Tests = state.Tests.ToArray(),
            DocumentPath = document?.Html,
            ReportPath = document?.Files ?? Array.Empty<string>(),
        };
    }
}
