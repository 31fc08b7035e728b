using System.Diagnostics;
using System.Management.Automation;
using System.Text.Json;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Invoke-StorageTest -StartFile: hosts that cannot be remoted into, synchronised through a start file on a share.
/// Two runspaces of this process stand in for two hosts; both have this machine's name, which is exactly the case
/// the no-overwrite rule (&lt;host&gt;-&lt;testId&gt;.json) exists for.
/// </summary>
public class StartFileRunTests : IClassFixture<SessionFixture>
{
    private const string FullyQualified = ",ExchStorageTest.Commands.InvokeStorageTestCommand";
    private const string Profile = "$p = New-MailboxProfile -MailboxCount 20 -IopsPerMailbox 0.5 -MailboxSizeMB 10 -DatabaseCount 2 -Path $args[0]; ";
    private readonly PowerShellSession _ps;

    public StartFileRunTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public async Task Two_hosts_start_together_from_one_start_file_and_share_their_results_without_overwriting()
    {
        using var dir = new ScratchFolder("sfr");
        string run = dir.Sub("run");
        string startFile = Path.Combine(run, "start.json");
        using var second = new PowerShellSession();
        const string script = Profile + "$p | Invoke-StorageTest -StartFile $args[1] -StartAtUtc $args[2] -Duration 00:00:15 -Warmup 0 -ThreadCount 2 -SampleIntervalSeconds 5 -Force -Verbose";
        // Each proposes its own instant; whichever creates the file first sets it for both.
        var hostA = Task.Run(() => _ps.Run(script, dir.Sub("a"), startFile, DateTime.UtcNow.AddSeconds(30)));
        var hostB = Task.Run(() => second.Run(script, dir.Sub("b"), startFile, DateTime.UtcNow.AddSeconds(45)));
        // A host that never finishes fails the test instead of holding the suite.
        await Task.WhenAll(hostA, hostB).WaitAsync(TimeSpan.FromMinutes(5));
        var a = await hostA;
        var b = await hostB;
        Assert.Null(a.Exception);
        Assert.Null(b.Exception);
        var resultA = a.Single();
        var resultB = b.Single();

        // One start file, written by one of them, and both measured from its instant.
        using var start = JsonDocument.Parse(File.ReadAllText(startFile));
        var startAt = DateTime.Parse(start.RootElement.GetProperty("startAtUtc").GetString()!, null, System.Globalization.DateTimeStyles.AdjustToUniversal);
        Assert.Equal(startAt, (DateTime)resultA.Properties["StartAtUtc"].Value);
        Assert.Equal(startAt, (DateTime)resultB.Properties["StartAtUtc"].Value);
        Assert.Single(a.Verbose.Concat(b.Verbose), v => v.Message.StartsWith("Created the start file"));
        foreach (var result in new[] { resultA, resultB })
        {
            using var results = JsonDocument.Parse(File.ReadAllText((string)result.Properties["ResultsPath"].Value));
            var timeline = results.RootElement.GetProperty("timeline");
            var measuredFrom = timeline.GetProperty("collectionStartUtc").GetDateTime().ToUniversalTime();
            Assert.True(measuredFrom >= startAt, $"measuring began at {measuredFrom:o}, before the agreed {startAt:o}");
            Assert.True(measuredFrom - startAt < TimeSpan.FromSeconds(5), $"measuring began at {measuredFrom:o}, long after the agreed {startAt:o}");
            Assert.Contains(timeline.GetProperty("phases").EnumerateArray(), p => p.GetProperty("name").GetString() == "WaitingForStart");
        }
        // The helper's wait shows as progress.
        Assert.Contains(a.Progress.Concat(b.Progress), p => p.CurrentOperation == "WaitingForStart");

        // Both results are on the share: <host>.json for the first, <host>-<testId>.json for the second, each a copy of its own.
        string host = Environment.MachineName;
        var shared = Directory.GetFiles(Path.Combine(run, "results")).Select(Path.GetFileName).OrderBy(n => n!.Length).ToList();
        Assert.Equal(2, shared.Count);
        Assert.Equal(host + ".json", shared[0]);
        foreach (var result in new[] { resultA, resultB })
        {
            string copy = (string)result.Properties["SharedResultsPath"].Value;
            Assert.Equal(File.ReadAllBytes((string)result.Properties["ResultsPath"].Value), File.ReadAllBytes(copy));
            Assert.Equal(Environment.MachineName, result.Properties["ComputerName"].Value);
        }
        Assert.Contains(shared, n => n == $"{host}-{resultA.Properties["TestId"].Value}.json" || n == $"{host}-{resultB.Properties["TestId"].Value}.json");

        // Get-TestReport on the run's results folder reads both. (It merges hosts of one run by machine name; both
        // stand-ins are this machine, so here it lists them as two runs of one host rather than as two hosts.)
        var report = _ps.Run("Get-TestReport -Path $args[0]", Path.Combine(run, "results")).Single();
        var testIds = (string[])report.Properties["TestId"].Value;
        Assert.Contains((string)resultA.Properties["TestId"].Value, testIds);
        Assert.Contains((string)resultB.Properties["TestId"].Value, testIds);
        Assert.Equal(2, ((string[])report.Properties["ResultsPath"].Value).Length);
    }

