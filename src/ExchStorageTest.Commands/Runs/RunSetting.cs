using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Input;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// One setting of a run as Invoke-StorageTest binds it: an entry of the contract's table (<see cref="RunSettingTable"/>:
    /// the parameter, the request field, the kind, the engine's default) and how its value is read from the parameter and
    /// written into the request. Binding (<see cref="RunSettings"/>), the request sent to the engine (here or on every host
    /// of a multi-host run) and the ESRP suite's per-test overrides go through <see cref="All"/>; a new setting is an
    /// entry of the table and a parameter of the cmdlet, nothing here.
    /// </summary>
    internal sealed class RunSetting : IEquatable<RunSetting>
    {
        private readonly RunSettingEntry _entry;

        private RunSetting(RunSettingEntry entry) => _entry = entry;

        /// <summary>Invoke-StorageTest's parameter.</summary>
        public string Parameter => _entry.Parameter!;

        /// <summary>The request field (<see cref="RequestFields"/>).</summary>
        public string Field => _entry.Field;

        public SettingKind Kind => _entry.Kind;

        /// <summary>Set by the run, not bound from Invoke-StorageTest (<see cref="RunSettingEntry.FromRun"/>).</summary>
        public bool FromRun => _entry.FromRun;

        /// <summary>What the engine applies when the request leaves the setting out (null: it depends on the test type or the plan).</summary>
        public object? EngineDefault => _entry.EngineDefault;

        /// <summary>The range a given value keeps (the engine's plan checks it too), or null.</summary>
        public NumberRule? Rule => _entry.Rule;

        // The settings the module itself names; every other one is only bound and sent.
        public static readonly RunSetting TestType = new RunSetting(RunSettingTable.TestType);
        public static readonly RunSetting DatabaseSource = new RunSetting(RunSettingTable.DatabaseSource);
        public static readonly RunSetting RestoreFromPath = new RunSetting(RunSettingTable.RestoreFromPath);
        public static readonly RunSetting Duration = new RunSetting(RunSettingTable.Duration);
        public static readonly RunSetting Warmup = new RunSetting(RunSettingTable.Warmup);
        public static readonly RunSetting OutputPath = new RunSetting(RunSettingTable.OutputPath);
        public static readonly RunSetting ThreadCount = new RunSetting(RunSettingTable.ThreadCount);
        public static readonly RunSetting TargetRateIops = new RunSetting(RunSettingTable.TargetRateIops);
        public static readonly RunSetting Thresholds = new RunSetting(RunSettingTable.Thresholds);
        public static readonly RunSetting ContinueOnError = new RunSetting(RunSettingTable.ContinueOnError);
        public static readonly RunSetting AllowBufferedIo = new RunSetting(RunSettingTable.AllowBufferedIo);
        public static readonly RunSetting NoCpuAffinity = new RunSetting(RunSettingTable.PinWorkerThreads);
        public static readonly RunSetting SampleIntervalSeconds = new RunSetting(RunSettingTable.SampleIntervalSeconds);
        public static readonly RunSetting LogFilesToReplay = new RunSetting(RunSettingTable.LogFilesToReplay);
        public static readonly RunSetting CapacityPercent = new RunSetting(RunSettingTable.CapacityPercent);
        public static readonly RunSetting CompressibilityPercent = new RunSetting(RunSettingTable.CompressibilityPercent);
        public static readonly RunSetting DuplicatePercent = new RunSetting(RunSettingTable.DuplicatePercent);
        public static readonly RunSetting FaultAt = new RunSetting(RunSettingTable.FaultAt);
        public static readonly RunSetting FaultLength = new RunSetting(RunSettingTable.FaultLength);
        public static readonly RunSetting FaultScript = new RunSetting(RunSettingTable.FaultScript);
        public static readonly RunSetting FaultScriptHost = new RunSetting(RunSettingTable.FaultScriptHost);
        public static readonly RunSetting StallLimit = new RunSetting(RunSettingTable.StallLimit);
        public static readonly RunSetting ReseedPath = new RunSetting(RunSettingTable.ReseedPath);

        /// <summary>Every setting the module binds or carries: the table's entries with a parameter, in the table's order.</summary>
        public static readonly IReadOnlyList<RunSetting> All =
            RunSettingTable.All.Where(e => e.Parameter != null).Select(e => new RunSetting(e)).ToArray();

        public bool Equals(RunSetting? other) => other != null && ReferenceEquals(_entry, other._entry);
        public override bool Equals(object? obj) => Equals(obj as RunSetting);
        public override int GetHashCode() => _entry.GetHashCode();
        public static bool operator ==(RunSetting? a, RunSetting? b) => a is null ? b is null : a.Equals(b);
        public static bool operator !=(RunSetting? a, RunSetting? b) => !(a == b);

        /// <summary>
        /// The setting's value from its bound parameter, or null when that counts as not given (an absent switch, an empty
        /// path). Paths are made absolute with <paramref name="resolvePath"/>.
        /// </summary>
        public object? FromParameter(object? bound, Func<string, string> resolvePath)
        {
            object? value = SettingSource.Unwrap(bound);
            switch (Kind)
            {
                case SettingKind.Switch:
                case SettingKind.NegatedSwitch:
                    return value is SwitchParameter s ? (s.IsPresent ? (object)true : null) : LanguagePrimitives.IsTrue(value) ? (object)true : null;
                case SettingKind.Path:
                    string? path = value?.ToString();
                    return string.IsNullOrWhiteSpace(path) ? null : resolvePath(path!);
                case SettingKind.Thresholds:
                    return ThresholdsInput.From(value);
                case SettingKind.Seconds:
                    return value is TimeSpan span ? span : LanguagePrimitives.ConvertTo<TimeSpan>(value);
                case SettingKind.Count:
                    return LanguagePrimitives.ConvertTo<int>(value);
                case SettingKind.Number:
                    return LanguagePrimitives.ConvertTo<double>(value);
                default:
                    return value == null ? null : Convert.ToString(value, CultureInfo.InvariantCulture);
            }
        }

        /// <summary>The value as the request's field carries it.</summary>
        public object? ToRequest(object value) => Kind switch
        {
            SettingKind.Seconds => ((TimeSpan)value).TotalSeconds,
            // Whole numbers as the module's JSON reads them back (long), so a request reads the same before and after the wire.
            SettingKind.Count => Convert.ToInt64(value, CultureInfo.InvariantCulture),
            SettingKind.Switch => true,
            SettingKind.NegatedSwitch => false,
            _ => value,
        };

        public override string ToString() => Parameter;
    }
}
