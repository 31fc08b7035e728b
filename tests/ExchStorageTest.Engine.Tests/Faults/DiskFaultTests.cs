using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>Faults of real disks during a run: injected EIO (nbdkit), full file systems (loop devices).</summary>
public class DiskFaultTests : IDisposable
{
    private readonly TestFolder _dir = new("disk");

    private EngineRequest Tiny(string dbRoot, double seconds, TestType type = TestType.Performance) => new()
    {
        Command = "run", TestType = type, DurationSeconds = seconds, SampleIntervalSeconds = 1, WarmupSeconds = 0, ThreadCount = 2,
        OutputPath = _dir.Combine("Results"),
        Profile = new MailboxProfile
        {
            Name = "Tiny", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 1, DatabaseCount = 1, CopiesPerDatabase = 1,
            DatabasePaths = new[] { dbRoot }, MinimumDatabaseCacheMB = 2, MaximumDatabaseCacheMB = 4,
        },
    };

    [NbdkitLoopFact]
    public void IO_errors_fail_the_verdict_even_with_continue_on_error()
    {
        using var disk = new FaultyDisk(_dir, sizeMiB: 96);
        string db = disk.FileSystem.Combine("Db");
        Directory.CreateDirectory(db);
        var request = Requests.Run(db, 1, output: _dir.Combine("Results"));
        request["profile"]!["databaseCount"] = 1;
        Assert.Equal(0, Cli.ProcessProtocolTests.RunEngine(request.Json()).Exit);

        disk.FailWrites();
        request["durationSeconds"] = 3;
        request["databaseSource"] = "Attach";
        request["continueOnError"] = true;
        var (exit, events) = Cli.ProcessProtocolTests.RunEngine(request.Json());
        disk.HealWrites();

        Assert.Equal(0, exit);
        var result = events.Single(e => e.GetProperty("type").GetString() == "result");
        Assert.Equal("Complete", result.GetProperty("completion").GetString());
        Assert.Equal("Fail", result.GetProperty("result").GetString());
        var reason = Assert.Single(result.GetProperty("reasons").EnumerateArray(), x => x.GetProperty("code").GetString() == "IoErrors");
        Assert.True(reason.GetProperty("measured").GetDouble() > 0);
        Assert.Contains("EIO", reason.GetProperty("message").GetString(), StringComparison.Ordinal);
    }

    [RootFact]
    public void A_full_results_disk_loses_no_measured_second_and_the_helper_reports_instead_of_crashing()
    {
        using var outFs = new LoopFileSystem(_dir, sizeMiB: 16, name: "out");
        string db = _dir.Sub("Db");
        string output = outFs.Combine("Results");
        using var run = new EngineProcess(Requests.Run(db, 5, testId: "Full", output: output).Json());
        run.WaitFor("sample");
        string checkpoint = Assert.Single(Directory.GetFiles(output, "*.json"));
        outFs.Fill();
        int exit = run.WaitForExit();

        Assert.Equal(1, exit);
        Assert.DoesNotContain("   at ", run.StandardError, StringComparison.Ordinal); // no stack trace
        var result = Assert.Single(run.OfType("result"));
        Assert.Equal("Complete", result.GetProperty("completion").GetString());
        Assert.True(result.GetProperty("achievedIops").GetDouble() > 0);
        Assert.Contains(run.OfType("error"), e => e.GetProperty("code").GetString() == "ResultsWriteFailed");
        Assert.Contains(run.OfType("log"), e => e.GetProperty("level").GetString() == "warning" && e.GetProperty("message").GetString()!.Contains("checkpoint", StringComparison.Ordinal));
        // The measured window ran its whole length: the samples are there to the end.
        Assert.Equal(checkpoint, result.GetProperty("resultsPath").GetString());
        Assert.Empty(Directory.GetFiles(output, "*.partial"));
        Assert.All(Directory.GetFiles(output), f => Assert.True(new FileInfo(f).Length > 0, $"{f} is empty"));
    }

