using System;
using System.Collections.Generic;
using System.Globalization;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Input;

namespace ExchStorageTest.Runs
{
    /// <summary>How a run setting's value is read from its parameter and written into the request.</summary>
    internal enum SettingKind
    {
        /// <summary>Text as given (a test type, a database source).</summary>
        Text,
        /// <summary>A path, resolved against the PowerShell location; an empty one is not given.</summary>
        Path,
        /// <summary>A whole number.</summary>
        Count,
        /// <summary>A number.</summary>
        Number,
        /// <summary>A TimeSpan, sent in seconds.</summary>
        Seconds,
        /// <summary>A switch: given when present, sent as true.</summary>
        Switch,
        /// <summary>A switch that turns an engine default off: given when present, sent as false.</summary>
        NegatedSwitch,
        /// <summary>-Thresholds' overrides (<see cref="ThresholdsInput"/>).</summary>
        Thresholds,
    }

    /// <summary>
    /// One setting of a run, declared once: Invoke-StorageTest's parameter, the request field the engine reads, how its
    /// value is read and sent, and what the engine applies when it is not given (<see cref="RunDefaults"/>). The
    /// declarations drive the binding of the parameters into <see cref="RunSettings"/>, the request sent to the engine
    /// (here or on every host of a multi-host run), and the ESRP suite's per-test overrides; a new setting is one line
    /// here (and the engine's field).
    /// </summary>
    internal sealed class RunSetting
    {
        private RunSetting(string parameter, string field, SettingKind kind, object? engineDefault, bool fromRun = false)
        {
            FromRun = fromRun;
            Parameter = parameter;
            Field = field;
            Kind = kind;
            EngineDefault = engineDefault;
        }

        /// <summary>Invoke-StorageTest's parameter.</summary>
        public string Parameter { get; }

        /// <summary>The request field (<see cref="RequestFields"/>).</summary>
        public string Field { get; }

        public SettingKind Kind { get; }

        /// <summary>
        /// Set by the run, not bound from Invoke-StorageTest (which has no such parameter): the start file or the multi-host
        /// run names the value and <see cref="RunSettings.With"/> carries it to every request like any other setting.
        /// </summary>
        public bool FromRun { get; }

        /// <summary>What the engine applies when the request leaves the setting out (null: it depends on the test type or the plan).</summary>
        public object? EngineDefault { get; }

