using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>
/// Failure-mode windows on real disks that freeze (nbdkit's pause filter) and fail (its error filter), through the whole
/// engine: the fault script starts the freeze at the declared instant, the stall watch measures it, and the run is judged
/// apart from its steady state (docs/failure-mode.md). Short runs (the measured window 40 s, the freeze 5 s) so CI can
/// afford them; docs/failure-mode.md has the 3-minute run (a 5 s freeze 60 s in) measured the same way.
/// </summary>
public class FailureModeRigTests : IDisposable
{
    private readonly TestFolder _dir = new("fm");
    private readonly Xunit.Abstractions.ITestOutputHelper _out;

    public FailureModeRigTests(Xunit.Abstractions.ITestOutputHelper output) => _out = output;

    private EngineRequest Request(string dbRoot, double seconds) => new()
    {
        Command = "run", TestType = TestType.Performance, DurationSeconds = seconds, SampleIntervalSeconds = 5, WarmupSeconds = 0, ThreadCount = 2,
        OutputPath = _dir.Combine("Results"),
        Profile = new MailboxProfile
        {
            Name = "Tiny", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 1, DatabaseCount = 1, CopiesPerDatabase = 1,
            DatabasePaths = new[] { dbRoot }, MinimumDatabaseCacheMB = 2, MaximumDatabaseCacheMB = 4,
        },
    };

    [NbdkitLoopFact]
    public void A_declared_freeze_started_by_the_fault_script_is_measured_as_one_stall_in_the_window()
    {
        using var disk = new PausingDisk(_dir);
        string db = disk.FileSystem.Combine("Db");
        Directory.CreateDirectory(db);
        var request = Request(db, 40);
        request.FaultAtSeconds = 15;
        request.FaultLengthSeconds = 20;
        request.FaultScript = disk.FreezeScript(_dir, 5);
        // Paced, as a server's load is: a closed loop on this tiny cache makes page-fault stalls of its own.
        request.ThreadCount = null;
        request.TargetRateIops = 60;

        var r = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", r.Completion);
        var fm = Assert.IsType<FailureModeResult>(r.FailureMode);
        Assert.InRange(fm.Window!.AtSeconds, 14.9, 16);
        Assert.Equal(0, fm.Script!.ExitCode);
        Assert.True(fm.Script.RanHere);
        Assert.Contains("resumed", fm.Script.Output, StringComparison.Ordinal);
        foreach (var s in fm.Stalls) _out.WriteLine($"stall {s.Volume} at {s.StartSeconds} s for {s.LengthSeconds} s, {s.InFlight} in flight, longest I/O {s.LongestIoMs} ms");
        var stall = Assert.Single(fm.Stalls);
        Assert.True(stall.InFaultWindow);
        Assert.InRange(stall.LengthSeconds, 4.7, 5.3);
        Assert.True(stall.InFlight > 0);
        Assert.True(stall.LongestIoMs > 4000, $"longest I/O {stall.LongestIoMs} ms");
        // The volume's seconds: the frozen ones did nothing.
        var frozen = fm.VolumeSeries.Where(s => s.Volume == stall.Volume && s.ElapsedSeconds > stall.StartSeconds + 0.5 && s.ElapsedSeconds < stall.StartSeconds + stall.LengthSeconds - 1.5).ToList();
        Assert.All(frozen, s => Assert.Equal(0, s.Operations));
        Assert.Contains(r.TestLog, l => l.Message.StartsWith("Storage stalled on", StringComparison.Ordinal));

        // Judged apart: the freeze is the fault's, the steady state around it passes.
        _out.WriteLine(fm.Fault!.Summary);
        foreach (var x in r.Verdict.Reasons) _out.WriteLine($"{x.Code}: {x.Message}");
        Assert.Equal(FaultOutcomes.Tolerated, fm.Fault.Result);
        Assert.Equal(Verdicts.Pass, fm.SteadyState!.Result);
        Assert.Equal(Verdicts.Pass, r.Verdict.Result);
        Assert.InRange(fm.Fault.LongestStallSeconds, 4.7, 5.3);
        Assert.NotNull(fm.Fault.RecoverySeconds);
        Assert.Equal(0, fm.Fault.IoErrors);
        Assert.StartsWith("Pass, fault tolerated: stalled 5.0 s on ", fm.Fault.Summary, StringComparison.Ordinal);
        Assert.Contains("recovered in ", fm.Fault.Summary, StringComparison.Ordinal);

        // The stored run judged again with a stall limit under the freeze fails naming the stall, with the live figures.
        string source = r.SavedPath!;
        var again = ExchStorageTest.Engine.Reports.Rejudging.Prepare(ResultsFile.Load(source), source, new ExchStorageTest.Engine.Reports.RejudgeSettings(StallLimitSeconds: 4), DateTime.UtcNow);
        Assert.Equal(Verdicts.Fail, again.Verdict.Result);
        var reason = Assert.Single(again.Verdict.Reasons, x => x.Code == "FaultStallTooLong");
        Assert.Contains(stall.Volume, reason.Message, StringComparison.Ordinal);
        Assert.Equal(fm.Fault.LongestStallSeconds, again.FailureMode!.Fault!.LongestStallSeconds);
        Assert.Equal(fm.Fault.RecoverySeconds, again.FailureMode.Fault.RecoverySeconds);
        // ... and with its own limit, exactly what the live judgement said.
        var same = ExchStorageTest.Engine.Reports.Rejudging.Prepare(ResultsFile.Load(source), source, new ExchStorageTest.Engine.Reports.RejudgeSettings(), DateTime.UtcNow);
        Assert.Equal(fm.Fault.Summary, same.FailureMode!.Fault!.Summary);
        Assert.Equal(r.Verdict.Result, same.Verdict.Result);
    }

