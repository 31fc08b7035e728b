using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Input;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Test-StorageVolume: the volumes under database and log folders against Exchange storage practice. Read-only.
    /// An .edb file (Get-MailboxDatabase's EdbFilePath) stands for its folder; the engine refuses a folder that does not exist.
    /// </summary>
    [Cmdlet(VerbsDiagnostic.Test, "StorageVolume", HelpUri = HelpLinks.TestStorageVolume)]
    [OutputType(typeof(VolumeFinding))]
    public sealed class TestStorageVolumeCommand : StorageCheckCmdlet
    {
        private protected override string EngineCommand => EngineCommands.Inspect;
        private protected override string ItemList => EventFields.Inspect.Findings;
        private protected override string Activity => "Inspecting storage volumes";

        private protected override string Target(string resolvedPath) => PathInput.DatabaseFolder(resolvedPath);

        private protected override object ToOutput(JsonObject item) => VolumeFinding.From(item);
    }
}
