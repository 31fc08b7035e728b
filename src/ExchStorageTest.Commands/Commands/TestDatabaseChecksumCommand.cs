using System.IO;
using System.Management.Automation;
using ExchStorageTest.Contract;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Test-DatabaseChecksum: reads every page of a test's databases and every log file and checks identity and
    /// CRC32C (the eseutil /K equivalent). Read-only; progress while it reads; a stop ends the helper cleanly.
    /// </summary>
    [Cmdlet(VerbsDiagnostic.Test, "DatabaseChecksum")]
    [OutputType(typeof(ChecksumResult))]
    public sealed class TestDatabaseChecksumCommand : StorageCheckCmdlet
    {
        private protected override string HelperCommand => HelperCommands.Verify;
        private protected override string ItemList => EventFields.Verify.Files;
        private protected override string Activity => "Verifying database and log checksums";

        private protected override string Target(string resolvedPath)
        {
            if (!File.Exists(resolvedPath) && !Directory.Exists(resolvedPath))
                throw new StorageTestException("PathNotFound", $"The file or folder '{resolvedPath}' does not exist.", ErrorCategory.ObjectNotFound, resolvedPath);
            return resolvedPath;
        }

        private protected override object ToOutput(JsonObject item) => ChecksumResult.From(item);
    }
}
