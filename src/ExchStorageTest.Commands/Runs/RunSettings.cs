using System.IO;
using System.Management.Automation;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Input;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Invoke-StorageTest's run settings, checked before the helper is started and before anything is written,
    /// each rule with its own ErrorId; then the request the helper gets (docs/protocol.md), with only the
    /// fields that were set.
    /// </summary>
    internal sealed class RunSettings
    {
        public string TestType { get; set; } = "Performance";
        public string DatabaseSource { get; set; } = "Create";
        public TimeSpan? Duration { get; set; }
        public TimeSpan? Warmup { get; set; }
        public string? OutputPath { get; set; }
        public string? RestoreFromPath { get; set; }
        public int? ThreadCount { get; set; }
        public double? TargetRateIops { get; set; }
        public JsonObject Thresholds { get; set; } = new JsonObject();
        public bool ContinueOnError { get; set; }
        public bool AllowBufferedIo { get; set; }
        public bool NoCpuAffinity { get; set; }
        public double SampleIntervalSeconds { get; set; } = 15;
        public int LogFilesToReplay { get; set; } = 500;
        public double CapacityPercent { get; set; } = 20;

        /// <summary>Checks every rule that needs no helper; paths are already absolute.</summary>
        public void Validate()
        {
            SampleIntervalSeconds = new Input.NumberRule("SampleIntervalSeconds", 1, 3600, "InvalidSampleInterval").Check(SampleIntervalSeconds);
            LogFilesToReplay = (int)new Input.NumberRule("LogFilesToReplay", 1, 100_000, "InvalidLogFilesToReplay", integer: true).Check(LogFilesToReplay);
            CapacityPercent = new Input.NumberRule("CapacityPercent", 1, 95, "InvalidCapacityPercent").Check(CapacityPercent);
            if (Duration.HasValue && (Duration.Value <= TimeSpan.Zero || Duration.Value > TimeSpan.FromDays(30)))
                throw StorageTestException.InvalidArgument("InvalidDuration", $"Duration '{Duration.Value}' is not valid: it must be greater than zero and at most 30 days (for example 00:30:00).", Duration.Value);
            if (Warmup.HasValue && (Warmup.Value < TimeSpan.Zero || Warmup.Value > TimeSpan.FromDays(1)))
                throw StorageTestException.InvalidArgument("InvalidWarmup", $"Warmup '{Warmup.Value}' is not valid: it must be zero or more and at most one day.", Warmup.Value);
            if (ThreadCount.HasValue && TargetRateIops.HasValue)
                throw StorageTestException.InvalidArgument("ConflictingLoadSettings", "ThreadCount and TargetRateIops cannot be used together: a fixed thread count drives a closed loop, a target rate an open loop. Give one of them.", null);
            if (ThreadCount.HasValue) ThreadCount = (int)new Input.NumberRule("ThreadCount", 1, 1024, "InvalidThreadCount", integer: true).Check(ThreadCount.Value);
            if (TargetRateIops.HasValue) TargetRateIops = new Input.NumberRule("TargetRateIops", 0, 10_000_000, "InvalidTargetRate", exclusiveMinimum: true).Check(TargetRateIops.Value);

            bool restoreGiven = !string.IsNullOrWhiteSpace(RestoreFromPath);
            if (string.Equals(DatabaseSource, "Restore", StringComparison.OrdinalIgnoreCase))
            {
                if (!restoreGiven)
                    throw StorageTestException.InvalidArgument("RestorePathRequired", "DatabaseSource Restore needs -RestoreFromPath: the folder holding the backup set to restore.", null);
                if (!Directory.Exists(RestoreFromPath))
                    throw new StorageTestException("RestorePathNotFound", $"The restore folder '{RestoreFromPath}' does not exist.", ErrorCategory.ObjectNotFound, RestoreFromPath);
            }
            else if (restoreGiven)
                throw StorageTestException.InvalidArgument("RestorePathWithoutRestore", $"RestoreFromPath is only used with -DatabaseSource Restore (DatabaseSource is '{DatabaseSource}').", RestoreFromPath);

            if (!string.IsNullOrWhiteSpace(OutputPath))
            {
                string existing = Directory.Exists(OutputPath) ? OutputPath! : Path.GetDirectoryName(OutputPath) ?? "";
                if (existing.Length == 0 || !Directory.Exists(existing))
                    throw new StorageTestException("OutputPathNotFound", $"The output folder '{OutputPath}' does not exist, and neither does its parent folder.", ErrorCategory.ObjectNotFound, OutputPath);
            }
        }

        /// <summary>The same settings for the hosts of a multi-host run: OutputPath is where their results are collected here, so each host's helper keeps its own default.</summary>
        public RunSettings ForRemoteHosts()
        {
            var copy = (RunSettings)MemberwiseClone();
            copy.OutputPath = null;
            return copy;
        }

        /// <summary>The helper's request for this profile (docs/protocol.md); <paramref name="command"/> is plan or run.</summary>
        public JsonObject ToRequest(string command, MailboxProfile profile, DateTime? startAtUtc = null, string? testId = null)
        {
            var request = HelperRequest.For(command)
                .Set(RequestFields.TestId, testId ?? NewTestId())
                .Set(RequestFields.Profile, profile.ToJson())
                .Set(RequestFields.TestType, TestType)
                .Set(RequestFields.DatabaseSource, DatabaseSource)
                .Set(RequestFields.Thresholds, Thresholds)
                .Set(RequestFields.ContinueOnError, ContinueOnError)
                .Set(RequestFields.SampleIntervalSeconds, SampleIntervalSeconds)
                .Set(RequestFields.AllowBufferedIo, AllowBufferedIo)
                .Set(RequestFields.PinWorkerThreads, !NoCpuAffinity)
                .Set(RequestFields.LogFilesToReplay, LogFilesToReplay)
                .Set(RequestFields.CapacityPercent, CapacityPercent);
            if (Duration.HasValue) request.Set(RequestFields.DurationSeconds, Duration.Value.TotalSeconds);
            if (Warmup.HasValue) request.Set(RequestFields.WarmupSeconds, Warmup.Value.TotalSeconds);
            if (OutputPath != null) request.Set(RequestFields.OutputPath, OutputPath);
            if (RestoreFromPath != null) request.Set(RequestFields.RestoreFromPath, RestoreFromPath);
            if (ThreadCount.HasValue) request.Set(RequestFields.ThreadCount, ThreadCount.Value);
            if (TargetRateIops.HasValue) request.Set(RequestFields.TargetRateIops, TargetRateIops.Value);
            if (startAtUtc.HasValue) request.Set(RequestFields.StartAtUtc, startAtUtc.Value.ToUniversalTime());
            return request;
        }

        /// <summary>A test id that sorts by time and is unique across hosts: UTC second + 8 random hex digits.</summary>
        public static string NewTestId() =>
            DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", System.Globalization.CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N").Substring(0, 8);
    }
}
