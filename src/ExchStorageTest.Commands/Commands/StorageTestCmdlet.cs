using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Engine;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// What every command shares: the module's errors as terminating errors, paths resolved against the
    /// PowerShell location, and runs of the engine whose records go to the command's streams. A stop
    /// (Ctrl+C, PowerShell.Stop) asks the engine to stop cleanly: it judges and saves what it measured, and no
    /// engine outlives the command.
    /// </summary>
    public abstract class StorageTestCmdlet : PSCmdlet, IRunSink
    {
        private readonly EngineRun _run = new EngineRun();

        /// <summary>Runs <paramref name="body"/>, turning the module's own errors into terminating errors.</summary>
        protected void Guard(Action body)
        {
            try
            {
                body();
            }
            catch (StorageTestException ex)
            {
                ThrowTerminatingError(ex.ErrorRecord);
            }
        }

        protected string ResolvePath(string path) => PathInput.Resolve(this, path);

        /// <summary>
        /// ShouldProcess for commands with -Force: -Force runs without asking unless -Confirm is given;
        /// -WhatIf still only lists.
        /// </summary>
        internal bool ShouldRun(bool force, string description, string warning, string caption)
        {
            // -Confirm:$false (how a multi-host run starts each host's command) asks no more than leaving it out.
            bool confirm = MyInvocation.BoundParameters.TryGetValue("Confirm", out object? value) && LanguagePrimitives.IsTrue(value);
            if (force && !confirm && !WhatIfInEffect) return true;
            return ShouldProcess(description, warning, caption);
        }

        internal bool WhatIfInEffect =>
            MyInvocation.BoundParameters.TryGetValue("WhatIf", out object? whatIf) ? ((SwitchParameter)whatIf).IsPresent
                : LanguagePrimitives.IsTrue(SessionState.PSVariable.GetValue("WhatIfPreference"));

        protected override void StopProcessing() => _run.Stop();

        /// <summary>
        /// Runs the engine to its end with this command's streams as the sink (see <see cref="EngineRun"/>);
        /// <paramref name="beforeStop"/> sees the outcome before a stopped pipeline ends the command (an ESRP suite
        /// records its stopped test there).
        /// </summary>
        internal EngineOutcome RunEngine(JsonObject request, string activity, Action<EngineEvent>? onEvent = null, int activityId = 1, Action<EngineOutcome>? beforeStop = null)
        {
            EngineOutcome outcome;
            using (var console = ConsoleInterrupt.TryBegin())
                outcome = _run.Run(request, activity, activityId, this, onEvent, console);
            beforeStop?.Invoke(outcome);
            if (Stopping || _run.StopRequested) AnnounceStopped(outcome);
            return outcome;
        }

        /// <summary>
        /// PowerShell accepts no output from a stopped pipeline, so a stopped run's partial result is announced
        /// on the host (the one channel still open) with the path of its saved results.
        /// </summary>
        private void AnnounceStopped(EngineOutcome outcome)
        {
            string message = StoppedMessage(outcome);
            if (!Stopping)
            {
                WriteWarning(message);
                return;
            }
            WarnWhileStopping(message);
            throw new PipelineStoppedException();
        }

        /// <summary>A warning on the host's UI, the one channel a stopping pipeline still has.</summary>
        internal void WarnWhileStopping(string message)
        {
            try
            {
                Host.UI.WriteWarningLine(message);
            }
            catch (Exception ex) when (ex is PipelineStoppedException || ex is NotImplementedException || ex is NullReferenceException)
            {
                // A host without a UI: the results file is saved all the same.
            }
        }

        internal static string StoppedMessage(EngineOutcome outcome)
        {
            EngineEvent? result = outcome.First(EventTypes.Result);
            if (result == null) return "ExchStorageTest: the run was stopped before the engine reported a result.";
            string? path = result.Fields.GetString(EventFields.Result.ResultsPath);
            string? verdict = result.Fields.GetString(EventFields.Result.Verdict), completion = result.Fields.GetString(EventFields.Result.Completion);
            double? achieved = result.Fields.GetNumber(EventFields.Result.AchievedIops);
            return $"ExchStorageTest: the run was stopped; partial result {verdict}{(verdict == completion ? "" : $" ({completion})")}, " +
                   (achieved is double iops ? $"{iops:0.###} IOPS achieved" : "no transaction measured") + $". Results: '{path}'. Render them with: Get-TestReport -Path '{path}'";
        }

        bool IRunSink.CanWrite => !Stopping;
        void IRunSink.Verbose(string message) => WriteVerbose(message);
        void IRunSink.Information(string message) => WriteInformation(message, new[] { "ExchStorageTest" });
        void IRunSink.Warning(string message) => WriteWarning(message);
        void IRunSink.Progress(ProgressRecord record) => WriteProgress(record);
        void IRunSink.Error(ErrorRecord record) => WriteError(record);
    }
}
