using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Test-DatabaseChecksum: reads every page of a test's databases and every log file and checks identity and
    /// CRC32C (the eseutil /K equivalent). Read-only; progress while it reads; a stop ends the helper cleanly. The
    /// engine refuses a path that does not exist.
    /// </summary>
    [Cmdlet(VerbsDiagnostic.Test, "DatabaseChecksum")]
    [OutputType(typeof(ChecksumResult))]
    public sealed class TestDatabaseChecksumCommand : StorageCheckCmdlet
    {
        private protected override string HelperCommand => HelperCommands.Verify;
        private protected override string ItemList => EventFields.Verify.Files;
        private protected override string Activity => "Verifying database and log checksums";

        private protected override string Target(string resolvedPath) => resolvedPath;

        private protected override object ToOutput(JsonObject item) => ChecksumResult.From(item);
    }
}
