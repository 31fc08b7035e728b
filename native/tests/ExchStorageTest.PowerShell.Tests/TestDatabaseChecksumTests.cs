using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>Test-DatabaseChecksum over the databases and logs a real run created, intact and damaged.</summary>
[Collection(FinishedRunsCollection.Name)]
public class TestDatabaseChecksumTests
{
    private const string Command = "ExchStorageTest.Commands.TestDatabaseChecksumCommand";
    private const int PageSize = 32 * 1024;
    private readonly FinishedRuns _runs;
    private readonly PowerShellSession _ps;

    public TestDatabaseChecksumTests(FinishedRuns runs)
    {
        _runs = runs;
        _ps = runs.Session;
    }

    private string Database(int n) => _runs.Folder.Combine($"DB{n}", $"ExchStorageTest00{n}.edb");

    [Fact]
    public void The_databases_and_logs_of_a_run_have_no_bad_pages_and_progress_is_shown()
    {
        var run = _ps.Run("Test-DatabaseChecksum -Path $args[0]", _runs.Folder.Path);
        Assert.Null(run.Exception);
        var results = run.Output;
        Assert.All(results, r => Assert.Equal("ExchStorageTest.ChecksumResult", r.TypeNames[0]));
        Assert.All(results, r => Assert.Equal("Pass", r.Properties["Result"].Value));
        FormatViews.AssertMatch(results[0]);

        var databases = results.Where(r => (string)r.Properties["Kind"].Value == "Database").ToList();
        Assert.Equal(new[] { Database(1), Database(2) }, databases.Select(r => (string)r.Properties["Path"].Value).ToArray());
        foreach (var db in databases)
        {
            // Every data page of the file was read: all but the header page.
            long pages = new FileInfo((string)db.Properties["Path"].Value).Length / PageSize;
            Assert.Equal(pages - 1, (long)db.Properties["PagesChecked"].Value);
            Assert.Equal(0L, (long)db.Properties["BadPages"].Value);
        }
        var logs = results.Where(r => (string)r.Properties["Kind"].Value == "Log").ToList();
        Assert.Equal(Directory.GetFiles(_runs.Folder.Combine("DB1", "Logs"), "E00*.log").Length + Directory.GetFiles(_runs.Folder.Combine("DB2", "Logs"), "E00*.log").Length, logs.Count);
        Assert.All(logs, l => Assert.Equal(0L, (long)l.Properties["BadLogs"].Value));

        Assert.Contains(run.Progress, p => p.CurrentOperation == "Checksum" && p.PercentComplete >= 0);
        Assert.Contains(run.Progress, p => p.RecordType == ProgressRecordType.Completed);
    }

    [Fact]
    public void A_damaged_page_fails_its_database_and_is_named()
    {
        using var dir = new ScratchFolder("tdc");
        string copy = Path.Combine(dir.Sub("DB1"), "ExchStorageTest001.edb");
        File.Copy(Database(1), copy);
        const long damaged = 100;
        using (var file = new FileStream(copy, FileMode.Open, FileAccess.ReadWrite))
        {
            var bytes = new byte[16];
            file.Position = damaged * PageSize + 4000;
            Assert.Equal(bytes.Length, file.Read(bytes, 0, bytes.Length));
            for (int i = 0; i < bytes.Length; i++) bytes[i] ^= 0xFF;
            file.Position = damaged * PageSize + 4000;
            file.Write(bytes, 0, bytes.Length);
        }
        var before = File.GetLastWriteTimeUtc(copy);

        var run = _ps.Run("Test-DatabaseChecksum -Path $args[0]", copy);
        Assert.Null(run.Exception); // a bad page is a result, not an error
        var result = run.Single();
        Assert.Equal(copy, result.Properties["Path"].Value);
        Assert.Equal("Fail", result.Properties["Result"].Value);
        Assert.Equal(1L, (long)result.Properties["BadPages"].Value);
        Assert.Contains($"page {damaged}: checksum mismatch", (string)result.Properties["Message"].Value);
        Assert.Equal(before, File.GetLastWriteTimeUtc(copy)); // read-only
    }

    [Fact]
    public void Database_objects_bind_the_edb_file_and_the_log_folder()
    {
        var run = _ps.Run("[pscustomobject]@{ EdbFilePath = $args[0]; LogFolderPath = $args[1] } | Test-DatabaseChecksum",
            Database(2), _runs.Folder.Combine("DB2", "Logs"));
        Assert.Null(run.Exception);
        Assert.Equal(Database(2), run.Output.Single(r => (string)r.Properties["Kind"].Value == "Database").Properties["Path"].Value);
        Assert.Equal(Directory.GetFiles(_runs.Folder.Combine("DB2", "Logs"), "E00*.log").Length, run.Output.Count(r => (string)r.Properties["Kind"].Value == "Log"));
    }

    [Fact]
    public void A_missing_path_is_refused_with_PathNotFound_before_anything_is_read()
    {
        // The engine's verify command owns the rule (one validator) and refuses the request before it reads a page.
        using var dir = new ScratchFolder("tdc");
        string missing = dir.Combine("missing.edb");
        var run = _ps.Run("Test-DatabaseChecksum -Path $args[0] -Verbose", missing);
        Assert.Empty(run.Output);
        Assert.Equal($"ExchStorageTest.PathNotFound,{Command}", run.Error?.FullyQualifiedErrorId);
        Assert.Contains(missing, run.Error!.Exception.Message);
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void A_folder_without_databases_or_logs_is_the_helpers_DatabaseMissing_error()
    {
        using var dir = new ScratchFolder("tdc");
        var run = _ps.Run("Test-DatabaseChecksum -Path $args[0]", dir.Path);
        Assert.Empty(run.Output);
        Assert.Equal($"ExchStorageTest.DatabaseMissing,{Command}", run.Error?.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.ObjectNotFound, run.Error!.CategoryInfo.Category);
        Assert.Empty(dir.Entries());
    }
}
