using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// The catalogue of bad inputs: each stops with a terminating error whose ErrorId is stable (documented in
/// docs/about_ExchStorageTest.md), whose message names the bad value, and leaves the target folder untouched —
/// nothing is written before validation passes. $args[0] is the (empty) target folder, $args[1] a folder of
/// fixture files outside it.
/// </summary>
public class BadInputTests : IClassFixture<SessionFixture>, IDisposable
{
    private const string Small = "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0]";
    private readonly PowerShellSession _ps;
    private readonly ScratchFolder _fixtures = new("bad-fixtures");

    public BadInputTests(SessionFixture fixture)
    {
        _ps = fixture.Session;
        Directory.CreateDirectory(_fixtures.Combine("empty-folder"));
        File.WriteAllText(_fixtures.Combine("malformed.json"), "{ \"mailboxCount\": 10, ");
        File.WriteAllText(_fixtures.Combine("array.json"), "[1, 2, 3]");
        File.WriteAllText(_fixtures.Combine("zero-mailboxes.json"), "{ \"name\": \"x\", \"mailboxCount\": 0, \"iopsPerMailbox\": 0.1, \"mailboxSizeMB\": 10, \"databaseCount\": 1, \"databasePaths\": [\"/tmp\"] }");
        File.WriteAllText(_fixtures.Combine("malformed.xml"), "<configuration><ExchangeProfile><MailboxCount>10</MailboxCount>");
        File.WriteAllText(_fixtures.Combine("no-mailboxcount.xml"), "<configuration><ExchangeProfile><MailboxIops>0.1</MailboxIops><MailboxQuota>100</MailboxQuota></ExchangeProfile></configuration>");
        File.WriteAllText(_fixtures.Combine("other.json"), "{ \"schema\": \"something/else\" }");
    }