    [NbdkitLoopFact]
    public void Errors_in_the_window_do_not_end_the_run_and_a_freeze_after_it_is_found_undeclared()
    {
        using var disk = new PausingDisk(_dir);
        string db = disk.FileSystem.Combine("Db");
        Directory.CreateDirectory(db);
        var request = Request(db, 45);
        request.FaultAtSeconds = 15;
        request.FaultLengthSeconds = 15;
        // Writes fail 15-17 s; the disk freezes 33-38 s, after the window.
        request.FaultScript = disk.FailThenFreezeScript(_dir, failSeconds: 2, quietSeconds: 16, freezeSeconds: 5);

        var r = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);

        Assert.Equal("Complete", r.Completion); // the errors fell in the window: the run measured on
        Assert.NotEmpty(r.Errors);
        Assert.All(r.Errors, e => Assert.Equal(disk.FileSystem.Mount, e.Volume));
        var fm = r.FailureMode!;
        foreach (var s in fm.Stalls) _out.WriteLine($"stall {s.Volume} at {s.StartSeconds} s for {s.LengthSeconds} s, in window {s.InFaultWindow}");
        var stall = Assert.Single(fm.Stalls, s => s.LengthSeconds > 3);
        Assert.False(stall.InFaultWindow);
        Assert.InRange(stall.StartSeconds, 31, 36);
        Assert.Contains(fm.VolumeSeries, s => s.Errors > 0 && s.ElapsedSeconds >= 14 && s.ElapsedSeconds <= 18);

        // The window fails on its errors, naming them and the volume; the freeze after it is named with its instant.
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        Assert.Equal(FaultOutcomes.NotTolerated, fm.Fault!.Result);
        var errors = Assert.Single(r.Verdict.Reasons, x => x.Code == "FaultIoErrors");
        Assert.Contains("EIO", errors.Message, StringComparison.Ordinal);
        Assert.Contains(disk.FileSystem.Mount, errors.Message, StringComparison.Ordinal);
        Assert.Contains(r.TestLog, l => l.Message.StartsWith("Storage stalled: ", StringComparison.Ordinal) && l.Message.Contains("under the stall limit", StringComparison.Ordinal));
    }

    public void Dispose() => _dir.Dispose();
}
