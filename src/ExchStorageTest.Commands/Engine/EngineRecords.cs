using System;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// The engine's events as PowerShell records, one mapping for every reader of an engine's stream: a run on this
    /// computer (<see cref="EngineRun"/>) and every host of a multi-host run (<see cref="MultiHost.RemoteEngine"/>), whose
    /// records say which host they come from. Results are mapped by the output types themselves (TestResult.FromEvent).
    /// </summary>
    internal static class EngineRecords
    {
        /// <summary>A <c>log</c> event: Write-Warning for warnings; the test log (info) and verbose lines for -Verbose.</summary>
        public static void Log(IRunSink sink, JsonObject fields, string prefix = "")
        {
            string message = prefix + (fields.GetString(EventFields.Log.Message) ?? "");
            switch (fields.GetString(EventFields.Log.Level))
            {
                case EventFields.Log.Warning: sink.Warning(message); break;
                // Info lines are the run's test log (Jetstress's Test Log): what -Verbose is for, not the information stream, which nobody sees unasked.
                default: sink.Verbose(message); break;
            }
        }

        /// <summary>A <c>progress</c> event as a record of this activity: the phase and its live figures.</summary>
        public static ProgressRecord Progress(int activityId, string activity, JsonObject fields)
        {
            string phase = fields.GetString(EventFields.Progress.Phase) ?? "";
            string status = fields.GetString(EventFields.Progress.Status) ?? "";
            var record = new ProgressRecord(activityId, activity, string.IsNullOrEmpty(status) ? (phase.Length == 0 ? "Running" : phase) : $"{phase}: {status}")
            {
                CurrentOperation = phase,
            };
            double? percent = fields.GetNumber(EventFields.Progress.Percent);
            if (percent.HasValue) record.PercentComplete = (int)Math.Max(0, Math.Min(100, Math.Round(percent.Value)));
            double? eta = fields.GetNumber(EventFields.Progress.EtaSeconds);
            if (eta.HasValue) record.SecondsRemaining = (int)Math.Min(int.MaxValue, Math.Max(0, Math.Round(eta.Value)));
            return record;
        }

        /// <summary>
        /// An <c>error</c> event as the module's error, its code as ErrorId; without one, the engine's exit code (EngineExit.DidNotExit: it
        /// did not exit when asked to stop) and the end of what it wrote to standard error say what happened.
        /// </summary>
        public static StorageTestException Error(JsonObject? error, int exit, string stderr, string prefix = "")
        {
            if (error == null)
                return new StorageTestException(ErrorCodes.EngineFailed,
                    $"{prefix}The ExchStorageTest engine {(exit == EngineExit.DidNotExit ? "did not exit after it was asked to stop" : $"exited with code {exit} without an error event")}. {stderr}".Trim(),
                    null);
            string code = error.GetString(EventFields.Error.Code) ?? "";
            if (code.Length == 0) code = ErrorCodes.EngineError.Code;
            string message = error.GetString(EventFields.Error.Message) ?? "";
            if (message.Length == 0) message = $"The engine reported error '{code}' without a message.";
            return StorageTestException.FromEngine(code, prefix + message, error.GetString(EventFields.Error.Category), error[EventFields.Error.Target]);
        }
    }
}
