using System.IO;
using System.Linq;
using System.Management.Automation;
using ExchStorageTest.Errors;
using ExchStorageTest.Helper;
using ExchStorageTest.Json;

namespace ExchStorageTest.Commands
{
    /// <summary>
    /// Test-DatabaseChecksum: reads every page of a test's databases and every log file and checks identity and
    /// CRC32C (the eseutil /K equivalent). Read-only; progress while it reads; a stop ends the helper cleanly.
    /// </summary>
    [Cmdlet(VerbsDiagnostic.Test, "DatabaseChecksum")]
    [OutputType(typeof(ChecksumResult))]
    public sealed class TestDatabaseChecksumCommand : StoragePathCmdlet
    {
        private protected override string Target(string resolvedPath)
        {
            if (!File.Exists(resolvedPath) && !Directory.Exists(resolvedPath))
                throw new StorageTestException("PathNotFound", $"The file or folder '{resolvedPath}' does not exist.", ErrorCategory.ObjectNotFound, resolvedPath);
            return resolvedPath;
        }

        protected override void EndProcessing() => Guard(() =>
        {
            if (Targets.Count == 0) return;
            var request = new JsonObject()
                .Set("protocol", HelperProcess.ProtocolVersion)
                .Set("command", "verify")
                .Set("paths", Targets);
            foreach (HelperEvent verify in RunHelper(request, "Verifying database and log checksums").OfType("verify"))
                foreach (JsonObject file in verify.Fields.GetArray("files").OfType<JsonObject>())
                    WriteObject(ChecksumResult.From(file));
        });
    }
}
