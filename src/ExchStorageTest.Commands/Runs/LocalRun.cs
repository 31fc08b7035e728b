using System.Collections.Generic;
using System.Linq;
using System;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Jobs;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Invoke-StorageTest on this computer: the engine's plan (which checks every setting before anything is written),
    /// the question (-WhatIf, -Confirm) with the plan's files and instants, then the run in the foreground, in a
    /// background job (-AsJob), or as one host of a start-file run (<see cref="StartFileRun"/>). The ESRP suite
    /// (<see cref="Suite.SuiteRun"/>) and multi-host runs (<see cref="MultiHost.MultiHostRun"/>) are its siblings.
    /// </summary>
    internal sealed class LocalRun
    {
        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly RunSettings _settings;

        public LocalRun(InvokeStorageTestCommand cmdlet, RunSettings settings)
        {
            _cmdlet = cmdlet;
            _settings = settings;
        }

        /// <param name="profile">The checked profile.</param>
        /// <param name="startAt">-StartAtUtc (UTC), or null.</param>
        /// <param name="asJob">-AsJob: return a job that runs the test.</param>
        /// <param name="startFile">-StartFile (absolute) and -StartFileTimeout, or null.</param>
        public void Run(MailboxProfile profile, DateTime? startAt, bool asJob, (string Path, TimeSpan? Timeout)? startFile)
        {
            RunSettings planned = startFile != null ? StartFileRun.ForPlan(_settings, startFile.Value.Path, startFile.Value.Timeout) : _settings;
            JsonObject? plan = _cmdlet.RunEngine(planned.ToRequest(EngineCommands.Plan, profile, startAt), $"Planning storage test '{profile.Name}'").First(EventTypes.Plan)?.Fields;
            string description = TestPlanText.Describe(plan, profile, _settings, startFile != null ? StartFileRun.ScriptWhere : FaultText.ThisComputer);
            if (startFile != null) description += Environment.NewLine + $"Start instant: from the start file '{startFile.Value.Path}'; {RunInstants.Describe(plan)}.";
            else if (startAt.HasValue) description += Environment.NewLine + $"Start instant: {RunInstants.Describe(startAt.Value, plan)}.";
            if (!_cmdlet.ShouldRun(description, $"Run a {_settings.TestType} storage test with profile '{profile.Name}'? It creates the files listed and loads the disks.", "Invoke-StorageTest"))
                return;

            if (asJob)
            {
                JsonObject jobRequest = _settings.ToRequest(EngineCommands.Run, profile, startAt);
                var job = new StorageTestJob(_cmdlet.MyInvocation.Line, $"ExchStorageTest-{_settings.TestType}-{profile.Name}",
                    (run, sink) => InJob(run, sink, jobRequest, profile));
                _cmdlet.JobRepository.Add(job);
                job.Start();
                _cmdlet.WriteObject(job);
                return;
            }

            if (startFile != null)
            {
                new StartFileRun(_cmdlet, _settings).Run(profile, startFile.Value.Path, plan, startAt, startFile.Value.Timeout);
                return;
            }

            JsonObject request = _settings.ToRequest(EngineCommands.Run, profile, startAt);
            EngineOutcome outcome = _cmdlet.RunEngine(request, Activity(_settings.TestType, profile.Name));
            foreach (var result in outcome.OfType(EventTypes.Result))
                _cmdlet.WriteObject(TestResult.FromEvent(result.Fields, profile.Name));
        }

        /// <summary>A run on a background job's thread: the same engine run, with the job as the sink.</summary>
        private static IEnumerable<object> InJob(EngineRun run, IRunSink sink, JsonObject request, MailboxProfile profile)
        {
            EngineOutcome outcome = run.Run(request, Activity(request.GetString(RequestFields.TestType), profile.Name), 1, sink);
            if (run.StopRequested) sink.Warning(StorageTestCmdlet.StoppedMessage(outcome));
            return outcome.OfType(EventTypes.Result).Select(result => (object)TestResult.FromEvent(result.Fields, profile.Name)).ToList();
        }

        /// <summary>
        /// A run's progress activity: short, because PowerShell's minimal progress view gives the activity at most half
        /// the line and cuts the rest (a test id there was cut in half); the status and time remaining follow it.
        /// </summary>
        internal static string Activity(string? testType, string? profileName) => $"{testType} test '{profileName}'";
    }
}