    public static TheoryData<string, string, string, string> Cases => new()
    {
        // name, script, ErrorId, text the message must contain (the bad value)
        { "MailboxCount 0", "New-MailboxProfile -MailboxCount 0 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0]", "MailboxCountOutOfRange", "'0'" },
        { "MailboxCount negative", "New-MailboxProfile -MailboxCount -5 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0]", "MailboxCountOutOfRange", "'-5'" },
        { "IopsPerMailbox 0", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0 -MailboxSizeMB 10 -Path $args[0]", "IopsPerMailboxOutOfRange", "'0'" },
        { "IopsPerMailbox negative", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox -0.1 -MailboxSizeMB 10 -Path $args[0]", "IopsPerMailboxOutOfRange", "'-0.1'" },
        { "IopsPerMailbox above 100", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 1000 -MailboxSizeMB 10 -Path $args[0]", "IopsPerMailboxOutOfRange", "'1000'" },
        { "MailboxSizeMB 0", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 0 -Path $args[0]", "MailboxSizeOutOfRange", "'0'" },
        { "DatabaseCount 0", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 0 -Path $args[0]", "DatabaseCountOutOfRange", "'0'" },
        { "more databases than mailboxes", "New-MailboxProfile -MailboxCount 2 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 3 -Path $args[0]", "DatabaseCountOutOfRange", "'3'" },
        { "CopiesPerDatabase 17", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -CopiesPerDatabase 17 -Path $args[0]", "CopiesOutOfRange", "'17'" },
        { "HeadroomPercent negative", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -HeadroomPercent -1 -MailboxSizeMB 10 -Path $args[0]", "HeadroomOutOfRange", "'-1'" },
        { "ThreadCount 0", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -ThreadCount 0 -Path $args[0]", "ThreadCountOutOfRange", "'0'" },
        { "maximum cache below minimum", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -MinimumDatabaseCacheMB 512 -MaximumDatabaseCacheMB 256 -Path $args[0]", "CacheSizeInvalid", "'256'" },
        { "profile name with a slash", "New-MailboxProfile -Name 'a/b' -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0]", "ProfileNameInvalid", "'a/b'" },
        { "description over 1024 characters", "New-MailboxProfile -Description ('x' * 1025) -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0]", "DescriptionTooLong", "1025" },
        { "three database paths for two databases", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path ($args[0] + '/a'), ($args[0] + '/b'), ($args[0] + '/c')", "PathCountMismatch", "3 database paths" },
        { "three log paths for two databases", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0] -LogPath ($args[0] + '/a'), ($args[0] + '/b'), ($args[0] + '/c')", "PathCountMismatch", "3 log paths" },
        { "SaveTo in a missing folder", Small + " -SaveTo ($args[0] + '/missing/p.json')", "SaveFolderNotFound", "missing" },
        { "SaveTo a folder", Small + " -SaveTo $args[1]", "ProfileExists", "is a folder" },
        { "JetstressConfig file missing", "New-MailboxProfile -JetstressConfig ($args[1] + '/nope.xml')", "JetstressConfigNotFound", "nope.xml" },
        { "JetstressConfig not XML", "New-MailboxProfile -JetstressConfig ($args[1] + '/malformed.xml')", "JetstressConfigMalformed", "malformed.xml" },
        { "JetstressConfig without MailboxCount", "New-MailboxProfile -JetstressConfig ($args[1] + '/no-mailboxcount.xml')", "JetstressConfigMalformed", "<MailboxCount>" },
        { "profile file missing", "Invoke-StorageTest -ProfilePath ($args[1] + '/nope.json') -Confirm:$false", "ProfileNotFound", "nope.json" },
        { "profile file not JSON", "Invoke-StorageTest -ProfilePath ($args[1] + '/malformed.json') -Confirm:$false", "ProfileMalformed", "malformed.json" },
        { "profile file holds an array", "Invoke-StorageTest -ProfilePath ($args[1] + '/array.json') -Confirm:$false", "ProfileMalformed", "array.json" },
        { "profile file with zero mailboxes", "Invoke-StorageTest -ProfilePath ($args[1] + '/zero-mailboxes.json') -Confirm:$false", "MailboxCountOutOfRange", "'0'" },
        { "profile both piped and by path", Small + " | Invoke-StorageTest -ProfilePath ($args[1] + '/zero-mailboxes.json') -StartFile ($args[0] + '/start.json') -Confirm:$false", "ConflictingProfileSettings", "-ProfilePath" },
        { "database folder does not exist", "New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path ($args[0] + '/missing') | Invoke-StorageTest -Confirm:$false", "PathNotFound", "missing" },
        { "log folder does not exist", Small + " -LogPath ($args[0] + '/missing-logs') | Invoke-StorageTest -Confirm:$false", "PathNotFound", "missing-logs" },
        { "Duration zero", Small + " | Invoke-StorageTest -Duration 0 -Confirm:$false", "DurationOutOfRange", "'00:00:00'" },
        { "Duration negative", Small + " | Invoke-StorageTest -Duration ([timespan]::FromMinutes(-1)) -Confirm:$false", "DurationOutOfRange", "'-00:01:00'" },
        { "Duration over 30 days", Small + " | Invoke-StorageTest -Duration ([timespan]::FromDays(31)) -Confirm:$false", "DurationOutOfRange", "'31.00:00:00'" },
        { "Warmup negative", Small + " | Invoke-StorageTest -Warmup ([timespan]::FromSeconds(-1)) -Confirm:$false", "WarmupOutOfRange", "'-00:00:01'" },
        { "SampleIntervalSeconds 0", Small + " | Invoke-StorageTest -SampleIntervalSeconds 0 -Confirm:$false", "SampleIntervalOutOfRange", "'0'" },
        { "ThreadCount and TargetRateIops together", Small + " | Invoke-StorageTest -ThreadCount 4 -TargetRateIops 100 -Confirm:$false", "ConflictingLoadSettings", "TargetRateIops" },
        { "ThreadCount override 0", Small + " | Invoke-StorageTest -ThreadCount 0 -Confirm:$false", "ThreadCountOutOfRange", "'0'" },
        { "TargetRateIops 0", Small + " | Invoke-StorageTest -TargetRateIops 0 -Confirm:$false", "TargetRateOutOfRange", "'0'" },
        { "Restore without RestoreFromPath", Small + " | Invoke-StorageTest -DatabaseSource Restore -Confirm:$false", "RestorePathMissing", "RestoreFromPath" },
        { "RestoreFromPath missing", Small + " | Invoke-StorageTest -DatabaseSource Restore -RestoreFromPath ($args[1] + '/no-backup') -Confirm:$false", "RestorePathNotFound", "no-backup" },
        { "RestoreFromPath without Restore", Small + " | Invoke-StorageTest -RestoreFromPath $args[1] -Confirm:$false", "RestorePathWithoutRestore", "'Create'" },
        { "OutputPath parent missing", Small + " | Invoke-StorageTest -OutputPath ($args[0] + '/no/such') -Confirm:$false", "OutputPathNotFound", "no/such" },
        { "unknown threshold", Small + " | Invoke-StorageTest -Thresholds @{ averageLatency = 5 } -Confirm:$false", "UnknownField", "'averageLatency'" },
        { "negative threshold", Small + " | Invoke-StorageTest -Thresholds @{ averageDatabaseReadLatencyMs = -5 } -Confirm:$false", "ThresholdOutOfRange", "'-5'" },
        { "threshold that is not a table", Small + " | Invoke-StorageTest -Thresholds 5 -Confirm:$false", "InvalidThresholds", "'5'" },
        { "CapacityPercent 99", Small + " | Invoke-StorageTest -TestType Throughput -CapacityPercent 99 -Confirm:$false", "CapacityPercentOutOfRange", "'99'" },
        { "LogFilesToReplay 0", Small + " | Invoke-StorageTest -TestType SoftRecovery -LogFilesToReplay 0 -Confirm:$false", "LogFilesToReplayOutOfRange", "'0'" },
        { "object that is not a profile", "[pscustomobject]@{ Name = 'db1' } | Invoke-StorageTest -Confirm:$false", "MailboxCountOutOfRange", "'(none)'" },
        { "no profile at all", "Invoke-StorageTest -StartFile ($args[0] + '/start.json') -Confirm:$false", "ProfileRequired", "profile" },
        { "not enough free space (a refusal of the helper's plan)", "New-MailboxProfile -MailboxCount 1000000 -IopsPerMailbox 0.1 -MailboxSizeMB 1048576 -DatabaseCount 256 -Path $args[0] | Invoke-StorageTest -Confirm:$false", "InsufficientSpace", "" },
        { "report of a missing file", "Get-TestReport -Path ($args[1] + '/no-results.json')", "ResultsNotFound", "no-results.json" },
        { "report of a folder without results", "Get-TestReport -Path ($args[1] + '/empty-folder')", "ResultsNotFound", "empty-folder" },
        { "report folder missing", "Get-TestReport -Path ($args[1] + '/no-such-folder') -Format Html", "ResultsNotFound", "no-such-folder" },
        { "volume folder missing", "Test-StorageVolume -Path ($args[0] + '/missing')", "PathNotFound", "missing" },
        { "checksum target missing", "Test-DatabaseChecksum -Path ($args[0] + '/missing.edb')", "PathNotFound", "missing.edb" },
    };

    [Theory]
    [MemberData(nameof(Cases))]
    public void Is_refused_with_its_error_id_before_anything_is_written(string name, string script, string errorId, string named)
    {
        using var target = new ScratchFolder("bad");
        // catch sees terminating errors only: a non-terminating one would pass it by and leave Output empty.
        var run = _ps.Run("try { " + script + " } catch { ,$_ }", target.Path, _fixtures.Path);
        var caught = run.Output.Select(o => o.BaseObject).OfType<ErrorRecord>().ToList();
        Assert.True(caught.Count == 1, $"{name}: no terminating error (errors: {string.Join(" | ", run.Errors)}; output: {string.Join(", ", run.Output)})");
        ErrorRecord error = caught[0];
        Assert.StartsWith($"ExchStorageTest.{errorId},", error.FullyQualifiedErrorId);
        Assert.Contains(named, error.Exception.Message);
        Assert.Single(run.Output);
        Assert.Empty(target.Entries());
    }

    [Fact]
    public void A_missing_helper_is_named_with_the_build_command()
    {
        using var target = new ScratchFolder("bad");
        string missing = _fixtures.Combine("no-engine-here");
        var run = _ps.Run("$env:EXCHSTORAGETEST_ENGINE = $args[1]; try { " + Small + " | Invoke-StorageTest -Confirm:$false } catch { ,$_ } finally { $env:EXCHSTORAGETEST_ENGINE = $null }", target.Path, missing);
        var error = Assert.IsType<ErrorRecord>(Assert.Single(run.Output).BaseObject);
        Assert.StartsWith("ExchStorageTest.EngineNotInstalled,", error.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.NotInstalled, error.CategoryInfo.Category);
        Assert.Contains(missing, error.Exception.Message);
        Assert.Contains("build.sh Build", error.Exception.Message);
        Assert.Empty(target.Entries());
    }

    public void Dispose() => _fixtures.Dispose();
}

/// <summary>A database folder on a read-only volume (a real read-only bind mount: root writes anywhere else).</summary>
public class ReadOnlyFolderTests : IClassFixture<SessionFixture>
{
    private readonly PowerShellSession _ps;

    public ReadOnlyFolderTests(SessionFixture fixture) => _ps = fixture.Session;

    [RootFact]
    public void A_read_only_database_folder_is_refused_with_PathNotWritable()
    {
        using var dir = new ScratchFolder("ro");
        string source = dir.Sub("src"), mount = dir.Sub("ro");
        Mount("--bind", source, mount);
        try
        {
            Mount("-o", "remount,ro,bind", mount);
            var run = _ps.Run("try { New-MailboxProfile -MailboxCount 10 -IopsPerMailbox 0.1 -MailboxSizeMB 10 -Path $args[0] | Invoke-StorageTest -Confirm:$false } catch { ,$_ }", mount);
            var error = Assert.IsType<System.Management.Automation.ErrorRecord>(Assert.Single(run.Output).BaseObject);
            Assert.StartsWith("ExchStorageTest.PathNotWritable,", error.FullyQualifiedErrorId);
            Assert.Equal(System.Management.Automation.ErrorCategory.PermissionDenied, error.CategoryInfo.Category);
            Assert.Contains(mount, error.Exception.Message);
            Assert.Empty(Directory.GetFileSystemEntries(source));
        }
        finally
        {
            Mount(mount);
        }
    }

    private static void Mount(params string[] args)
    {
        var psi = new System.Diagnostics.ProcessStartInfo(args.Length == 1 ? "umount" : "mount") { RedirectStandardError = true };
        foreach (string a in args) psi.ArgumentList.Add(a);
        using var p = System.Diagnostics.Process.Start(psi)!;
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"mount {string.Join(' ', args)}: {p.StandardError.ReadToEnd()}");
    }
}
