using System;
using System.IO;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;
using ExchStorageTest.Contract;

namespace ExchStorageTest
{
    /// <summary>
    /// One test of an ESRP suite (PSTypeName ExchStorageTest.SuiteTest) as the suite's state file records it: its
    /// step in ESRP order, where its results go, how far it got and what it measured.
    /// </summary>
    public sealed class SuiteTest
    {
        public const string NotRun = "NotRun";
        /// <summary>Started and not known to have ended (the session that ran it went away): it runs again on resume.</summary>
        public const string Running = "Running";
        public const string Complete = Completions.Complete;
        public const string Stopped = Completions.Stopped;
        public const string Failed = Completions.Failed;
        /// <summary>The engine refused or failed before it produced a result; <see cref="Message"/> says why.</summary>
        public const string Error = "Error";

        /// <summary>1 Performance, 2 Stress, 3 DatabaseBackup, 4 SoftRecovery.</summary>
        public int Step { get; set; }
        public string TestType { get; set; } = "";
        /// <summary>NotRun, Running, Complete (a failing verdict completes a test too: it measured), Stopped, Failed or Error.</summary>
        public string State { get; set; } = NotRun;
        /// <summary>Pass or Fail; null until the test produced a result.</summary>
        public string? Result { get; set; }
        public string? TestId { get; set; }
        /// <summary>The test's folder inside the suite folder.</summary>
        public string Folder { get; set; } = "";
        public string? ResultsPath { get; set; }
        /// <summary>The measured window asked for; null: the engine's ESRP default (2 h Performance, 24 h Stress) or until done.</summary>
        public double? DurationSeconds { get; set; }
        public DateTime? StartedUtc { get; set; }
        public DateTime? EndedUtc { get; set; }
        /// <summary>Why the test ended in Error.</summary>
        public string? Message { get; set; }

        internal JsonObject ToJson(string suiteFolder)
        {
            var json = new JsonObject()
                .Set("step", Step)
                .Set("testType", TestType)
                .Set("folder", Folder)
                .Set("state", State)
                .Set("result", Result)
                .Set("testId", TestId)
                // Relative, so a suite folder copied to a share for review still finds its results.
                .Set("resultsPath", ResultsPath == null ? null : Relative(suiteFolder, ResultsPath))
                .Set("durationSeconds", DurationSeconds)
                .Set("startedUtc", StartedUtc.HasValue ? UtcTime.Iso(StartedUtc.Value) : null)
                .Set("endedUtc", EndedUtc.HasValue ? UtcTime.Iso(EndedUtc.Value) : null);
            if (Message != null) json.Set("message", Message);
            return json;
        }

        internal static SuiteTest FromJson(JsonObject json, string suiteFolder)
        {
            string? results = json.GetString("resultsPath");
            return new SuiteTest
            {
                Step = (int)(json.GetNumber("step") ?? 0),
                TestType = json.GetString("testType") ?? "",
                Folder = json.GetString("folder") ?? "",
                State = json.GetString("state") ?? NotRun,
                Result = json.GetString("result"),
                TestId = json.GetString("testId"),
                ResultsPath = string.IsNullOrEmpty(results) ? null : Path.GetFullPath(Path.Combine(suiteFolder, results)),
                DurationSeconds = json.GetNumber("durationSeconds"),
                StartedUtc = UtcTime.Parse(json.GetString("startedUtc")),
                EndedUtc = UtcTime.Parse(json.GetString("endedUtc")),
                Message = json.GetString("message"),
            };
        }

        internal static string Relative(string folder, string path)
        {
            string root = folder.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar) + Path.DirectorySeparatorChar;
            return path.StartsWith(root, StringComparison.Ordinal) ? path.Substring(root.Length).Replace('\\', '/') : path;
        }

        public override string ToString() => $"{Step} {TestType} {State} {Result}".TrimEnd();
    }
}
