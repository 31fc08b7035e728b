using System.IO;
using System.Management.Automation;
using System.Text.RegularExpressions;
using System;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;

namespace ExchStorageTest.Runs
{
    /// <summary>
    /// Start-file runs: each host's results JSON goes next to the start file, into <c>&lt;run&gt;/results/&lt;host&gt;.json</c>,
    /// where Get-TestReport -Path &lt;run&gt;/results merges them.
    /// </summary>
    internal static class SharedResults
    {
        private static readonly Regex Unsafe = new Regex("[^A-Za-z0-9._-]", RegexOptions.CultureInvariant);

        public const string FolderName = "results";

        /// <summary>A name made safe for a file or folder name on every OS.</summary>
        public static string SafeName(string name)
        {
            string safe = Unsafe.Replace(name, "_");
            return safe.Length == 0 ? "host" : safe;
        }

        /// <summary>
        /// Copies without ever overwriting: when &lt;host&gt;.json exists (a second run of this host into the same run
        /// folder, or two processes on one machine) the copy is named &lt;host&gt;-&lt;testId&gt;.json instead. A copy
        /// that refuses to overwrite is atomic on the file server, so concurrent hosts cannot clobber each other.
        /// Returns the path written.
        /// </summary>
        public static string Copy(string resultsPath, string runFolder, string? testId)
        {
            string folder = Path.Combine(runFolder, FolderName);
            string host = SafeName(Environment.MachineName);
            string suffix = SafeName(string.IsNullOrWhiteSpace(testId) ? Guid.NewGuid().ToString("N").Substring(0, 8) : testId!);
            try
            {
                Directory.CreateDirectory(folder);
                string target = Path.Combine(folder, host + ".json");
                if (TryCopy(resultsPath, target)) return target;
                target = Path.Combine(folder, host + "-" + suffix + ".json");
                if (TryCopy(resultsPath, target)) return target;
                throw new IOException($"'{target}' exists already");
            }
            catch (Exception ex) when (ex is IOException || ex is UnauthorizedAccessException)
            {
                throw new StorageTestException(ErrorCodes.ResultsNotShared,
                    $"The results were saved at '{resultsPath}', but could not be copied to the run folder '{folder}': {ex.Message}",
                    folder, ex);
            }
        }

        private static bool TryCopy(string source, string target)
        {
            try
            {
                File.Copy(source, target, overwrite: false);
                return true;
            }
            catch (IOException) when (File.Exists(target))
            {
                return false;
            }
        }
    }
}
