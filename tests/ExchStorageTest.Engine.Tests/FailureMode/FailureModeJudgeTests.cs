using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;
using static ExchStorageTest.Engine.Tests.FailureMode.FaultRunFixture;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>The fault window judged apart from the steady state, and undeclared stalls, on the synthetic run of <see cref="FaultRunFixture"/>.</summary>
public class FailureModeJudgeTests
{
    private static IReadOnlyList<string> Judge(TestResults r, double stallLimit = 20) => RunJudgement.Judge(r, Thresholds.Strict(), stallLimit);

    [Fact]
    public void A_5_s_stall_that_recovers_inside_the_window_is_tolerated_with_its_figures()
    {
        var r = Run();
        var lines = Judge(r);
        var f = r.FailureMode!.Fault!;
        Assert.Equal(FaultOutcomes.Tolerated, f.Result);
        Assert.Equal(Verdicts.Pass, r.Verdict.Result);
        Assert.Empty(r.Verdict.Reasons);
        Assert.Equal((5.0, Db), (f.LongestStallSeconds, f.LongestStallVolume));
        // The first 5 seconds back at 80% of 150 IOPS within max(1.5 x 9 ms, 9 + 2 ms) begin at 69 s: 9 s after the fault.
        Assert.Equal(9, f.RecoverySeconds);
        Assert.Equal(0, f.IoErrors);
        Assert.Equal((60.0, 120.0), (f.ExcludedFromSeconds, f.ExcludedToSeconds));
        var db = f.Volumes.Single(v => v.Volume == Db);
        Assert.Equal((150.0, 9.0, 9.0), (db.BaselineIops, db.BaselineLatencyMs, db.RecoverySeconds));
        Assert.Equal(5 * 150 + 4 * 50, db.IopsLost);
        Assert.Equal((32, 5012.0), (db.InFlightThroughStall, db.LongestIoMs));
        Assert.Equal(0, f.Volumes.Single(v => v.Volume == Log).RecoverySeconds);
        Assert.Equal("Pass, fault tolerated: stalled 5.0 s on /mnt/db, recovered in 9 s, no errors", f.Summary);
        Assert.Contains(lines, l => l.StartsWith("Fault window (60 s from 60 s into the measured window): Pass, fault tolerated", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.StartsWith("Storage stalled: /mnt/db at 2026-01-01 00:01:00 UTC (60.0 s into the measured window) for 5.0 s", StringComparison.Ordinal) && l.EndsWith("(in the fault window)", StringComparison.Ordinal));
        Assert.True(r.FailureMode.Stalls[0].InFaultWindow);
    }

    [Fact]
    public void A_stall_limit_under_the_stall_fails_the_fault_naming_the_stall()
    {
        var r = Run();
        Judge(r, stallLimit: 4);
        var f = r.FailureMode!.Fault!;
        Assert.Equal(FaultOutcomes.NotTolerated, f.Result);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        var reason = Assert.Single(r.Verdict.Reasons);
        Assert.Equal(FailureModeJudge.StallTooLongCode, reason.Code);
        Assert.Equal((5.0, 4.0), (reason.Measured, reason.Limit));
        Assert.Contains("on /mnt/db at 2026-01-01 00:01:00 UTC with 32 I/Os in flight, lasted 5.0 s; the stall limit is 4 s", reason.Message);
        Assert.Equal("Fail, fault not tolerated: stalled 5.0 s on /mnt/db (limit 4 s), recovered in 9 s, no errors", f.Summary);
        Assert.Equal(4, r.FailureMode.StallLimitSeconds);
    }

    [Fact]
    public void IO_errors_in_the_window_fail_the_fault_naming_them_and_their_volume_and_leave_the_steady_state()
    {
        var r = Run();
        r.Errors.Add(Error(62));
        r.Errors.Add(Error(63));
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.ErrorCount = 2;
        Judge(r);
        var f = r.FailureMode!.Fault!;
        Assert.Equal(FaultOutcomes.NotTolerated, f.Result);
        Assert.Equal(2, f.IoErrors);
        Assert.Equal(new[] { "EIO" }, f.Volumes.Single(v => v.Volume == Db).ErrorNames);
        var reason = Assert.Single(r.Verdict.Reasons);
        Assert.Equal(FailureModeJudge.IoErrorsCode, reason.Code);
        Assert.Contains("2 I/O errors reached the application in the fault window: 2 on /mnt/db (EIO)", reason.Message);
        Assert.Equal(Verdicts.Pass, r.FailureMode.SteadyState!.Result);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        Assert.EndsWith("2 I/O errors (EIO)", f.Summary);
    }

    [Fact]
    public void An_IO_error_outside_the_window_fails_the_steady_state()
    {
        var r = Run();
        r.Errors.Add(Error(150));
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.ErrorCount = 1;
        Judge(r);
        Assert.Equal(FaultOutcomes.Tolerated, r.FailureMode!.Fault!.Result);
        Assert.Equal(VerdictJudge.IoErrorsCode, Assert.Single(r.FailureMode.SteadyState!.Reasons).Code);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
    }

    [Fact]
    public void An_undeclared_stall_at_the_limit_fails_the_run_and_a_short_one_is_named_but_passes()
    {
        var failed = Undeclared((130, 25));
        var lines = Judge(failed);
        Assert.Equal(Verdicts.Fail, failed.Verdict.Result);
        var reason = Assert.Single(failed.Verdict.Reasons);
        Assert.Equal(StorageStallRule.Code, reason.Code);
        Assert.Equal((25.0, 20.0), (reason.Measured, reason.Limit));
        Assert.Contains("/mnt/db at 2026-01-01 00:02:10 UTC (130.0 s into the measured window) for 25.0 s", reason.Message);
        Assert.Null(failed.FailureMode!.Fault);
        Assert.Contains(lines, l => l.Contains("for 25.0 s") && l.Contains("the run fails (StorageStalled)"));

        var passed = Undeclared((130, 5));
        lines = Judge(passed);
        Assert.Equal(Verdicts.Pass, passed.Verdict.Result);
        Assert.Equal("Storage stalled: /mnt/db at 2026-01-01 00:02:10 UTC (130.0 s into the measured window) for 5.0 s, 32 I/Os in flight (under the stall limit of 20 s: named, not failed)", Assert.Single(lines));
    }

    [Fact]
    public void A_stall_at_the_limit_outside_a_declared_window_fails_beside_a_tolerated_fault()
    {
        var r = Run();
        r.FailureMode!.Stalls.Add(Stall(140, 20));
        Judge(r);
        Assert.Equal(FaultOutcomes.Tolerated, r.FailureMode.Fault!.Result);
        Assert.Equal(StorageStallRule.Code, Assert.Single(r.Verdict.Reasons).Code);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        Assert.StartsWith("Fail, fault tolerated", r.FailureMode.Fault.Summary);
    }

    [Fact]
    public void A_stopped_runs_undeclared_stall_past_the_limit_is_a_final_rule()
    {
        var r = Undeclared((100, 30));
        r.Completion = Completions.Stopped;
        r.Timeline.CollectionEndUtc = Start.AddSeconds(150);
        Judge(r);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        Assert.Equal(new[] { StorageStallRule.Code, "RunStopped" }, r.Verdict.Reasons.Select(x => x.Code));
    }

    [Fact]
    public void The_steady_state_leaves_the_window_out_so_the_stall_samples_maximum_does_not_fail_it()
    {
        var r = Run();
        // Judged whole, the stall's 400 ms sample and its page fault stalls fail the run.
        var whole = VerdictJudge.Judge(r, Thresholds.Strict()).Reasons.Select(x => x.Code).ToList();
        Assert.Contains("DatabaseReadLatencyMaximum", whole);
        Assert.Contains("PageFaultStalls", whole);

        var view = SteadyStateView.Of(r, FailureModeJudge.Excluded(r));
        var read = view.Instances[0].Stream(StreamNames.DatabaseRead)!;
        Assert.Equal((10.0, 10.0, 12_000L, 120.0), (read.LatencyMs.Mean, read.MaxSampleAverageLatencyMs, read.Operations, read.DurationSeconds));
        Assert.Equal(150, view.Sizing.AchievedTransactionalIops);
        Assert.Equal(0, view.Instances[0].PageFaultStallsPerSecond);
        Assert.Empty(view.FailureMode!.Stalls);
        // The run's own document is not touched by the view.
        Assert.Equal(400, r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs);

        Judge(r);
        Assert.Equal(Verdicts.Pass, r.FailureMode!.SteadyState!.Result);
        Assert.Equal(Verdicts.Pass, r.Verdict.Result);
    }

    [Fact]
    public void A_window_off_the_sample_edges_is_widened_outward_to_whole_samples()
    {
        var r = Run(declared: false);
        r.FailureMode!.Window = new FaultWindow { AtSeconds = 62, LengthSeconds = 50, StartUtc = Start.AddSeconds(62), EndUtc = Start.AddSeconds(112) };
        Judge(r);
        Assert.Equal((60.0, 120.0), (r.FailureMode.Fault!.ExcludedFromSeconds, r.FailureMode.Fault.ExcludedToSeconds));
    }

    [Fact]
    public void A_run_stopped_before_the_window_ended_leaves_the_fault_not_judged()
    {
        var r = Run();
        r.Completion = Completions.Stopped;
        r.Timeline.CollectionEndUtc = Start.AddSeconds(90);
        r.TimeSeries.RemoveAll(p => p.ElapsedSeconds > 90);
        r.InstanceSeries.RemoveAll(p => p.ElapsedSeconds > 90);
        Judge(r);
        var f = r.FailureMode!.Fault!;
        Assert.Equal(FaultOutcomes.NotJudged, f.Result);
        Assert.Equal(FailureModeJudge.NotJudgedCode, Assert.Single(f.Reasons).Code);
        Assert.Equal(Verdicts.Stopped, r.Verdict.Result);
        Assert.StartsWith("Stopped, fault not judged: stalled 5.0 s on /mnt/db, the run ended before the window did", f.Summary);
        Assert.Equal(new[] { FailureModeJudge.NotJudgedCode, "RunStopped" }, r.Verdict.Reasons.Select(x => x.Code));
    }

    [Fact]
    public void A_run_stopped_in_the_window_after_an_IO_error_there_fails_on_it()
    {
        var r = Run();
        r.Errors.Add(Error(62));
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.ErrorCount = 1;
        r.Completion = Completions.Stopped;
        r.Timeline.CollectionEndUtc = Start.AddSeconds(90);
        r.TimeSeries.RemoveAll(p => p.ElapsedSeconds > 90);
        r.InstanceSeries.RemoveAll(p => p.ElapsedSeconds > 90);
        Judge(r);
        Assert.Equal(FaultOutcomes.NotTolerated, r.FailureMode!.Fault!.Result);
        Assert.Equal(Verdicts.Fail, r.Verdict.Result);
        Assert.Equal(new[] { FailureModeJudge.IoErrorsCode, FailureModeJudge.NotJudgedCode, "RunStopped" }, r.Verdict.Reasons.Select(x => x.Code));
        Assert.Contains("which a longer run could not undo", r.Verdict.Reasons[^1].Message);
    }

    [Fact]
    public void A_volume_not_back_inside_the_window_fails_the_fault()
    {
        var r = Run();
        r.FailureMode!.VolumeSeries.RemoveAll(v => v.Volume == Db && v.ElapsedSeconds >= 65 && v.ElapsedSeconds < 120);
        r.FailureMode.VolumeSeries.AddRange(Enumerable.Range(65, 55).Select(s => new VolumeSecond { Volume = Db, ElapsedSeconds = s, Operations = 60, AverageLatencyMs = 40 }));
        Judge(r);
        var f = r.FailureMode.Fault!;
        Assert.Null(f.RecoverySeconds);
        var reason = Assert.Single(r.Verdict.Reasons);
        Assert.Equal(FailureModeJudge.NotRecoveredCode, reason.Code);
        Assert.Contains("/mnt/db (baseline 150 IOPS at 9 ms", reason.Message);
        Assert.Contains("not recovered within 60 s", f.Summary);
    }

    [Fact]
    public void Results_without_failure_mode_figures_are_judged_as_before()
    {
        var r = Undeclared();
        r.FailureMode = null;
        Assert.Empty(Judge(r));
        Assert.Equal(Verdicts.Pass, r.Verdict.Result);
    }
}