    [Fact]
    public void A_start_instant_that_has_passed_is_refused_and_nothing_is_run()
    {
        using var dir = new ScratchFolder("sfr");
        string run = dir.Sub("run");
        string startFile = Path.Combine(run, "start.json");
        File.WriteAllText(startFile, $"{{\"schema\":\"exchstoragetest/run\",\"schemaVersion\":1,\"runId\":\"x\",\"startAtUtc\":\"{DateTime.UtcNow.AddMinutes(-5):yyyy-MM-ddTHH:mm:ss.fffZ}\"}}");
        string db = dir.Sub("db");
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartFile $args[1] -Duration 00:00:15 -Force", db, startFile);
        Assert.Equal("ExchStorageTest.StartTimePassed" + FullyQualified, result.Error?.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.InvalidOperation, result.Error!.CategoryInfo.Category);
        Assert.Equal(startFile, result.Error.TargetObject);
        Assert.Empty(Directory.GetFileSystemEntries(db));
        Assert.Equal(new[] { "run", Path.Combine("run", "start.json") }, dir.Entries().Where(e => !e.StartsWith("db")));
    }

    [Fact]
    public void A_start_file_that_does_not_appear_within_the_timeout_is_StartFileNotFound()
    {
        using var dir = new ScratchFolder("sfr");
        string run = dir.Sub("run");
        string startFile = Path.Combine(run, "start.json");
        var clock = Stopwatch.StartNew();
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartFile $args[1] -StartFileTimeout 00:00:03 -Duration 00:00:15 -Force", dir.Sub("db"), startFile);
        Assert.Equal("ExchStorageTest.StartFileNotFound" + FullyQualified, result.Error?.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.ObjectNotFound, result.Error!.CategoryInfo.Category);
        Assert.Contains(startFile, result.Error.Exception.Message);
        Assert.True(clock.Elapsed >= TimeSpan.FromSeconds(3), $"gave up after {clock.Elapsed}");
        // It waited with a countdown, and did not create the file it was told to wait for.
        Assert.Contains(result.Progress, p => p.Activity == "Waiting for the start file" && p.SecondsRemaining > 0);
        Assert.False(File.Exists(startFile));
        Assert.Equal(new[] { "db", "run" }, dir.Entries());
    }

    [Fact]
    public void A_file_that_is_not_a_start_file_is_StartFileMalformed()
    {
        using var dir = new ScratchFolder("sfr");
        string startFile = dir.Combine("start.json");
        File.WriteAllText(startFile, "{\"schema\":\"something/else\"}");
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartFile $args[1] -Duration 00:00:15 -Force", dir.Sub("db"), startFile);
        Assert.Equal("ExchStorageTest.StartFileMalformed" + FullyQualified, result.Error?.FullyQualifiedErrorId);
        Assert.Equal(ErrorCategory.InvalidData, result.Error!.CategoryInfo.Category);
        Assert.Equal("{\"schema\":\"something/else\"}", File.ReadAllText(startFile));
        Assert.Equal(new[] { "db", "start.json" }, dir.Entries());
    }

    [Fact]
    public void A_start_file_in_a_missing_folder_is_StartFileFolderNotFound()
    {
        using var dir = new ScratchFolder("sfr");
        string startFile = dir.Combine("share", "run", "start.json");
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartFile $args[1] -Duration 00:00:15 -Force", dir.Sub("db"), startFile);
        Assert.Equal("ExchStorageTest.StartFileFolderNotFound" + FullyQualified, result.Error?.FullyQualifiedErrorId);
        Assert.Equal(new[] { "db" }, dir.Entries());
    }

    [Fact]
    public void WhatIf_with_a_start_file_creates_no_start_file()
    {
        using var dir = new ScratchFolder("sfr");
        string run = dir.Sub("run");
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartFile $args[1] -Duration 00:00:15 -WhatIf", dir.Sub("db"), Path.Combine(run, "start.json"));
        Assert.Null(result.Exception);
        Assert.Empty(result.Output);
        Assert.Equal(new[] { "db", "run" }, dir.Entries());
    }

    [Fact]
    public void A_start_instant_in_the_past_is_refused_before_anything_runs()
    {
        using var dir = new ScratchFolder("sfr");
        var result = _ps.Run(Profile + "$p | Invoke-StorageTest -StartAtUtc $args[1] -Duration 00:00:15 -Force", dir.Sub("db"), DateTime.UtcNow.AddSeconds(-1));
        Assert.Equal("ExchStorageTest.StartTimeOutOfRange" + FullyQualified, result.Error?.FullyQualifiedErrorId);
        Assert.Equal(new[] { "db" }, dir.Entries());
    }
}
