using System;
using System.Collections;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Input;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// A host's TestResult as it comes back: the object itself from a local runspace, or a property bag
    /// (Deserialized.ExchStorageTest.TestResult) over remoting. Read by property name, so both give the same result.
    /// </summary>
    internal static class RemoteResult
    {
        public static bool IsTestResult(PSObject item) =>
            item.BaseObject is TestResult || item.TypeNames.Any(t => t == "ExchStorageTest.TestResult" || t == "Deserialized.ExchStorageTest.TestResult");

        /// <summary>A new TestResult with the host's figures; the orchestrator then sets this computer's view (host name, paths) on it.</summary>
        public static TestResult Read(PSObject item)
        {
            var bag = SettingSource.From(item);
            return new TestResult
            {
                TestId = Text(bag, "TestId"),
                TestType = Text(bag, "TestType"),
                ProfileName = Text(bag, "ProfileName"),
                ComputerName = Text(bag, "ComputerName"),
                Result = Text(bag, "Result"),
                Completion = Text(bag, "Completion"),
                Reasons = Items(bag, "Reasons").Cast<object?>().Select(ReadReason).ToArray(),
                TargetIops = Number(bag, "TargetIops"),
                AchievedIops = Number(bag, "AchievedIops"),
                DbReadLatencyAvgMs = Number(bag, "DbReadLatencyAvgMs"),
                DbReadLatencyP99Ms = Number(bag, "DbReadLatencyP99Ms"),
                DbWriteLatencyAvgMs = Number(bag, "DbWriteLatencyAvgMs"),
                DbWriteLatencyP99Ms = Number(bag, "DbWriteLatencyP99Ms"),
                LogWriteLatencyAvgMs = Number(bag, "LogWriteLatencyAvgMs"),
                LogWriteLatencyP99Ms = Number(bag, "LogWriteLatencyP99Ms"),
                BackupMBPerSecondPerDatabase = Number(bag, "BackupMBPerSecondPerDatabase"),
                BackupMBPerSecond = Number(bag, "BackupMBPerSecond"),
                IoBackend = Text(bag, "IoBackend"),
                DirectIo = bag.TryGet(out object? direct, "DirectIo") && direct != null ? LanguagePrimitives.IsTrue(direct) : (bool?)null,
                ResultsPath = Text(bag, "ResultsPath"),
                ReportPath = Items(bag, "ReportPath").Cast<object?>().Select(p => SettingSource.Unwrap(p)?.ToString()).Where(p => !string.IsNullOrEmpty(p)).Select(p => p!).ToArray(),
                StartAtUtc = Instant(bag, "StartAtUtc"),
                MeasureAtUtc = Instant(bag, "MeasureAtUtc"),
                MeasuringStartUtc = Instant(bag, "MeasuringStartUtc"),
                CalculatorCheck = CalculatorCheck.FromBag(bag.Get(null, "CalculatorCheck")),
                CalculatorHeadroom = Text(bag, "CalculatorHeadroom"),
            };
        }

        private static Reason ReadReason(object? item)
        {
            // A host whose types file did not deepen serialization sends each reason as its text.
            if (SettingSource.Unwrap(item) is string text) return new Reason { Message = text };
            var bag = SettingSource.From(PSObject.AsPSObject(SettingSource.Unwrap(item) ?? new object()));
            return new Reason
            {
                Code = Text(bag, "Code"),
                Instance = Text(bag, "Instance"),
                Message = Text(bag, "Message"),
                Measured = Number(bag, "Measured"),
                Limit = Number(bag, "Limit"),
            };
        }

        private static string? Text(SettingSource bag, string name)
        {
            string? text = bag.Get(null, name)?.ToString();
            return string.IsNullOrEmpty(text) ? null : text;
        }

        private static DateTime? Instant(SettingSource bag, string name) =>
            bag.TryGet(out object? value, name) && SettingSource.Unwrap(value) is DateTime at ? Runs.UtcTime.From(at) : (DateTime?)null;

        private static double? Number(SettingSource bag, string name) =>
            bag.Get(null, name) is object value ? LanguagePrimitives.ConvertTo<double>(value) : (double?)null;

        private static IEnumerable Items(SettingSource bag, string name) =>
            bag.Get(null, name) is IEnumerable items && !(items is string) ? items : Array.Empty<object>();
    }
}
