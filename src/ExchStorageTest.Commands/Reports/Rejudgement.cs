using System;
using System.Globalization;
using System.Linq;
using System.Text;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Reports
{
    /// <summary>
    /// Get-TestReport's re-judgement of stored runs (docs/failure-mode.md, "Re-judging without re-running"): another fault
    /// window, stall limit, thresholds or a sub-window of the measured window, sent as the report request's <c>rejudge</c>
    /// fields (docs/protocol.md). The engine judges every stored results file again with them and writes new files beside
    /// it, never over one. The lengths are checked here with the engine's rules (<see cref="FaultRules"/>) so a bad value
    /// is refused, naming it, before the request is sent; what depends on the stored run (a window outside it) is the
    /// engine's to refuse, before it writes anything.
    /// </summary>
    internal sealed class Rejudgement
    {
        public TimeSpan? FaultAt { get; set; }
        public TimeSpan? FaultLength { get; set; }
        public TimeSpan? StallLimit { get; set; }
        /// <summary>-Thresholds' overrides, as Invoke-StorageTest sends them.</summary>
        public JsonObject? Thresholds { get; set; }
        public TimeSpan? From { get; set; }
        public TimeSpan? To { get; set; }

        public void Check()
        {
            Refuse(FaultRules.FaultAt.Check(FaultAt?.TotalSeconds));
            Refuse(FaultRules.FaultLength.Check(FaultLength?.TotalSeconds));
            Refuse(FaultRules.StallLimit.Check(StallLimit?.TotalSeconds));
            if (From < TimeSpan.Zero)
                throw new StorageTestException(ErrorCodes.FaultWindowInvalid, $"From '{From}' is not valid: the sub-window starts at or after the measured window's start (00:00:00).", From);
            if (From.HasValue && To.HasValue && To <= From)
                throw new StorageTestException(ErrorCodes.FaultWindowInvalid, $"To '{To}' is not after From '{From}': give a sub-window of the measured window, From before To.", To);
            if (To <= TimeSpan.Zero)
                throw new StorageTestException(ErrorCodes.FaultWindowInvalid, $"To '{To}' is not valid: the sub-window ends after the measured window's start.", To);
        }

        private static void Refuse(Violation? bad)
        {
            if (bad != null) throw StorageTestException.From(bad);
        }

        /// <summary>The report request with the re-judgement's fields: only those given, the engine keeping the stored run's for the rest.</summary>
        public JsonObject Apply(JsonObject request)
        {
            request.Set(RequestFields.Rejudge, true);
            if (FaultAt.HasValue) request.Set(RequestFields.FaultAtSeconds, FaultAt.Value.TotalSeconds);
            if (FaultLength.HasValue) request.Set(RequestFields.FaultLengthSeconds, FaultLength.Value.TotalSeconds);
            if (StallLimit.HasValue) request.Set(RequestFields.StallLimitSeconds, StallLimit.Value.TotalSeconds);
            if (Thresholds != null) request.Set(RequestFields.Thresholds, Thresholds);
            if (From.HasValue) request.Set(RequestFields.WindowFromSeconds, From.Value.TotalSeconds);
            if (To.HasValue) request.Set(RequestFields.WindowToSeconds, To.Value.TotalSeconds);
            return request;
        }

        /// <summary>What is judged again, for -WhatIf and -Confirm.</summary>
        public string Describe()
        {
            var parts = new System.Collections.Generic.List<string>();
            if (FaultAt.HasValue)
                parts.Add($"the fault window from {FaultAt} into the measured window, lasting at most {FaultLength?.ToString() ?? TimeSpan.FromSeconds(FaultRules.DefaultFaultLengthSeconds) + " (the default)"}");
            else if (FaultLength.HasValue)
                parts.Add($"the run's own fault window, lasting at most {FaultLength}");
            if (StallLimit.HasValue) parts.Add($"stall limit {StallLimit}");
            if (Thresholds != null)
                parts.Add("thresholds " + string.Join(", ", Thresholds.Select(m => $"{m.Key} = {Convert.ToString(m.Value, CultureInfo.InvariantCulture)}")));
            if (From.HasValue || To.HasValue)
                parts.Add($"the sub-window {From ?? TimeSpan.Zero} to {To?.ToString() ?? "the measured window's end"} of the measured window");
            var text = new StringBuilder("Re-judge the stored runs with ");
            text.Append(string.Join("; ", parts)).Append(" (the stored run's own for the rest)");
            return text.ToString();
        }
    }
}
