using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>Test-StorageVolume: the volumes under database and log folders against Exchange storage practice. Read-only.</summary>
    [Cmdlet(VerbsDiagnostic.Test, "StorageVolume")]
    [OutputType(typeof(VolumeFinding))]
    public sealed class TestStorageVolumeCommand : StorageCheckCmdlet
    {
        private protected override string HelperCommand => HelperCommands.Inspect;
        private protected override string ItemList => EventFields.Inspect.Findings;
        private protected override string Activity => "Inspecting storage volumes";

        private protected override string Target(string resolvedPath)
        {
            string folder = PathInput.DatabaseFolder(resolvedPath);
            if (!Directory.Exists(folder))
                throw new StorageTestException("PathNotFound", $"The folder '{folder}' does not exist: create it, or correct the path.", ErrorCategory.ObjectNotFound, folder);
            return folder;
        }

        private protected override object ToOutput(JsonObject item) => VolumeFinding.From(item);
    }
}
