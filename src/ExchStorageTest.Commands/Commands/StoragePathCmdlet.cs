using System.Collections.Generic;
using System.Management.Automation;
using ExchStorageTest.Input;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// The read-only commands that take database and log locations (Test-StorageVolume, Test-DatabaseChecksum):
    /// paths as strings, FileSystemInfo, or Get-MailboxDatabase objects (EdbFilePath, LogFolderPath bound by
    /// property name, deserialized ones included). Each is resolved against the PowerShell location, checked
    /// before the helper starts, and kept once. Strings are not bound from the pipeline by value, because a
    /// whole database object would bind as its name.
    /// </summary>
    public abstract class StoragePathCmdlet : StorageTestCmdlet
    {
        private readonly HashSet<string> _seen = new HashSet<string>(PathInput.Comparer);
        private readonly List<string> _targets = new List<string>();

        [Parameter(Mandatory = true, Position = 0, ValueFromPipelineByPropertyName = true)]
        [Alias("EdbFilePath", "FullName")]
        public object[]? Path { get; set; }

        [Parameter(ValueFromPipelineByPropertyName = true)]
        [Alias("LogFolderPath")]
        public object[]? LogPath { get; set; }

        /// <summary>The helper target for one resolved path; throws the command's error when it is not there.</summary>
        private protected abstract string Target(string resolvedPath);

        /// <summary>Every target given so far, in order, each once.</summary>
        private protected IReadOnlyList<string> Targets => _targets;

        protected override void ProcessRecord() => Guard(() =>
        {
            foreach (string path in PathInput.ToStrings(Path)) Add(path);
            foreach (string path in PathInput.ToStrings(LogPath)) Add(path);
        });

        private void Add(string path)
        {
            string target = Target(ResolvePath(path));
            if (_seen.Add(target)) _targets.Add(target);
        }
    }
}
