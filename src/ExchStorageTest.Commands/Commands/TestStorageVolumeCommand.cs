using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>Test-StorageVolume: the volumes under database and log folders against Exchange storage practice. Read-only.</summary>
    [Cmdlet(VerbsDiagnostic.Test, "StorageVolume")]
    [OutputType(typeof(VolumeFinding))]
    public sealed class TestStorageVolumeCommand : StoragePathCmdlet
    {
        private protected override string Target(string resolvedPath)
        {
            string folder = PathInput.DatabaseFolder(resolvedPath);
            if (!Directory.Exists(folder))
                throw new StorageTestException("PathNotFound", $"The folder '{folder}' does not exist: create it, or correct the path.", ErrorCategory.ObjectNotFound, folder);
            return folder;
        }

        protected override void EndProcessing() => Guard(() =>
        {
            if (Targets.Count == 0) return;
            var request = new JsonObject()
                .Set("protocol", HelperProcess.ProtocolVersion)
                .Set("command", "inspect")
                .Set("paths", Targets);
            foreach (HelperEvent inspect in RunHelper(request, "Inspecting storage volumes").OfType("inspect"))
                foreach (JsonObject finding in inspect.Fields.GetArray("findings").OfType<JsonObject>())
                    WriteObject(VolumeFinding.From(finding));
        });
    }
}