    [RootFact] // the run itself, in process: every sample kept while checkpoints fail
    public void Checkpoints_failing_on_a_full_disk_do_not_end_the_measured_window()
    {
        using var outFs = new LoopFileSystem(_dir, sizeMiB: 16, name: "out");
        var request = Tiny(_dir.Sub("Db"), 4);
        request.OutputPath = outFs.Combine("Results");
        var plan = TestPlanner.Plan(request);
        outFs.Fill();
        var r = TestRunner.Run(plan, EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", r.Completion);
        Assert.NotNull(r.SaveError);
        var window = r.Timeline.CollectionEndUtc!.Value - r.Timeline.CollectionStartUtc!.Value;
        Assert.True(window.TotalSeconds >= 3.5, $"measured window {window.TotalSeconds:F1} s of 4");
        Assert.True(r.TimeSeries.Max(s => s.ElapsedSeconds) >= 3.5);
        Assert.Empty(Directory.GetFiles(outFs.Mount, "*.partial", SearchOption.AllDirectories));
    }

    [RootFact]
    public void A_log_file_left_by_a_full_disk_is_ours_and_the_next_run_recovers()
    {
        using var fs = new LoopFileSystem(_dir, sizeMiB: 64);
        string db = fs.Combine("Db");
        Directory.CreateDirectory(db);
        var request = Tiny(db, 1, TestType.SoftRecovery);
        request.LogFilesToReplay = 2;
        var first = TestPlanner.Plan(request);
        DatabaseSet.Prepare(first, EventWriter.Null, _ => { }, CancellationToken.None);

        // The next preparation needs more log generations (planned while there was room); then the disk fills.
        request.LogFilesToReplay = 6;
        var more = TestPlanner.Plan(request);
        string filler = fs.Fill();
        var ex = Assert.Throws<EngineException>(() => DatabaseSet.Prepare(more, EventWriter.Null, _ => { }, CancellationToken.None));
        Assert.Equal("WriteFailed", ex.Code);
        Assert.Contains("No space", ex.Message, StringComparison.OrdinalIgnoreCase);
        string logs = more.Instances[0].LogFolder;
        Assert.All(Directory.GetFiles(logs), f => Assert.True(new FileInfo(f).Length > 0, $"{f} is an empty file at one of our names"));
        Assert.Empty(Directory.GetFiles(logs, "*.creating"));

        // Space again: the same set is prepared, nothing refused as foreign.
        File.Delete(filler);
        var prepared = DatabaseSet.Prepare(TestPlanner.Plan(request), EventWriter.Null, _ => { }, CancellationToken.None);
        Assert.Equal(6, prepared[0].LogFiles.Count);
    }

    [RootFact] // the free-space check keeps a margin for metadata and the results
    public void A_set_that_would_fill_the_volume_to_the_last_byte_is_refused()
    {
        using var fs = new LoopFileSystem(_dir, sizeMiB: 64);
        string db = fs.Combine("Db");
        Directory.CreateDirectory(db);
        long free = VolumeSpace.Of(db).FreeBytes;
        var request = Tiny(db, 60);
        request.OutputPath = null; // results on the same volume
        // One database of the free space less its 8 logs and 1 MiB: it "fits" only with no room left for anything else.
        long mb = (free - (TestPlanner.CircularLogGenerations + 1) * TestPlan.LogFileSize) / 1048576;
        request.Profile.MailboxCount = 1;
        request.Profile.MailboxSizeMB = mb;
        var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(request));
        Assert.Equal("InsufficientSpace", ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains("kept free", ex.Message, StringComparison.Ordinal);
        Assert.Equal(new[] { db }, Directory.GetFileSystemEntries(fs.Mount).Where(e => !e.EndsWith("lost+found", StringComparison.Ordinal)));
    }

    public void Dispose() => _dir.Dispose();
}
