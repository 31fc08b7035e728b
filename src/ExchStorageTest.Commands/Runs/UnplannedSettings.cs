using System;
using System.IO;
using System.Linq;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Settings of a run that no engine plans now (a scheduled task runs hours later): checked here with the engine's own
    /// rules (each setting's <see cref="RunSetting.Rule"/>, <see cref="FaultRules.Check"/>), so a bad value is refused before anything
    /// is written instead of failing at 2 a.m. A run planned now is checked by its engine's plan instead.
    /// </summary>
    internal static class UnplannedSettings
    {
        public static void Check(RunSettings settings)
        {
            foreach (RunSetting setting in RunSetting.All)
            {
                if (setting.Kind != SettingKind.Seconds || !(settings[setting] is TimeSpan span)) continue;
                if (setting.Rule?.Check(span.TotalSeconds) is Violation bad) throw StorageTestException.From(bad);
            }
            var type = (TestType)Enum.Parse(typeof(TestType), settings.TestType, ignoreCase: true);
            double duration = settings.Duration?.TotalSeconds ?? RunDefaults.DurationSeconds(type);
            if (FaultRules.Check(settings.FaultAt?.TotalSeconds, settings.FaultLength?.TotalSeconds, settings.FaultScript, duration, type) is Violation window)
                throw StorageTestException.From(window);
            if (ReseedRules.Check(settings.ReseedPath, settings.FaultAt?.TotalSeconds) is Violation reseed)
                throw StorageTestException.From(reseed);
            if (settings.ReseedPath is string spare && !Directory.Exists(spare))
                throw new StorageTestException(ErrorCodes.ReseedPathNotFound, $"The reseed's spare folder '{spare}' does not exist.", spare);
            // The task runs on this computer, so this computer starts the script: it must be here.
            if (settings.FaultScript is string script && !File.Exists(script))
                throw new StorageTestException(ErrorCodes.FaultScriptNotFound, $"The fault script '{script}' does not exist.", script);
        }
    }
}
