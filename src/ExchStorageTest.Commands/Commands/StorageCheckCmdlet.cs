using System.Collections.Generic;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// The read-only checks of database and log locations (Test-StorageVolume, Test-DatabaseChecksum): paths as
    /// strings, FileSystemInfo, or Get-MailboxDatabase objects (EdbFilePath, LogFolderPath bound by property name,
    /// deserialized ones included), each resolved against the PowerShell location and kept once; then one engine
    /// command over all of them (which refuses a path that does not exist), whose event lists one item per output
    /// object. Strings are not bound from the pipeline by value, because a whole database object would bind as
    /// its name.
    /// </summary>
    public abstract class StorageCheckCmdlet : StorageTestCmdlet
    {
        private readonly HashSet<string> _seen = new HashSet<string>(PathInput.Comparer);
        private readonly List<string> _targets = new List<string>();

        [Parameter(Mandatory = true, Position = 0, ValueFromPipelineByPropertyName = true)]
        [Alias("EdbFilePath", "FullName")]
        public object[]? Path { get; set; }

        [Parameter(ValueFromPipelineByPropertyName = true)]
        [Alias("LogFolderPath")]
        public object[]? LogPath { get; set; }

        /// <summary>The engine command (docs/protocol.md); its event has the same type.</summary>
        private protected abstract string EngineCommand { get; }

        /// <summary>The event's list with one item per output object.</summary>
        private protected abstract string ItemList { get; }

        private protected abstract string Activity { get; }

        /// <summary>The engine target for one resolved path.</summary>
        private protected abstract string Target(string resolvedPath);

        private protected abstract object ToOutput(JsonObject item);

        /// <summary>The output objects of the event's items: one each, unless a command summarises them.</summary>
        private protected virtual IEnumerable<object> Output(IEnumerable<JsonObject> items) => items.Select(ToOutput);

        protected override void ProcessRecord() => Guard(() =>
        {
            foreach (string path in PathInput.ToStrings(Path)) Add(path);
            foreach (string path in PathInput.ToStrings(LogPath)) Add(path);
        });

        protected override void EndProcessing() => Guard(() =>
        {
            if (_targets.Count == 0) return;
            var request = EngineRequest.For(EngineCommand).Set(RequestFields.Paths, _targets);
            foreach (EngineEvent done in RunEngine(request, Activity).OfType(EngineCommand))
                foreach (object output in Output(done.Fields.GetArray(ItemList).OfType<JsonObject>()))
                    WriteObject(output);
        });

        private void Add(string path)
        {
            string target = Target(ResolvePath(path));
            if (_seen.Add(target)) _targets.Add(target);
        }
    }
}
