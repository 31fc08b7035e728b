using System;
using ExchStorageTest.Contract;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// A run's failure-mode settings in words, for -WhatIf, -Confirm and -Verbose (docs/failure-mode.md): the declared
    /// window, the stall limit, and where the fault script runs. The engine's defaults are named as such, so what is
    /// printed is what the engine will judge.
    /// </summary>
    internal static class FaultText
    {
        /// <summary>Where a run of this computer alone starts the script.</summary>
        public const string ThisComputer = "on this computer";

        /// <summary>
        /// The settings' window and stall limit, or null when the run declares neither (the default stall limit still
        /// names every stall). <paramref name="scriptWhere"/> says where the script runs when the settings name no host.
        /// </summary>
        public static string? Describe(RunSettings settings, string scriptWhere = ThisComputer)
        {
            string limit = settings.StallLimit is TimeSpan stall ? $"stall limit {stall}" : $"stall limit {Seconds(FaultRules.DefaultStallLimitSeconds)} (the default)";
            if (settings.FaultAt is not TimeSpan at)
                return settings.StallLimit.HasValue ? $"No fault window is declared; {limit}: a volume stalled longer than that fails the run." : null;
            string length = settings.FaultLength is TimeSpan given ? given.ToString() : $"{Seconds(FaultRules.DefaultFaultLengthSeconds)} (the default)";
            string text = $"Failure-mode window: {at} into the measured window, lasting at most {length}, recovery included (every host of a run measures it from the agreed measuring start); {limit}.";
            if (settings.FaultScript is string script)
                text += $" The fault script '{script}' starts at the window's start {Where(settings, scriptWhere)}; its output, exit code and times are kept in the results.";
            else if (settings.ReseedPath is null)
                text += " No fault script: cause the fault yourself at the window's start.";
            if (settings.ReseedPath is string spare)
                text += $" At the window's start a reseed streams a copy of the first database onto '{spare}' (a new file, removed when the seed ends), {ReseedRules.IoSizeBytes / 1024} KiB sequential reads and writes at {ReseedRules.TargetBytesPerSecond / 1048576:0.#} MB/s, until the copy is complete or the window ends.";
            return text;
        }

        /// <summary>Where the script runs: the run's named host, else <paramref name="scriptWhere"/>.</summary>
        public static string Where(RunSettings settings, string scriptWhere = ThisComputer) =>
            settings.FaultScriptHost is string host ? $"on the host '{host}' only" : scriptWhere;

        private static string Seconds(double seconds) => TimeSpan.FromSeconds(seconds).ToString();
    }
}