        public static readonly RunSetting TestType = new RunSetting("TestType", RequestFields.TestType, SettingKind.Text, RunDefaults.TestType.ToString());
        public static readonly RunSetting DatabaseSource = new RunSetting("DatabaseSource", RequestFields.DatabaseSource, SettingKind.Text, RunDefaults.DatabaseSource.ToString());
        public static readonly RunSetting RestoreFromPath = new RunSetting("RestoreFromPath", RequestFields.RestoreFromPath, SettingKind.Path, null);
        /// <summary>The measured window; a capacity search's time bound.</summary>
        public static readonly RunSetting Duration = new RunSetting("Duration", RequestFields.DurationSeconds, SettingKind.Seconds, null);
        public static readonly RunSetting Warmup = new RunSetting("Warmup", RequestFields.WarmupSeconds, SettingKind.Seconds, null);
        public static readonly RunSetting OutputPath = new RunSetting("OutputPath", RequestFields.OutputPath, SettingKind.Path, null);
        public static readonly RunSetting ThreadCount = new RunSetting("ThreadCount", RequestFields.ThreadCount, SettingKind.Count, null);
        public static readonly RunSetting TargetRateIops = new RunSetting("TargetRateIops", RequestFields.TargetRateIops, SettingKind.Number, null);
        public static readonly RunSetting Thresholds = new RunSetting("Thresholds", RequestFields.Thresholds, SettingKind.Thresholds, null);
        public static readonly RunSetting ContinueOnError = new RunSetting("ContinueOnError", RequestFields.ContinueOnError, SettingKind.Switch, false);
        public static readonly RunSetting AllowBufferedIo = new RunSetting("AllowBufferedIo", RequestFields.AllowBufferedIo, SettingKind.Switch, false);
        public static readonly RunSetting AllowUnsupportedPlatform = new RunSetting("AllowUnsupportedPlatform", RequestFields.AllowUnsupportedPlatform, SettingKind.Switch, false);
        public static readonly RunSetting NoCpuAffinity = new RunSetting("NoCpuAffinity", RequestFields.PinWorkerThreads, SettingKind.NegatedSwitch, RunDefaults.PinWorkerThreads);
        public static readonly RunSetting SampleIntervalSeconds = new RunSetting("SampleIntervalSeconds", RequestFields.SampleIntervalSeconds, SettingKind.Number, null);
        public static readonly RunSetting LogFilesToReplay = new RunSetting("LogFilesToReplay", RequestFields.LogFilesToReplay, SettingKind.Count, RunDefaults.LogFilesToReplay);
        public static readonly RunSetting CapacityPercent = new RunSetting("CapacityPercent", RequestFields.CapacityPercent, SettingKind.Number, RunDefaults.CapacityPercent);
        /// <summary>The database pages' data profile (<see cref="DataProfile"/>): 0 for both is incompressible, unique pages.</summary>
        public static readonly RunSetting CompressibilityPercent = new RunSetting("CompressibilityPercent", RequestFields.CompressibilityPercent, SettingKind.Count, DataProfile.Default.CompressibilityPercent);
        public static readonly RunSetting DuplicatePercent = new RunSetting("DuplicatePercent", RequestFields.DuplicatePercent, SettingKind.Count, DataProfile.Default.DuplicatePercent);
        /// <summary>A failure-mode window (docs/failure-mode.md): its start into the measured window, the same on every host of a run.</summary>
        public static readonly RunSetting FaultAt = new RunSetting("FaultAt", RequestFields.FaultAtSeconds, SettingKind.Seconds, null);
        public static readonly RunSetting FaultLength = new RunSetting("FaultLength", RequestFields.FaultLengthSeconds, SettingKind.Seconds, FaultRules.DefaultFaultLengthSeconds);
        public static readonly RunSetting FaultScript = new RunSetting("FaultScript", RequestFields.FaultScript, SettingKind.Path, null);
        /// <summary>
        /// The one host of a run that starts the fault script: a multi-host run's first host, a start file's named host
        /// (New-StorageTestRun -FaultScriptComputerName); not given on a run of this computer alone, which starts it itself.
        /// </summary>
        public static readonly RunSetting FaultScriptHost = new RunSetting("FaultScriptComputerName", RequestFields.FaultScriptHost, SettingKind.Text, null, fromRun: true);
        public static readonly RunSetting StallLimit = new RunSetting("StallLimit", RequestFields.StallLimitSeconds, SettingKind.Seconds, FaultRules.DefaultStallLimitSeconds);
        /// <summary>A spare folder a reseed streams a database copy onto during the fault window (<see cref="ReseedRules"/>).</summary>
        public static readonly RunSetting ReseedPath = new RunSetting("ReseedPath", RequestFields.ReseedPath, SettingKind.Path, null);

        /// <summary>Every run setting, in the order the request gets them.</summary>
        public static readonly IReadOnlyList<RunSetting> All = new[]
        {
            TestType, DatabaseSource, Thresholds, ContinueOnError, AllowBufferedIo, AllowUnsupportedPlatform, NoCpuAffinity, SampleIntervalSeconds, LogFilesToReplay,
            CapacityPercent, CompressibilityPercent, DuplicatePercent, Duration, Warmup, OutputPath, RestoreFromPath, ThreadCount, TargetRateIops,
            FaultAt, FaultLength, FaultScript, FaultScriptHost, StallLimit, ReseedPath,
        };

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
