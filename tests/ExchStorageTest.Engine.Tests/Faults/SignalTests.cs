using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Tests.Cli;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>Two runs on one folder, and a run killed outright: real processes, real signals.</summary>
public class SignalTests : IDisposable
{
    private readonly TestFolder _dir = new("signal");

    [LinuxFact]
    public void A_second_run_on_a_folder_in_use_is_refused_naming_the_holder_and_may_run_once_the_holder_is_killed()
    {
        string db = _dir.Sub("Db");
        using var first = new EngineProcess(Requests.Run(db, 600, testId: "Holder-1").Json());
        first.WaitFor("sample");
        var dbBefore = File.GetLastWriteTimeUtc(Path.Combine(db, "DB1", "ExchStorageTest001.edb"));

        // The same set, created again under the running test: refused before a byte is written.
        var (exit, events) = ProcessProtocolTests.RunEngine(Requests.Run(db, 2, testId: "Second").Json());
        Assert.Equal(2, exit);
        var error = events.Last(e => e.GetProperty("type").GetString() == "error");
        Assert.Equal("FolderInUse", error.GetProperty("code").GetString());
        string message = error.GetProperty("message").GetString()!;
        Assert.Contains("'Holder-1'", message, StringComparison.Ordinal);
        Assert.Contains($"process {first.Id}", message, StringComparison.Ordinal);
        Assert.Equal(db, error.GetProperty("target").GetString());
        Assert.Equal("Holder-1", RunLock.HolderOf(db)!.TestId);

        // SIGKILL: the OS drops the lock with the process; no stale marker blocks the next run.
        first.Signal("KILL");
        first.WaitForExit();
        Assert.Null(RunLock.HolderOf(db));
        Assert.True(File.Exists(Path.Combine(db, RunLock.FileName)), "SIGKILL leaves the file, holding no lock");
        (exit, events) = ProcessProtocolTests.RunEngine(Requests.Run(db, 1, testId: "Third").Json());
        Assert.Equal(0, exit);
        Assert.False(File.Exists(Path.Combine(db, RunLock.FileName)), "the run that took the killed run's file over removed it when it ended");
        Assert.Equal("Third", events.Single(e => e.GetProperty("type").GetString() == "result").GetProperty("testId").GetString());
        Assert.True(File.GetLastWriteTimeUtc(Path.Combine(db, "DB1", "ExchStorageTest001.edb")) >= dbBefore);
    }

    [LinuxFact]
    public void After_SIGKILL_the_last_checkpoint_says_the_run_was_interrupted_and_when_it_was_last_seen()
    {
        string db = _dir.Sub("Db");
        string output = _dir.Combine("Out");
        using var run = new EngineProcess(Requests.Run(db, 600, testId: "Killed", output: output).Json());
        run.WaitFor("sample");
        run.WaitFor("sample");
        var killedAt = DateTime.UtcNow;
        run.Signal("KILL");
        Assert.Equal(137, run.WaitForExit());

        string checkpoint = Assert.Single(Directory.GetFiles(output, "*.json"));
        var r = ResultsFile.Load(checkpoint);
        Assert.Equal("Interrupted", r.Completion);
        Assert.InRange(r.Timeline.TestEndUtc, r.Timeline.TestStartUtc, killedAt.AddSeconds(1));
        Assert.True(r.Timeline.TestEndUtc > killedAt.AddSeconds(-5), $"last seen {r.Timeline.TestEndUtc:o}, killed {killedAt:o}");
        Assert.Equal("Interrupted", r.Verdict.Result); // not passed, and not a Fail it never earned
        var reason = Assert.Single(r.Verdict.Reasons);
        Assert.Equal("RunInterrupted", reason.Code);
        Assert.Contains(r.Timeline.TestEndUtc.ToString("yyyy-MM-dd HH:mm:ss", System.Globalization.CultureInfo.InvariantCulture), reason.Message, StringComparison.Ordinal);
        Assert.NotEmpty(r.TimeSeries);

        var (exit, events) = ProcessProtocolTests.RunEngine($"{{\"protocol\":1,\"command\":\"report\",\"paths\":[{System.Text.Json.JsonSerializer.Serialize(checkpoint)}]}}");
        Assert.Equal(0, exit);
        string text = events.Single(e => e.GetProperty("type").GetString() == "report").GetProperty("text").GetString()!;
        Assert.Contains("The run never finished", text, StringComparison.Ordinal);
        Assert.Matches(@"\n  Run Completion +Interrupted \(last seen ", text);
        // What the checkpoint never collected reads as not measured, not as measured zeros.
        Assert.Matches(@"Achieved Transactional I/O per Second +not measured\n", text);
        Assert.Matches(@"Final Database Size \(bytes\) +not measured\n", text);
        Assert.DoesNotContain("% of target", text, StringComparison.Ordinal);
        // No time of the report is the unset DateTime (year 1), in any of the forms the report writes a time. A bare "0001"
        // is not that: the report also names the databases' random instance ids and the run's random folder (one CI run's held it).
        Assert.DoesNotContain("/0001 ", text, StringComparison.Ordinal);
        Assert.DoesNotContain("0001-01-01", text, StringComparison.Ordinal);
    }

    [LinuxFact] // the promise kept: SIGTERM still stops cleanly with a Stopped result, and releases the lock
    public void SIGTERM_stops_with_a_saved_stopped_result_and_releases_the_lock()
    {
        string db = _dir.Sub("Db");
        using var run = new EngineProcess(Requests.Run(db, 600, testId: "Termed").Json());
        run.WaitFor("sample");
        run.Signal("TERM");
        Assert.Equal(3, run.WaitForExit());
        var result = run.OfType("result").Single();
        Assert.Equal("Stopped", result.GetProperty("completion").GetString());
        Assert.Equal("Stopped", ResultsFile.Load(result.GetProperty("resultsPath").GetString()!).Completion);
        Assert.Null(RunLock.HolderOf(db));
        Assert.False(File.Exists(Path.Combine(db, RunLock.FileName)), "a stopped run removes its lock file");
    }

    public void Dispose() => _dir.Dispose();
}
