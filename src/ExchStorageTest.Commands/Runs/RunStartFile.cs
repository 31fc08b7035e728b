using System.IO;
using System.Management.Automation;
using System.Text;
using System.Threading;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// The start file of a run on a share (<c>&lt;run&gt;/start.json</c>): the common UTC instant at which every host
    /// starts loading; each measures from it + the lead its plan derives from the settings (<see cref="RunInstants"/>). UTF-8 JSON without a byte-order mark:
    /// <c>{ schema: "exchstoragetest/run", schemaVersion: 1, runId, startAtUtc, hostCount, faultScriptHost, createdBy, createdUtc }</c>.
    /// <c>faultScriptHost</c> names the one host that starts a fault script (docs/failure-mode.md); a file without it
    /// (written before it existed) names its creator.
    /// </summary>
    internal sealed class RunStartFile
    {
        public const string Schema = "exchstoragetest/run";
        public const string FileName = "start.json";

        // Another host may be writing the file this moment: an empty or half-written file is read again for
        // this long before it counts as malformed.
        private static readonly TimeSpan SettleTime = TimeSpan.FromSeconds(10);
        private static readonly TimeSpan PollInterval = TimeSpan.FromMilliseconds(500);

        public RunStartFile(string path, string runId, DateTime startAtUtc, int? hostCount, string? createdBy, string? faultScriptHost = null)
        {
            FaultScriptHost = string.IsNullOrWhiteSpace(faultScriptHost) ? createdBy : faultScriptHost;
            Path = path;
            RunId = runId;
            StartAtUtc = startAtUtc;
            HostCount = hostCount;
            CreatedBy = createdBy;
        }

        public string Path { get; }
        public string RunId { get; }
        public DateTime StartAtUtc { get; }
        public int? HostCount { get; }
        public string? CreatedBy { get; }

        /// <summary>The machine name of the one host of the run that starts a fault script (every host judges the window).</summary>
        public string? FaultScriptHost { get; }

        /// <summary>
        /// Creates the file with FileMode.CreateNew, which the file server makes atomic: when several hosts race to
        /// create it, exactly one wins and the others read the winner's instant. Returns false when it existed
        /// already; <paramref name="replace"/> (New-StorageTestRun -Force) replaces an existing one instead.
        /// <paramref name="faultScriptHost"/> is the host that starts a fault script; null: this computer.
        /// </summary>
        public static bool TryCreate(string path, string runId, DateTime startAtUtc, int? hostCount, bool replace = false, string? faultScriptHost = null)
        {
            var document = new JsonObject()
                .Set("schema", Schema)
                .Set("schemaVersion", 1)
                .Set("runId", runId)
                .Set("startAtUtc", UtcTime.Iso(startAtUtc))
                .Set("hostCount", hostCount)
                .Set(RequestFields.FaultScriptHost, string.IsNullOrWhiteSpace(faultScriptHost) ? Environment.MachineName : faultScriptHost!.Trim())
                .Set("createdBy", Environment.MachineName)
                .Set("createdUtc", UtcTime.Iso(DateTime.UtcNow));
            byte[] bytes = new UTF8Encoding(false).GetBytes(JsonWriter.Write(document, indented: true) + "\n");
            FileStream stream;
            try
            {
                stream = new FileStream(path, replace ? FileMode.Create : FileMode.CreateNew, FileAccess.Write, FileShare.Read);
            }
            catch (IOException) when (!replace && File.Exists(path))
            {
                return false;
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                throw NotWritable(path, ex);
            }
            using (stream)
            {
                try
                {
                    stream.Write(bytes, 0, bytes.Length);
                    stream.Flush();
                }
                catch (IOException ex)
                {
                    throw NotWritable(path, ex);
                }
            }
            return true;
        }

        private static StorageTestException NotWritable(string path, Exception ex) =>
            new StorageTestException(ErrorCodes.PathNotWritable, $"The start file '{path}' cannot be written: {ex.Message}", path, ex);

        /// <summary>The file as it is now, or null with the reason it is not (yet) a start file.</summary>
        public static RunStartFile? TryRead(string path, out string problem)
        {
            problem = "";
            JsonObject? document;
            try
            {
                document = JsonReader.Parse(File.ReadAllText(path, Encoding.UTF8)) as JsonObject;
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException || ex is FormatException)
            {
                problem = ex.Message;
                return null;
            }
            DateTime? startAt = UtcTime.Parse(document?.GetString("startAtUtc"));
            if (document == null || document.GetString("schema") != Schema || startAt == null)
            {
                problem = $"it holds no schema '{Schema}' with a startAtUtc instant";
                return null;
            }
            double? hosts = document.GetNumber("hostCount");
            return new RunStartFile(path, document.GetString("runId") ?? "", startAt.Value, hosts.HasValue ? (int)hosts.Value : (int?)null, document.GetString("createdBy"),
                document.GetString(RequestFields.FaultScriptHost));
        }

        /// <summary>
        /// Reads the start file, waiting up to <paramref name="timeout"/> for it to appear (with a progress bar that
        /// counts down) and a few seconds for a writer to finish it. A stop ends the wait at once.
        /// </summary>
        public static RunStartFile Read(string path, TimeSpan timeout, Cmdlet cmdlet)
        {
            const string activity = "Waiting for the start file";
            DateTime deadline = DateTime.UtcNow + timeout;
            bool waited = false;
            while (!File.Exists(path))
            {
                TimeSpan left = deadline - DateTime.UtcNow;
                if (left <= TimeSpan.Zero)
                {
                    string folder = System.IO.Path.GetDirectoryName(path) ?? path;
                    throw new StorageTestException(ErrorCodes.StartFileNotFound,
                        $"The start file '{path}' does not exist (waited {timeout}). Create it with: New-StorageTestRun -Path '{folder}' -StartAtUtc <instant>",
                        path);
                }
                cmdlet.WriteProgress(new ProgressRecord(1, activity, path) { SecondsRemaining = (int)Math.Ceiling(left.TotalSeconds) });
                waited = true;
                Pause(cmdlet, left < PollInterval ? left : PollInterval);
            }
            if (waited) cmdlet.WriteProgress(new ProgressRecord(1, activity, path) { RecordType = ProgressRecordType.Completed });

            DateTime settled = DateTime.UtcNow + SettleTime;
            while (true)
            {
                RunStartFile? start = TryRead(path, out string problem);
                if (start != null) return start;
                if (DateTime.UtcNow >= settled)
                    throw new StorageTestException(ErrorCodes.StartFileMalformed, $"The start file '{path}' is not a valid start file: {problem}.", path);
                Pause(cmdlet, PollInterval);
            }
        }

        private static void Pause(Cmdlet cmdlet, TimeSpan time)
        {
            if (cmdlet.Stopping) throw new PipelineStoppedException();
            Thread.Sleep(time);
            if (cmdlet.Stopping) throw new PipelineStoppedException();
        }
    }
}
