using System;
using System.Collections;
using System.Collections.Generic;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
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
                if (!bound.Contains(setting.Parameter)) continue;
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

        /// <summary>The engine's request for this profile; <paramref name="command"/> is plan or run (<see cref="HelperCommands"/>).</summary>
        public JsonObject ToRequest(string command, MailboxProfile profile, DateTime? startAtUtc = null, string? testId = null)
        {
            var request = HelperRequest.For(command)
                .Set(RequestFields.TestId, testId ?? RunIds.New(DateTime.UtcNow))
                .Set(RequestFields.Profile, profile.ToJson())
                .Set(RequestFields.TestType, TestType);
            foreach (RunSetting setting in RunSetting.All)
                if (setting != RunSetting.TestType && _given.TryGetValue(setting, out object? value)) request.Set(setting.Field, setting.ToRequest(value));
            if (startAtUtc.HasValue) request.Set(RequestFields.StartAtUtc, startAtUtc.Value.ToUniversalTime());
            return request;
        }
    }

    /// <summary>Ids of tests, suites and runs: they sort by time and are unique across hosts.</summary>
    internal static class RunIds
    {
        /// <summary>The UTC second of <paramref name="atUtc"/> + 8 random hex digits ("20261125-001000-1a2b3c4d").</summary>
        public static string New(DateTime atUtc) =>
            atUtc.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N").Substring(0, 8);
    }
}
