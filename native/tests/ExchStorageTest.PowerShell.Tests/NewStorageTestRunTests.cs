using System.Text.Json;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>New-StorageTestRun: the start file on a share, written once, never over something else.</summary>
public class NewStorageTestRunTests : IClassFixture<SessionFixture>
{
    private const string FullyQualified = ",ExchStorageTest.Commands.NewStorageTestRunCommand";
    private readonly PowerShellSession _ps;

    public NewStorageTestRunTests(SessionFixture fixture) => _ps = fixture.Session;

    [Fact]
    public void Writes_the_start_file_and_the_results_folder()
    {
        using var dir = new ScratchFolder("nsr");
        string folder = dir.Combine("share", "run1");
        var at = DateTime.UtcNow.AddMinutes(30);
        var run = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1] -HostCount 4", folder, at);
        Assert.Null(run.Exception);
        var result = run.Single();
        Assert.Equal("ExchStorageTest.StorageTestRun", result.TypeNames[0]);
        string startFile = Path.Combine(folder, "start.json");
        Assert.Equal(startFile, result.Properties["StartFile"].Value);
        Assert.Equal(Path.Combine(folder, "results"), result.Properties["ResultsPath"].Value);
        Assert.True(Directory.Exists(Path.Combine(folder, "results")));
        Assert.Equal(4, result.Properties["HostCount"].Value);
        var startAt = (DateTime)result.Properties["StartAtUtc"].Value;
        Assert.Equal(DateTimeKind.Utc, startAt.Kind);
        Assert.True(Math.Abs((startAt - at).TotalMilliseconds) < 1, $"{startAt:o} vs {at:o}");

        using var json = JsonDocument.Parse(File.ReadAllText(startFile));
        var root = json.RootElement;
        Assert.Equal("exchstoragetest/run", root.GetProperty("schema").GetString());
        Assert.Equal(1, root.GetProperty("schemaVersion").GetInt32());
        Assert.Equal(result.Properties["RunId"].Value, root.GetProperty("runId").GetString());
        Assert.Equal(4, root.GetProperty("hostCount").GetInt32());
        Assert.Equal(startAt, DateTime.Parse(root.GetProperty("startAtUtc").GetString()!, null, System.Globalization.DateTimeStyles.AdjustToUniversal));
        Assert.Equal(Environment.MachineName, root.GetProperty("createdBy").GetString());
    }

    [Fact]
    public void A_local_time_is_taken_as_the_instant_it_names()
    {
        using var dir = new ScratchFolder("nsr");
        var local = DateTime.Now.AddMinutes(10);
        var result = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1]", dir.Path, local).Single();
        Assert.Equal(local.ToUniversalTime(), (DateTime)result.Properties["StartAtUtc"].Value, TimeSpan.FromMilliseconds(1));
        Assert.Null(result.Properties["HostCount"].Value);
    }

    [Fact]
    public void An_existing_start_file_is_kept_without_Force_and_replaced_with_it()
    {
        using var dir = new ScratchFolder("nsr");
        var first = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1]", dir.Path, DateTime.UtcNow.AddMinutes(5)).Single();
        string startFile = dir.Combine("start.json");
        string before = File.ReadAllText(startFile);

        var again = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1]", dir.Path, DateTime.UtcNow.AddMinutes(20));
        Assert.Equal("ExchStorageTest.StartFileExists" + FullyQualified, again.Error?.FullyQualifiedErrorId);
        Assert.Equal(startFile, again.Error!.TargetObject);
        Assert.Equal(before, File.ReadAllText(startFile));

        var forced = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1] -Force", dir.Path, DateTime.UtcNow.AddMinutes(20));
        Assert.Null(forced.Exception);
        Assert.NotEqual(first.Properties["RunId"].Value, forced.Single().Properties["RunId"].Value);
        Assert.Contains((string)forced.Single().Properties["RunId"].Value, File.ReadAllText(startFile));
    }

    [Fact]
    public void Force_does_not_replace_a_file_that_is_not_a_start_file()
    {
        using var dir = new ScratchFolder("nsr");
        string foreign = dir.Combine("start.json");
        File.WriteAllText(foreign, "someone else's notes");
        var run = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1] -Force", dir.Path, DateTime.UtcNow.AddMinutes(5));
        Assert.Equal("ExchStorageTest.StartFileMalformed" + FullyQualified, run.Error?.FullyQualifiedErrorId);
        Assert.Equal("someone else's notes", File.ReadAllText(foreign));
        Assert.Equal(new[] { "start.json" }, dir.Entries());
    }

    [Fact]
    public void A_past_instant_is_refused_before_anything_is_written()
    {
        using var dir = new ScratchFolder("nsr");
        var past = DateTime.UtcNow.AddMinutes(-1);
        var run = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1]", dir.Combine("run"), past);
        Assert.Equal("ExchStorageTest.StartTimeOutOfRange" + FullyQualified, run.Error?.FullyQualifiedErrorId);
        Assert.Equal(System.Management.Automation.ErrorCategory.InvalidArgument, run.Error!.CategoryInfo.Category);
        Assert.Contains(past.ToString("yyyy-MM-ddTHH:mm:ss"), run.Error.Exception.Message);
        Assert.Empty(dir.Entries());
    }

    [Fact]
    public void WhatIf_writes_nothing()
    {
        using var dir = new ScratchFolder("nsr");
        var run = _ps.Run("New-StorageTestRun -Path $args[0] -StartAtUtc $args[1] -WhatIf", dir.Combine("run"), DateTime.UtcNow.AddMinutes(5));
        Assert.Null(run.Exception);
        Assert.Empty(run.Output);
        Assert.Empty(dir.Entries());
    }
}
