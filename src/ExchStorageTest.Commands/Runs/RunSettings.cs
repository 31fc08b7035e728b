using System;
using System.Collections;
using System.Collections.Generic;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Invoke-StorageTest's run settings as the user gave them (<see cref="RunSetting"/>: each declared once), and the
    /// request the engine gets for them (docs/protocol.md). Only the settings given go into the request: their defaults
    /// and every rule of their values are the engine's (its plan refuses a bad value before ShouldProcess asks, with the
    /// code a request gets for the same value). Paths are already absolute. Immutable: <see cref="With"/> makes the
    /// suite's per-test settings and a multi-host run's per-host settings, every other setting carried over.
    /// </summary>
    internal sealed class RunSettings
    {
        private readonly Dictionary<RunSetting, object> _given;

        private RunSettings(Dictionary<RunSetting, object> given) => _given = given;

        /// <summary>No setting given: the engine's defaults for everything.</summary>
        public static RunSettings None => new RunSettings(new Dictionary<RunSetting, object>());

        /// <summary>The settings among a command's bound parameters (by the declarations' parameter names).</summary>
        public static RunSettings FromParameters(IDictionary bound, Func<string, string> resolvePath)
        {
            var given = new Dictionary<RunSetting, object>();
            foreach (RunSetting setting in RunSetting.All)
            {
                if (setting.FromRun || !bound.Contains(setting.Parameter)) continue;
                object? value = setting.FromParameter(bound[setting.Parameter], resolvePath);
                if (value != null) given[setting] = value;
            }
            return new RunSettings(given);
        }

        /// <summary>These settings with one changed (null: not given, the engine's default).</summary>
        public RunSettings With(RunSetting setting, object? value)
        {
            var given = new Dictionary<RunSetting, object>(_given);
            if (value == null) given.Remove(setting);
            else given[setting] = value;
            return new RunSettings(given);
        }

        /// <summary>The value given for a setting, or null.</summary>
        public object? this[RunSetting setting] => _given.TryGetValue(setting, out object? value) ? value : null;

        public bool Has(RunSetting setting) => _given.ContainsKey(setting);

        /// <summary>The test type: given, else the engine's default (Performance), or the suite's EsrpSuite.</summary>
        public string TestType => this[RunSetting.TestType] as string ?? (string)RunSetting.TestType.EngineDefault!;
        public string? DatabaseSource => this[RunSetting.DatabaseSource] as string;
        public string? RestoreFromPath => this[RunSetting.RestoreFromPath] as string;
        public TimeSpan? Duration => this[RunSetting.Duration] as TimeSpan?;
        public TimeSpan? Warmup => this[RunSetting.Warmup] as TimeSpan?;
        public string? OutputPath => this[RunSetting.OutputPath] as string;
        public double? TargetRateIops => this[RunSetting.TargetRateIops] as double?;
        public int? LogFilesToReplay => this[RunSetting.LogFilesToReplay] as int?;
        public TimeSpan? FaultAt => this[RunSetting.FaultAt] as TimeSpan?;
        public TimeSpan? FaultLength => this[RunSetting.FaultLength] as TimeSpan?;
        public string? FaultScript => this[RunSetting.FaultScript] as string;
        public string? ReseedPath => this[RunSetting.ReseedPath] as string;
        public string? FaultScriptHost => this[RunSetting.FaultScriptHost] as string;
        public TimeSpan? StallLimit => this[RunSetting.StallLimit] as TimeSpan?;

        /// <summary>The engine's request for this profile; <paramref name="command"/> is plan or run (<see cref="EngineCommands"/>).</summary>
        /// <param name="command">plan or run.</param>
        /// <param name="profile">The profile to test.</param>
        /// <param name="startAtUtc">The agreed instant to start loading, or null to start at once.</param>
        /// <param name="testId">The test's id, or null for a new one.</param>
        /// <param name="runId">The run this test is one host of (a multi-host or start-file run: every host the same); the results record it, and only results of one run id merge into one deployment's aggregate.</param>
        public JsonObject ToRequest(string command, MailboxProfile profile, DateTime? startAtUtc = null, string? testId = null, string? runId = null)
        {
            var request = EngineRequest.For(command)
                .Set(RequestFields.TestId, testId ?? RunIds.New(DateTime.UtcNow))
                .Set(RequestFields.Profile, profile.ToJson())
                .Set(RequestFields.TestType, TestType);
            foreach (RunSetting setting in RunSetting.All)
                if (setting != RunSetting.TestType && _given.TryGetValue(setting, out object? value)) request.Set(setting.Field, setting.ToRequest(value));
            if (startAtUtc.HasValue) request.Set(RequestFields.StartAtUtc, startAtUtc.Value.ToUniversalTime());
            if (!string.IsNullOrEmpty(runId)) request.Set(RequestFields.RunId, runId);
            return request;
        }
    }

    /// <summary>Ids of tests, suites and runs: they sort by time and are unique across hosts.</summary>
    internal static class RunIds
    {
        /// <summary>The UTC second of <paramref name="atUtc"/> + 8 random hex digits ("20261125-001000-1a2b3c4d").</summary>
        public static string New(DateTime atUtc) =>
            atUtc.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N").Substring(0, 8);

        /// <summary>
        /// A start file's run id as a request's <c>runId</c>: ours are plain names; one a person wrote into the file by hand
        /// may not be, and is then made one (every host makes the same), so the hosts' results still share it.
        /// </summary>
        public static string? Plain(string? runId)
        {
            if (string.IsNullOrWhiteSpace(runId)) return null;
            string plain = System.Text.RegularExpressions.Regex.Replace(runId!.Trim(), "[^A-Za-z0-9._-]", "_").TrimStart('.', '_', '-');
            return plain.Length == 0 ? null : plain.Length > 64 ? plain.Substring(0, 64) : plain;
        }
    }
}
