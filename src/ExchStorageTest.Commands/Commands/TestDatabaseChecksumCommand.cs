using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Test-DatabaseChecksum: reads every page of a test's databases and every log file and checks identity and
    /// checksum (the eseutil /K equivalent). Read-only; progress while it reads; a stop ends the engine cleanly. The
    /// engine refuses a path that does not exist. One object per database and per log stream (a folder of log
    /// generations, hundreds after a short run); -Detailed gives one per file.
    /// </summary>
    [Cmdlet(VerbsDiagnostic.Test, "DatabaseChecksum", HelpUri = HelpLinks.TestDatabaseChecksum)]
    [OutputType(typeof(ChecksumResult))]
    public sealed class TestDatabaseChecksumCommand : StorageCheckCmdlet
    {
        /// <summary>One object per log file instead of one per log stream.</summary>
        [Parameter]
        public SwitchParameter Detailed { get; set; }

        private protected override string EngineCommand => EngineCommands.Verify;
        private protected override string ItemList => EventFields.Verify.Files;
        private protected override string Activity => "Verifying database and log checksums";

        private protected override string Target(string resolvedPath) => resolvedPath;

        private protected override object ToOutput(JsonObject item) => ChecksumResult.From(item);

        private protected override IEnumerable<object> Output(IEnumerable<JsonObject> items)
        {
            var files = items.Select(ChecksumResult.From).ToList();
            if (Detailed) return files;
            // Databases stay one object each; the log files of one folder are one stream, summed, in the order met.
            var output = new List<object>();
            var streams = new Dictionary<string, List<ChecksumResult>>(PathInput.Comparer);
            foreach (ChecksumResult file in files)
            {
                if (file.Kind != ChecksumResult.LogKind) { output.Add(file); continue; }
                string folder = System.IO.Path.GetDirectoryName(file.Path ?? "") ?? "";
                if (!streams.TryGetValue(folder, out var stream))
                {
                    streams[folder] = stream = new List<ChecksumResult>();
                    output.Add(stream);
                }
                stream.Add(file);
            }
            return output.Select(o => o is List<ChecksumResult> logs ? ChecksumResult.LogStream(logs) : o);
        }
    }
}
