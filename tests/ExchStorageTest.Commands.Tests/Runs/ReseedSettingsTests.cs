using System.Collections;
using ExchStorageTest.Errors;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.Runs;

/// <summary>
/// -ReseedPath (docs/failure-mode.md, "A reseed during the load"): the one run setting of a reseed, what the request
/// carries, what -WhatIf says, and the rules the module checks before anything is written (the engine checks the rest
/// when it plans: the spare's volume, its free space, whether it can be written).
/// </summary>
public sealed class ReseedSettingsTests : IDisposable
{
    private static readonly MailboxProfile Profile = new() { Name = "p", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };
    private readonly string _spare = Path.Combine(Path.GetTempPath(), "exst-spare-" + Guid.NewGuid().ToString("N")[..8]);

    public ReseedSettingsTests() => Directory.CreateDirectory(_spare);

    public void Dispose() => Directory.Delete(_spare, recursive: true);

    private RunSettings Given(bool faultAt = true, string? spare = null)
    {
        var bound = new Hashtable { ["Duration"] = TimeSpan.FromMinutes(3), ["ReseedPath"] = spare ?? _spare };
        if (faultAt) bound["FaultAt"] = TimeSpan.FromMinutes(1);
        return RunSettings.FromParameters(bound, p => p);
    }

    [Fact]
    public void The_spare_folder_reaches_the_engine_as_a_field_of_the_run_request()
    {
        JsonObject request = Given().ToRequest(EngineCommands.Run, Profile, testId: "t1");
        Assert.Equal(_spare, request.GetString(RequestFields.ReseedPath));
        Assert.True(EngineCommands.Find(EngineCommands.Run)!.Takes(RequestFields.ReseedPath));
        Assert.True(EngineCommands.Find(EngineCommands.Plan)!.Takes(RequestFields.ReseedPath));
    }

    [Fact]
    public void WhatIf_states_the_reseed_its_rate_and_that_the_copy_is_removed()
    {
        string text = FaultText.Describe(Given())!;
        Assert.Contains($"a reseed streams a copy of the first database onto '{_spare}'", text);
        Assert.Contains("256 KiB sequential reads and writes at 119.2 MB/s", text);
        Assert.Contains("removed when the seed ends", text);
        Assert.DoesNotContain("No fault script", text);
    }

    [Fact]
    public void A_reseed_without_a_fault_window_or_without_its_folder_is_refused_with_a_named_error()
    {
        UnplannedSettings.Check(Given());
        var noWindow = Assert.Throws<StorageTestException>(() => UnplannedSettings.Check(Given(faultAt: false)));
        Assert.Equal("ExchStorageTest." + ErrorCodes.ReseedPathInvalid.Code, noWindow.ErrorRecord.FullyQualifiedErrorId);
        Assert.Contains("ReseedPath needs FaultAt", noWindow.Message);

        string missing = Path.Combine(_spare, "none");
        var notFound = Assert.Throws<StorageTestException>(() => UnplannedSettings.Check(Given(spare: missing)));
        Assert.Equal("ExchStorageTest." + ErrorCodes.ReseedPathNotFound.Code, notFound.ErrorRecord.FullyQualifiedErrorId);
        Assert.Contains(missing, notFound.Message);
    }
}
