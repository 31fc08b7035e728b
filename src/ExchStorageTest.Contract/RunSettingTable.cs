using System;
using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Contract
{
    /// <summary>How a run setting's value is given, sent in the request and read by the engine.</summary>
    public enum SettingKind
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
        /// <summary>-Thresholds' overrides (the <c>thresholds</c> object, <see cref="ThresholdFields"/>).</summary>
        Thresholds,
        /// <summary>A UTC instant (ISO 8601).</summary>
        Instant,
    }

    /// <summary>
    /// One setting of a test (commands run and plan), declared once: the request field, how its value is given and sent,
    /// its range (with the code a bad value is refused with), what the engine applies when the request leaves it out,
    /// where the results record it, and Invoke-StorageTest's parameter. The request's fields (<see cref="RequestFields.All"/>),
    /// the protocol's run and plan shapes (<see cref="EngineCommands"/>), the number rules (<see cref="RunRules.Numbers"/>),
    /// the engine's request gate and reader, and the module's parameter binding all read <see cref="RunSettingTable.All"/>.
    /// </summary>
    public sealed class RunSettingEntry
    {
        internal RunSettingEntry(string field, SettingKind kind, string? parameter = null, NumberRule? rule = null, object? engineDefault = null,
            string? recorded = null, bool fromRun = false)
        {
            Field = field;
            Kind = kind;
            Parameter = parameter;
            Rule = rule;
            EngineDefault = engineDefault;
            Recorded = recorded;
            FromRun = fromRun;
        }

        /// <summary>The request field (camelCase, as docs/protocol.md lists it).</summary>
        public string Field { get; }
        public SettingKind Kind { get; }
        /// <summary>Invoke-StorageTest's parameter; null for a field only the module or JetstressCmd sets (tuningSeconds, startAtUtc ...).</summary>
        public string? Parameter { get; }
        /// <summary>The range a given value must keep (module and engine check it alike); null for a setting without one.</summary>
        public NumberRule? Rule { get; }
        /// <summary>What the engine applies when the request leaves the setting out (null: it depends on the test type or the plan).</summary>
        public object? EngineDefault { get; }
        /// <summary>
        /// Where the results document records the setting (docs/results-schema.md), as a path: <c>settings.durationSeconds</c>;
        /// null when the results do not record it. A setting under <c>settings.</c> that the engine's results type has no
        /// property for is recorded there by the engine on its own (<see cref="RunSettingTable.InSettings"/>).
        /// </summary>
        public string? Recorded { get; }
        /// <summary>
        /// Set by the run, not bound from Invoke-StorageTest (which has no such parameter): the start file or the multi-host
        /// run names the value and the module carries it to every request like any other setting.
        /// </summary>
        public bool FromRun { get; }

        public override string ToString() => Field;
    }

    /// <summary>
    /// The run settings, one entry each (<see cref="RunSettingEntry"/>), in the order the request and docs/protocol.md list
    /// them. Adding a setting: docs/module.md, "Adding a run setting".
    /// </summary>
    public static class RunSettingTable
    {
        /// <summary>Where a new setting's entry says the results record it: under <c>settings</c>, by its field name.</summary>
        public static string InSettings(string field) => "settings." + field;

        /// <summary>A new setting's range: its rule and the code a value out of it is refused with, added to the catalogue (<see cref="ErrorCodes"/>).</summary>
        internal static NumberRule Range(string parameter, string field, string code, string meaning, double minimum, double maximum,
            bool integer = false, bool exclusiveMinimum = false, bool seconds = false, string hint = "") =>
            new NumberRule(parameter, field, ErrorCodes.RunSetting(code, meaning), minimum, maximum, integer, exclusiveMinimum, seconds, hint);

        public static readonly RunSettingEntry TestType = new RunSettingEntry(RequestFields.TestType, SettingKind.Text, "TestType",
            engineDefault: RunDefaults.TestType.ToString(), recorded: "testType");
        /// <summary>The measured window; a capacity search's time bound.</summary>
        public static readonly RunSettingEntry Duration = new RunSettingEntry(RequestFields.DurationSeconds, SettingKind.Seconds, "Duration", RunRules.Duration,
            recorded: InSettings(RequestFields.DurationSeconds));
        public static readonly RunSettingEntry OutputPath = new RunSettingEntry(RequestFields.OutputPath, SettingKind.Path, "OutputPath",
            recorded: InSettings(RequestFields.OutputPath));
        public static readonly RunSettingEntry DatabaseSource = new RunSettingEntry(RequestFields.DatabaseSource, SettingKind.Text, "DatabaseSource",
            engineDefault: RunDefaults.DatabaseSource.ToString(), recorded: InSettings(RequestFields.DatabaseSource));
        public static readonly RunSettingEntry RestoreFromPath = new RunSettingEntry(RequestFields.RestoreFromPath, SettingKind.Path, "RestoreFromPath");
        public static readonly RunSettingEntry ThreadCount = new RunSettingEntry(RequestFields.ThreadCount, SettingKind.Count, "ThreadCount", RunRules.ThreadCount,
            recorded: InSettings(RequestFields.ThreadCount));
        public static readonly RunSettingEntry TargetRateIops = new RunSettingEntry(RequestFields.TargetRateIops, SettingKind.Number, "TargetRateIops", RunRules.TargetRateIops,
            recorded: InSettings(RequestFields.TargetRateIops));
        public static readonly RunSettingEntry Thresholds = new RunSettingEntry(RequestFields.Thresholds, SettingKind.Thresholds, "Thresholds",
            recorded: InSettings(RequestFields.Thresholds));
        public static readonly RunSettingEntry ContinueOnError = new RunSettingEntry(RequestFields.ContinueOnError, SettingKind.Switch, "ContinueOnError",
            engineDefault: false, recorded: InSettings(RequestFields.ContinueOnError));
        public static readonly RunSettingEntry SampleIntervalSeconds = new RunSettingEntry(RequestFields.SampleIntervalSeconds, SettingKind.Number, "SampleIntervalSeconds",
            RunRules.SampleInterval, recorded: InSettings(RequestFields.SampleIntervalSeconds));
        public static readonly RunSettingEntry AllowBufferedIo = new RunSettingEntry(RequestFields.AllowBufferedIo, SettingKind.Switch, "AllowBufferedIo", engineDefault: false);
        public static readonly RunSettingEntry AllowUnsupportedPlatform = new RunSettingEntry(RequestFields.AllowUnsupportedPlatform, SettingKind.Switch, "AllowUnsupportedPlatform",
            engineDefault: false);
        public static readonly RunSettingEntry PinWorkerThreads = new RunSettingEntry(RequestFields.PinWorkerThreads, SettingKind.NegatedSwitch, "NoCpuAffinity",
            engineDefault: RunDefaults.PinWorkerThreads);
        public static readonly RunSettingEntry TuningSeconds = new RunSettingEntry(RequestFields.TuningSeconds, SettingKind.Number, rule: RunRules.TuningSeconds);
        public static readonly RunSettingEntry Warmup = new RunSettingEntry(RequestFields.WarmupSeconds, SettingKind.Seconds, "Warmup", RunRules.Warmup,
            recorded: InSettings(RequestFields.WarmupSeconds));
        public static readonly RunSettingEntry StartAtUtc = new RunSettingEntry(RequestFields.StartAtUtc, SettingKind.Instant, recorded: InSettings(RequestFields.StartAtUtc));
        public static readonly RunSettingEntry MeasureAtUtc = new RunSettingEntry(RequestFields.MeasureAtUtc, SettingKind.Instant, recorded: InSettings(RequestFields.MeasureAtUtc));
        public static readonly RunSettingEntry LogFilesToReplay = new RunSettingEntry(RequestFields.LogFilesToReplay, SettingKind.Count, "LogFilesToReplay", RunRules.LogFilesToReplay,
            RunDefaults.LogFilesToReplay);
        public static readonly RunSettingEntry CapacityPercent = new RunSettingEntry(RequestFields.CapacityPercent, SettingKind.Number, "CapacityPercent", RunRules.CapacityPercent,
            RunDefaults.CapacityPercent, recorded: "sizing.capacityPercent");
        /// <summary>The database pages' data profile (<see cref="DataProfile"/>): 0 for both is incompressible, unique pages.</summary>
        public static readonly RunSettingEntry CompressibilityPercent = new RunSettingEntry(RequestFields.CompressibilityPercent, SettingKind.Count, "CompressibilityPercent",
            RunRules.CompressibilityPercent, DataProfile.Default.CompressibilityPercent, recorded: "settings.dataProfile.compressibilityPercent");
        public static readonly RunSettingEntry DuplicatePercent = new RunSettingEntry(RequestFields.DuplicatePercent, SettingKind.Count, "DuplicatePercent",
            RunRules.DuplicatePercent, DataProfile.Default.DuplicatePercent, recorded: "settings.dataProfile.duplicatePercent");
        public static readonly RunSettingEntry ReportedAs = new RunSettingEntry(RequestFields.ReportedAs, SettingKind.Text, recorded: "reportedAs");
        public static readonly RunSettingEntry JetstressFolders = new RunSettingEntry(RequestFields.JetstressFolders, SettingKind.Switch, engineDefault: false);
        public static readonly RunSettingEntry CapacitySteps = new RunSettingEntry(RequestFields.CapacitySteps, SettingKind.Text, engineDefault: CapacityStepping.Engine);
        /// <summary>A failure-mode window (docs/failure-mode.md): its start into the measured window, the same on every host of a run.</summary>
        public static readonly RunSettingEntry FaultAt = new RunSettingEntry(RequestFields.FaultAtSeconds, SettingKind.Seconds, "FaultAt", FaultRules.FaultAt,
            recorded: "failureMode.window.atSeconds");
        public static readonly RunSettingEntry FaultLength = new RunSettingEntry(RequestFields.FaultLengthSeconds, SettingKind.Seconds, "FaultLength", FaultRules.FaultLength,
            FaultRules.DefaultFaultLengthSeconds, recorded: "failureMode.window.lengthSeconds");
        public static readonly RunSettingEntry FaultScript = new RunSettingEntry(RequestFields.FaultScript, SettingKind.Path, "FaultScript", recorded: "failureMode.script.path");
        /// <summary>
        /// The one host of a run that starts the fault script: a multi-host run's first host, a start file's named host
        /// (New-StorageTestRun -FaultScriptComputerName); not given on a run of this computer alone, which starts it itself.
        /// </summary>
        public static readonly RunSettingEntry FaultScriptHost = new RunSettingEntry(RequestFields.FaultScriptHost, SettingKind.Text, "FaultScriptComputerName",
            recorded: "failureMode.script.host", fromRun: true);
        public static readonly RunSettingEntry StallLimit = new RunSettingEntry(RequestFields.StallLimitSeconds, SettingKind.Seconds, "StallLimit", FaultRules.StallLimit,
            FaultRules.DefaultStallLimitSeconds, recorded: "failureMode.stallLimitSeconds");
        /// <summary>A spare folder a reseed streams a database copy onto during the fault window (<see cref="ReseedRules"/>, docs/failure-mode.md).</summary>
        public static readonly RunSettingEntry ReseedPath = new RunSettingEntry(RequestFields.ReseedPath, SettingKind.Path, "ReseedPath",
            recorded: "failureMode.reseed.targetFile");

        /// <summary>Every run setting, in the order the request and docs/protocol.md list them. A new setting is one entry here.</summary>
        public static readonly IReadOnlyList<RunSettingEntry> All = new[]
        {
            TestType, Duration, OutputPath, DatabaseSource, RestoreFromPath, ThreadCount, TargetRateIops, Thresholds, ContinueOnError, SampleIntervalSeconds,
            AllowBufferedIo, AllowUnsupportedPlatform, PinWorkerThreads, TuningSeconds, Warmup, LogFilesToReplay, CapacityPercent,
            CompressibilityPercent, DuplicatePercent, ReportedAs, JetstressFolders, CapacitySteps, StartAtUtc, MeasureAtUtc, FaultAt, FaultLength, FaultScript, FaultScriptHost, StallLimit, ReseedPath,
        };

        /// <summary>The entry of a request field (case ignored, as the engine reads them), or null.</summary>
        public static RunSettingEntry? Find(string field) => All.FirstOrDefault(e => string.Equals(e.Field, field, StringComparison.OrdinalIgnoreCase));
    }
}
