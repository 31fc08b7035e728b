using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>Test-StorageVolume through the real helper on real folders.</summary>
public class TestStorageVolumeTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;

    public TestStorageVolumeTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void A_real_folder_gives_findings_about_its_volume()
    {
        using var dir = new ScratchFolder("tsv");
        var run = _ps.Run("Test-StorageVolume -Path $args[0]", dir.Path);
        Assert.Null(run.Exception);
        Assert.NotEmpty(run.Output);
        foreach (var finding in run.Output)
        {
            Assert.Equal("ExchStorageTest.VolumeFinding", finding.TypeNames[0]);
            Assert.Equal(dir.Path, finding.Properties["Path"].Value);
            Assert.Contains((string)finding.Properties["Severity"].Value, new[] { "Info", "Warning", "Error" });
            Assert.False(string.IsNullOrEmpty((string)finding.Properties["Check"].Value));
            Assert.False(string.IsNullOrEmpty((string)finding.Properties["Message"].Value));
            Assert.False(string.IsNullOrEmpty((string)finding.Properties["Volume"].Value));
            FormatViews.AssertMatch(finding);
        }
        if (OperatingSystem.IsLinux())
        {
            // Not NTFS or ReFS: said once, with the file system the helper found.
            var fileSystem = Assert.Single(run.Output, f => (string)f.Properties["Check"].Value == "FileSystemNotExchange");
            Assert.False(string.IsNullOrEmpty((string)fileSystem.Properties["FileSystem"].Value));
            Assert.Contains((string)fileSystem.Properties["FileSystem"].Value, (string)fileSystem.Properties["Message"].Value);
        }
        Assert.Empty(dir.Entries()); // read-only
    }

    [Fact]
    public void Database_objects_bind_their_edb_folder_and_log_folder_in_one_call()
    {
        // Shaped like Get-MailboxDatabase output: EdbFilePath names the .edb (its folder is inspected); through
        // implicit remoting the path objects arrive deserialized, with the path in PathName.
        using var dir = new ScratchFolder("tsv");
        string db = dir.Sub("DB1"), logs = dir.Sub("L1");
        var run = _ps.Run(
            "[pscustomobject]@{ EdbFilePath = [IO.Path]::Combine($args[0], 'DB1.edb'); LogFolderPath = [pscustomobject]@{ PathName = $args[1] } } | Test-StorageVolume -Verbose",
            db, logs);
        Assert.Null(run.Exception);
        Assert.Equal(new[] { db, logs }, run.Output.Select(f => (string)f.Properties["Path"].Value).Distinct().ToArray());
        Assert.Single(run.Verbose, v => v.Message.StartsWith("ExchStorageTest engine", StringComparison.Ordinal));
    }

    [Fact]
    public void A_missing_folder_is_refused_with_PathNotFound_before_any_folder_is_inspected()
    {
        // The engine's inspect command owns the rule (one validator): it refuses the request before inspecting the other path.
        using var dir = new ScratchFolder("tsv");
        string missing = dir.Combine("missing");
        var run = _ps.Run("Test-StorageVolume -Path $args[0], $args[1] -Verbose", dir.Path, missing);
        Assert.Empty(run.Output);
        Assert.Equal("ExchStorageTest.PathNotFound,ExchStorageTest.Commands.TestStorageVolumeCommand", run.Error?.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.ObjectNotFound, run.Error!.CategoryInfo.Category);
        Assert.Contains(missing, run.Error.Exception.Message);
        Assert.Empty(dir.Entries());
    }
}
