using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
using ExchStorageTest.Json;
using ExchStorageTest.Profiles;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Invoke-StorageTest's run settings as the user gave them, and the request the helper gets for them
    /// (docs/protocol.md). Only the settings given go into the request: their defaults and every rule of their
    /// values are the engine's (its plan refuses a bad value before ShouldProcess asks, with the code a helper
    /// request gets for the same value). Paths are already absolute.
    /// </summary>
    internal sealed class RunSettings
    {
        public string TestType { get; set; } = nameof(Contract.TestType.Performance);
        public string? DatabaseSource { get; set; }
        public TimeSpan? Duration { get; set; }
        public TimeSpan? Warmup { get; set; }
        public string? OutputPath { get; set; }
        public string? RestoreFromPath { get; set; }
        public int? ThreadCount { get; set; }
        public double? TargetRateIops { get; set; }
        /// <summary>The limits the user overrides, by their field names; null: the test type's preset.</summary>
        public JsonObject? Thresholds { get; set; }
        public bool ContinueOnError { get; set; }
        public bool AllowBufferedIo { get; set; }
        public bool NoCpuAffinity { get; set; }
        public double? SampleIntervalSeconds { get; set; }
        public int? LogFilesToReplay { get; set; }
        public double? CapacityPercent { get; set; }

        /// <summary>The same settings for the hosts of a multi-host run: OutputPath is where their results are collected here, so each host's helper keeps its own default.</summary>
        public RunSettings ForRemoteHosts() => WithOutputPath(null);

        /// <summary>The same settings with another output folder (null: the engine's default).</summary>
        public RunSettings WithOutputPath(string? outputPath)
        {
            var copy = (RunSettings)MemberwiseClone();
            copy.OutputPath = outputPath;
            return copy;
        }

        /// <summary>The helper's request for this profile; <paramref name="command"/> is plan or run (<see cref="HelperCommands"/>).</summary>
        public JsonObject ToRequest(string command, MailboxProfile profile, DateTime? startAtUtc = null, string? testId = null)
        {
            var request = HelperRequest.For(command)
                .Set(RequestFields.TestId, testId ?? NewTestId())
                .Set(RequestFields.Profile, profile.ToJson())
                .Set(RequestFields.TestType, TestType);
            if (DatabaseSource != null) request.Set(RequestFields.DatabaseSource, DatabaseSource);
            if (Thresholds != null) request.Set(RequestFields.Thresholds, Thresholds);
            if (ContinueOnError) request.Set(RequestFields.ContinueOnError, true);
            if (AllowBufferedIo) request.Set(RequestFields.AllowBufferedIo, true);
            if (NoCpuAffinity) request.Set(RequestFields.PinWorkerThreads, false);
            if (SampleIntervalSeconds.HasValue) request.Set(RequestFields.SampleIntervalSeconds, SampleIntervalSeconds.Value);
            if (LogFilesToReplay.HasValue) request.Set(RequestFields.LogFilesToReplay, LogFilesToReplay.Value);
            if (CapacityPercent.HasValue) request.Set(RequestFields.CapacityPercent, CapacityPercent.Value);
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
