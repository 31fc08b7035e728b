using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Management.Automation;
using System.Text;
using System.Threading;
using System;
using ExchStorageTest.Commands;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Suite
{
    /// <summary>
    /// Keeps the hosts of an ESRP suite in step through the run folder of -StartFile on a share: each test of the
    /// suite starts on every host at one instant, and only once every host has finished the test before it (a
    /// backup on a slower host must not leave the others measuring the next test alone).
    /// <list type="bullet">
    /// <item>Each host, before a test, writes &lt;run&gt;/&lt;n&gt;-&lt;TestType&gt;/ready/&lt;host&gt;-&lt;suite id&gt;.json (once; its readyUtc).</item>
    /// <item>The first test of the run folder starts at the instant of the run's start file (created by the first host, or by
    /// New-StorageTestRun), as a single start-file test does.</item>
    /// <item>A later test waits until every host that was ready for the test before it is ready for this one; the first host
    /// to see that writes &lt;run&gt;/&lt;n&gt;-&lt;TestType&gt;/start.json with the instant (atomically: the others read it).</item>
    /// <item>After a test each host copies its results JSON to &lt;run&gt;/&lt;n&gt;-&lt;TestType&gt;/results/, never over a file.</item>
    /// </list>
    /// Get-TestReport -Path &lt;run&gt; then renders every host's tests as one submission.
    /// </summary>
    internal sealed class SuiteStartFile
    {
        /// <summary>
        /// From the last host ready to the start of a later test: long enough for every waiting host to notice (they
        /// poll twice a second), start its engine and attach the databases the suite already made.
        /// </summary>
        public static readonly TimeSpan LaterTestLead = TimeSpan.FromSeconds(20);

        private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(500);
        private const string Activity = "Waiting for the other hosts of the ESRP suite";

        private readonly InvokeStorageTestCommand _cmdlet;
        private readonly string _startFile;
        private readonly DateTime? _proposed;
        private readonly TimeSpan? _timeout;

        /// <param name="cmdlet">The Invoke-StorageTest running the suite.</param>
        /// <param name="startFile">-StartFile, absolute.</param>
        /// <param name="proposedStartAtUtc">-StartAtUtc: the first test's instant when this host creates the run's start file.</param>
        /// <param name="timeout">-StartFileTimeout: how long to wait for the start file, or for the other hosts before a later test; null: the start file is created, the hosts are waited for as long as they take.</param>
        public SuiteStartFile(InvokeStorageTestCommand cmdlet, string startFile, DateTime? proposedStartAtUtc, TimeSpan? timeout)
        {
            _cmdlet = cmdlet;
            _startFile = startFile;
            _proposed = proposedStartAtUtc;
            _timeout = timeout;
            RunFolder = Path.GetDirectoryName(startFile) ?? "";
            if (RunFolder.Length == 0 || !Directory.Exists(RunFolder))
                throw new StorageTestException(ErrorCodes.StartFileFolderNotFound, $"The folder of the start file '{startFile}' does not exist (or the share cannot be reached).", startFile);
        }

        public string RunFolder { get; }

        /// <summary>
        /// The instant <paramref name="test"/> starts on every host (loading; each measures from it + the test's lead, see RunInstants); registers this host as ready for it first.
        /// <paramref name="plan"/> (the engine's plan of this test here) sets the lead when this host creates the run's start file.
        /// With it, the start file's run id: every host's results of this test record it, so they merge as one run's hosts.
        /// </summary>
        public (DateTime StartAtUtc, string? RunId) AgreeStart(SuiteState state, SuiteTest test, JsonObject? plan)
        {
            string folder = Path.Combine(RunFolder, test.Folder);
            string ready = Path.Combine(folder, "ready");
            // The hosts that were ready for the latest earlier test of this run folder are the hosts of this one.
            var earlier = state.Tests.Where(t => t.Step < test.Step).OrderByDescending(t => t.Step)
                .Select(t => Path.Combine(RunFolder, t.Folder, "ready")).FirstOrDefault(Directory.Exists);
            if (earlier == null)
            {
                RunStartFile start = RunStart(plan);
                Register(ready, HostId(state));
                return (start.StartAtUtc, RunIds.Plain(start.RunId));
            }
            Register(ready, HostId(state));
            var hosts = Markers(earlier).ToList();
            WaitFor(hosts, ready, test);
            string startFile = Path.Combine(folder, RunStartFile.FileName);
            if (!File.Exists(startFile))
            {
                DateTime last = Markers(ready).Select(m => ReadyUtc(Path.Combine(ready, m + ".json"))).DefaultIfEmpty(DateTime.UtcNow).Max();
                DateTime at = UtcTime.ToMilliseconds((last > DateTime.UtcNow ? last : DateTime.UtcNow) + LaterTestLead);
                if (RunStartFile.TryCreate(startFile, RunIds.New(at), at, hosts.Count))
                    _cmdlet.WriteVerbose($"Every host is ready for {test.TestType}: created '{startFile}': every host starts at {UtcTime.Iso(at)}.");
            }
            RunStartFile agreed = RunStartFile.Read(startFile, TimeSpan.Zero, _cmdlet);
            return (Check(agreed, startFile), RunIds.Plain(agreed.RunId));
        }

        /// <summary>The run's own start file, as a single start-file test reads it: created by the first host to arrive unless -StartFileTimeout says wait.</summary>
        private RunStartFile RunStart(JsonObject? plan)
        {
            if (_timeout == null && !File.Exists(_startFile))
            {
                DateTime proposed = UtcTime.ToMilliseconds(_proposed ?? DateTime.UtcNow + PreparationEstimate.Lead(plan));
                if (RunStartFile.TryCreate(_startFile, RunIds.New(proposed), proposed, hostCount: null))
                    _cmdlet.WriteVerbose($"Created the start file '{_startFile}': every host starts at {UtcTime.Iso(proposed)}.");
            }
            RunStartFile start = RunStartFile.Read(_startFile, _timeout ?? TimeSpan.Zero, _cmdlet);
            Check(start, _startFile);
            return start;
        }

        private static DateTime Check(RunStartFile start, string path)
        {
            if (start.StartAtUtc <= DateTime.UtcNow)
                throw new StorageTestException(ErrorCodes.StartTimePassed,
                    $"The start instant {UtcTime.Iso(start.StartAtUtc)} in '{path}' has passed: this host would start late and measure a different window than the others. Run the suite again on every host with a new start file (New-StorageTestRun); the tests that completed are not run again.",
                    path);
            return start.StartAtUtc;
        }

        /// <summary>This host in the run folder: its machine name and its suite (two suites on one machine are two hosts).</summary>
        public static string HostId(SuiteState state) => SharedResults.SafeName(Environment.MachineName) + "-" + SharedResults.SafeName(state.SuiteId);

        /// <summary>Writes this host's ready marker once: a host resuming a test keeps the time it was first ready.</summary>
        private static void Register(string ready, string host)
        {
            try
            {
                Directory.CreateDirectory(ready);
                string path = Path.Combine(ready, host + ".json");
                var document = new JsonObject().Set("host", Environment.MachineName).Set("readyUtc", UtcTime.Iso(DateTime.UtcNow));
                using (var stream = new FileStream(path, FileMode.CreateNew, FileAccess.Write, FileShare.Read))
                {
                    byte[] bytes = new UTF8Encoding(false).GetBytes(JsonWriter.Write(document) + "\n");
                    stream.Write(bytes, 0, bytes.Length);
                }
            }
            catch (IOException) when (File.Exists(Path.Combine(ready, host + ".json")))
            {
                // Ready before: the first time counts.
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                throw new StorageTestException(ErrorCodes.PathNotWritable, $"This host's ready marker cannot be written in '{ready}': {ex.Message}", ready, ex);
            }
        }

        private static IEnumerable<string> Markers(string ready) =>
            Directory.Exists(ready) ? Directory.GetFiles(ready, "*.json").Select(f => Path.GetFileNameWithoutExtension(f)!).OrderBy(f => f, StringComparer.Ordinal) : Enumerable.Empty<string>();

        private static DateTime ReadyUtc(string marker)
        {
            try
            {
                return (JsonReader.Parse(File.ReadAllText(marker)) is JsonObject o ? UtcTime.Parse(o.GetString("readyUtc")) : null) ?? DateTime.UtcNow;
            }
            catch (Exception ex) when (ex is IOException || ex is FormatException)
            {
                return DateTime.UtcNow; // being written this moment: it is ready now
            }
        }

        /// <summary>Waits, with a progress bar naming them, until every one of <paramref name="hosts"/> is ready for the test.</summary>
        private void WaitFor(IReadOnlyList<string> hosts, string ready, SuiteTest test)
        {
            DateTime? deadline = _timeout.HasValue ? DateTime.UtcNow + _timeout.Value : (DateTime?)null;
            bool waited = false;
            while (true)
            {
                var missing = hosts.Except(Markers(ready), StringComparer.Ordinal).ToList();
                if (missing.Count == 0) break;
                if (deadline.HasValue && DateTime.UtcNow >= deadline.Value)
                    throw new StorageTestException(ErrorCodes.SuiteHostsMissing,
                        $"{Wording.Count(missing.Count, "host")} of the ESRP suite did not become ready for {test.TestType} within {_timeout}: {string.Join(", ", missing)} (their ready markers are missing from '{ready}').",
                        ready);
                _cmdlet.WriteProgress(new ProgressRecord(2, Activity, $"{test.TestType}: waiting for {string.Join(", ", missing)}") { CurrentOperation = "WaitingForHosts" });
                waited = true;
                if (_cmdlet.Stopping) throw new PipelineStoppedException();
                Thread.Sleep(PollInterval);
                if (_cmdlet.Stopping) throw new PipelineStoppedException();
            }
            if (waited) _cmdlet.WriteProgress(new ProgressRecord(2, Activity, test.TestType) { RecordType = ProgressRecordType.Completed });
        }

        /// <summary>This host's results of <paramref name="test"/> into &lt;run&gt;/&lt;n&gt;-&lt;TestType&gt;/results/ (never over a file).</summary>
        public string Share(SuiteTest test) => SharedResults.Copy(test.ResultsPath!, Path.Combine(RunFolder, test.Folder), test.TestId);
    }
}
