using System.IO;
using System.Management.Automation;
using System;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Invoke-StorageTest -StartFile: one host of a run whose hosts cannot be remoted into, synchronised through a
    /// start file on a share. The first host to arrive creates the file (unless -StartFileTimeout says to wait for
    /// New-StorageTestRun to write it), every host reads the instant from it, its engine prepares and waits for that
    /// instant on this host's clock to start loading, and measures from the instant + the plan's lead, the same on
    /// every host given the same settings (<see cref="RunInstants"/>); the results JSON is copied to &lt;run&gt;/results
    /// without overwriting.
    /// </summary>
    internal sealed class StartFileRun
    {
        /// <summary>Where a start-file run's fault script runs, before the file is read (<see cref="RunStartFile.FaultScriptHost"/>).</summary>
        public const string ScriptWhere = "on the one host the start file names (New-StorageTestRun -FaultScriptComputerName; this computer if it creates the file)";

        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly RunSettings _settings;

        /// <summary>
        /// The settings this host's plan is made with, before it reads the start file: the engine checks the fault script
        /// only on the host that starts it, so the plan names that host when it is known already — the existing file's, or
        /// this computer when it will create the file — and leaves the script out when not (waiting for another's file).
        /// The run's own plan checks it again with the file's host before anything is written.
        /// </summary>
        public static RunSettings ForPlan(RunSettings settings, string startFile, TimeSpan? timeout)
        {
            if (settings.FaultScript == null) return settings;
            RunStartFile? existing = File.Exists(startFile) ? RunStartFile.TryRead(startFile, out _) : null;
            string? host = existing?.FaultScriptHost ?? (timeout == null ? Environment.MachineName : null);
            return host != null ? settings.With(RunSetting.FaultScriptHost, host) : settings.With(RunSetting.FaultScript, null);
        }

        public StartFileRun(InvokeStorageTestCommand cmdlet, RunSettings settings)
        {
            _cmdlet = cmdlet;
            _settings = settings;
        }

        /// <param name="profile">The checked profile.</param>
        /// <param name="startFile">The start file's absolute path.</param>
        /// <param name="plan">The engine's plan on this host: sets the instant when this host creates the file.</param>
        /// <param name="proposedStartAtUtc">-StartAtUtc: the instant this host writes if it creates the file.</param>
        /// <param name="timeout">-StartFileTimeout: wait this long for the file instead of creating it; null creates it.</param>
        public void Run(MailboxProfile profile, string startFile, JsonObject? plan, DateTime? proposedStartAtUtc, TimeSpan? timeout)
        {
            string runFolder = Path.GetDirectoryName(startFile) ?? "";
            if (runFolder.Length == 0 || !Directory.Exists(runFolder))
                throw new StorageTestException(ErrorCodes.StartFileFolderNotFound, $"The folder of the start file '{startFile}' does not exist (or the share cannot be reached).", startFile);

            if (timeout == null && !File.Exists(startFile))
            {
                DateTime proposed = UtcTime.ToMilliseconds(proposedStartAtUtc ?? DateTime.UtcNow + PreparationEstimate.Lead(plan));
                if (RunStartFile.TryCreate(startFile, RunIds.New(proposed), proposed, hostCount: null))
                    _cmdlet.WriteVerbose($"Created the start file '{startFile}': every host starts at {UtcTime.Iso(proposed)}.");
            }
            RunStartFile start = RunStartFile.Read(startFile, timeout ?? TimeSpan.Zero, _cmdlet);
            if (start.StartAtUtc <= DateTime.UtcNow)
                throw new StorageTestException(ErrorCodes.StartTimePassed,
                    $"The start instant {UtcTime.Iso(start.StartAtUtc)} in '{startFile}' has passed: this host would start late and measure a different window. Start the run again with a new start file (New-StorageTestRun).",
                    startFile);
            _cmdlet.WriteVerbose($"Run {start.RunId}: on this host's clock, {RunInstants.Describe(start.StartAtUtc, plan)} (keep the hosts' clocks synchronised with NTP).");

            // Every host judges the window; only the host the file names starts the script (its engine compares the name with its own).
            RunSettings settings = _settings.FaultScript != null ? _settings.With(RunSetting.FaultScriptHost, start.FaultScriptHost) : _settings;
            if (settings.FaultScript != null)
                _cmdlet.WriteVerbose($"Fault script '{settings.FaultScript}': the start file names '{start.FaultScriptHost}' to start it " +
                    (string.Equals(start.FaultScriptHost, Environment.MachineName, StringComparison.OrdinalIgnoreCase) ? "(this host)." : $"(not this host, {Environment.MachineName}: it only judges the window)."));
            JsonObject request = settings.ToRequest(EngineCommands.Run, profile, start.StartAtUtc, runId: RunIds.Plain(start.RunId));
            EngineOutcome outcome = _cmdlet.RunEngine(request, LocalRun.Activity(_settings.TestType, profile.Name));
            foreach (EngineEvent result in outcome.OfType(EventTypes.Result))
            {
                TestResult item = TestResult.FromEvent(result.Fields, profile.Name);
                // A share that fails now loses nothing: the result is still returned, with where it was saved here.
                try
                {
                    if (item.ResultsPath != null) item.SharedResultsPath = SharedResults.Copy(item.ResultsPath, runFolder, item.TestId);
                }
                catch (StorageTestException ex)
                {
                    _cmdlet.WriteError(ex.ErrorRecord);
                }
                _cmdlet.WriteObject(item);
            }
        }
    }
}
