using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Verdict;

public class VerdictJudgeTests
{
    private static TestResults Good()
    {
        var r = new TestResults { TestType = TestType.Performance };
        r.Sizing.TargetTransactionalIops = 100;
        r.Sizing.AchievedTransactionalIops = 120;
        r.Instances.Add(new InstanceResult
        {
            Name = "Instance.1", Index = 1,
            Streams =
            {
                new StreamResult { Stream = StreamNames.DatabaseRead, Operations = 1000, LatencyMs = new LatencySummary { Mean = 12 }, MaxSampleAverageLatencyMs = 40 },
                new StreamResult { Stream = StreamNames.DatabaseWrite, Operations = 500, LatencyMs = new LatencySummary { Mean = 3 } },
                new StreamResult { Stream = StreamNames.LogWrite, Operations = 100, LatencyMs = new LatencySummary { Mean = 2 }, MaxSampleAverageLatencyMs = 5 },
            },
        });
        return r;
    }

    private static VerdictResult Judge(TestResults r) => VerdictJudge.Judge(r, Thresholds.For(r.TestType));

    [Fact]
    public void Good_run_passes_with_no_reasons()
    {
        var v = Judge(Good());
        Assert.Equal("Pass", v.Result);
        Assert.Empty(v.Reasons);
    }

    [Theory]
    [InlineData("DatabaseReadLatencyAverage")]
    [InlineData("DatabaseReadLatencyMaximum")]
    [InlineData("LogWriteLatencyAverage")]
    [InlineData("LogWriteLatencyMaximum")]
    public void Latency_rules_fail_with_measured_and_limit(string code)
    {
        var r = Good();
        var read = r.Instances[0].Stream(StreamNames.DatabaseRead)!;
        var log = r.Instances[0].Stream(StreamNames.LogWrite)!;
        switch (code)
        {
            case "DatabaseReadLatencyAverage": read.LatencyMs.Mean = 20.5; break;
            case "DatabaseReadLatencyMaximum": read.MaxSampleAverageLatencyMs = 101; break;
            case "LogWriteLatencyAverage": log.LatencyMs.Mean = 10.2; break;
            case "LogWriteLatencyMaximum": log.MaxSampleAverageLatencyMs = 150; break;
        }
        var v = Judge(r);
        Assert.Equal("Fail", v.Result);
        var reason = Assert.Single(v.Reasons);
        Assert.Equal(code, reason.Code);
        Assert.Equal("Instance.1", reason.Instance);
        Assert.NotNull(reason.Measured);
        Assert.NotNull(reason.Limit);
    }

    [Fact]
    public void Stress_uses_lenient_maxima()
    {
        var r = Good();
        r.TestType = TestType.Stress;
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs = 150;
        Assert.Equal("Pass", Judge(r).Result);
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs = 201;
        Assert.Equal("DatabaseReadLatencyMaximum", Assert.Single(Judge(r).Reasons).Code);
    }

    [Fact]
    public void Target_iops_not_met_fails()
    {
        var r = Good();
        r.Sizing.AchievedTransactionalIops = 99.5;
        var reason = Assert.Single(Judge(r).Reasons);
        Assert.Equal("TargetIopsNotMet", reason.Code);
        Assert.Equal(99.5, reason.Measured);
        Assert.Equal(100, reason.Limit);
    }

    [Fact]
    public void Page_fault_stalls_above_one_fail()
    {
        var r = Good();
        r.Instances[0].PageFaultStallsPerSecond = 1.05;
        Assert.Equal("PageFaultStalls", Assert.Single(Judge(r).Reasons).Code);
        r.Instances[0].PageFaultStallsPerSecond = 1.0;
        Assert.Equal("Pass", Judge(r).Result);
    }

    [Fact]
    public void Io_error_fails_even_with_continue_on_error()
    {
        var r = Good();
        r.Instances[0].Stream(StreamNames.DatabaseWrite)!.ErrorCount = 1;
        r.Errors.Add(new IoErrorRecord { ErrorName = "EIO", File = "/x" });
        Assert.Equal("IoErrors", Assert.Single(Judge(r).Reasons).Code);
        // ContinueOnError keeps the run going to count errors; it never turns them into a pass.
        r.Settings.ContinueOnError = true;
        Assert.Equal("IoErrors", Assert.Single(Judge(r).Reasons).Code);
    }

    [Fact]
    public void Tuning_failure_fails()
    {
        var r = Good();
        r.TuningOutcome = "Failed";
        Assert.Equal("TuningFailed", Assert.Single(Judge(r).Reasons).Code);
    }

    [Fact]
    public void Checksum_problems_fail()
    {
        var r = Good();
        r.Checksum = new ChecksumResult { BadPages = 1, Problems = { "db: page 3 bad" } };
        Assert.Equal("ChecksumFailed", Assert.Single(Judge(r).Reasons).Code);
        r.Checksum = null;
        r.Instances[0].ChecksumErrors = 2;
        Assert.Equal("ChecksumMismatch", Assert.Single(Judge(r).Reasons).Code);
    }

    [Fact]
    public void Every_failing_rule_is_listed()
    {
        var r = Good();
        r.Sizing.AchievedTransactionalIops = 1;
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.LatencyMs.Mean = 50;
        r.Instances[0].PageFaultStallsPerSecond = 3;
        var codes = Judge(r).Reasons.Select(x => x.Code).ToList();
        Assert.Contains("TargetIopsNotMet", codes);
        Assert.Contains("DatabaseReadLatencyAverage", codes);
        Assert.Contains("PageFaultStalls", codes);
    }

    [Fact]
    public void Backup_runs_are_not_judged_on_iops_or_latency()
    {
        var r = Good();
        r.TestType = TestType.DatabaseBackup;
        r.Sizing.AchievedTransactionalIops = 0;
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.LatencyMs.Mean = 500;
        Assert.Equal("Pass", Judge(r).Result);
    }

    /// <summary>A run stopped <paramref name="seconds"/> into its 600 s measured window (null: before the window began).</summary>
    private static TestResults StoppedAt(double? seconds)
    {
        var r = Good();
        r.Completion = "Stopped";
        r.Settings.DurationSeconds = 600;
        r.Timeline.TestStartUtc = new DateTime(2026, 11, 28, 10, 0, 0, DateTimeKind.Utc);
        r.Timeline.Phases.Add(new PhaseMark { Name = "Tuning", StartUtc = r.Timeline.TestStartUtc });
        if (seconds is double s)
        {
            r.Timeline.CollectionStartUtc = r.Timeline.TestStartUtc.AddMinutes(5);
            r.Timeline.CollectionEndUtc = r.Timeline.CollectionStartUtc.Value.AddSeconds(s);
        }
        r.Timeline.TestEndUtc = r.Timeline.CollectionEndUtc ?? r.Timeline.TestStartUtc.AddMinutes(2);
        return r;
    }

    [Fact]
    public void A_run_stopped_during_tuning_is_Stopped_not_failed_on_the_tuning_or_the_target_it_never_reached()
    {
        var r = StoppedAt(null);
        r.Instances.Clear(); // nothing measured yet
        r.Sizing.AchievedTransactionalIops = 0;
        r.TuningOutcome = "Stopped";
        var v = Judge(r);
        Assert.Equal("Stopped", v.Result);
        var reason = Assert.Single(v.Reasons); // no NoMeasurements, TargetIopsNotMet or TuningFailed: none was earned
        Assert.Equal("RunStopped", reason.Code);
        Assert.Contains("Stopped during Tuning, before the measured window began: no figure of the test was measured", reason.Message, StringComparison.Ordinal);
        Assert.Contains("neither passed nor failed", reason.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_run_stopped_in_its_window_is_Stopped_when_only_window_rules_fall_short_and_says_what_the_window_covered()
    {
        var r = StoppedAt(60);
        r.Sizing.AchievedTransactionalIops = 40; // below the target of 100 so far
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.LatencyMs.Mean = 25; // an average: the rest of the window could bring it down
        r.Instances[0].PageFaultStallsPerSecond = 5;
        Assert.Equal("Fail", Judge(new TestResults { TestType = r.TestType, Sizing = r.Sizing, Instances = r.Instances }).Result); // as a whole run
        var v = Judge(r);
        Assert.Equal("Stopped", v.Result);
        var reason = Assert.Single(v.Reasons);
        Assert.Equal("RunStopped", reason.Code);
        Assert.Contains("Stopped 60 s into the measured window of the 600 s planned (10%): the figures cover those 60 s only", reason.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("DatabaseReadLatencyMaximum")]
    [InlineData("LogWriteLatencyMaximum")]
    [InlineData("IoErrors")]
    [InlineData("TuningFailed")]
    public void A_stopped_run_still_fails_on_what_a_longer_run_could_not_undo(string code)
    {
        var r = StoppedAt(60);
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.LatencyMs.Mean = 25; // not earned: dropped beside the earned one
        switch (code)
        {
            case "DatabaseReadLatencyMaximum": r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs = 101; break;
            case "LogWriteLatencyMaximum": r.Instances[0].Stream(StreamNames.LogWrite)!.MaxSampleAverageLatencyMs = 150; break;
            case "IoErrors": r.Instances[0].Stream(StreamNames.DatabaseWrite)!.ErrorCount = 1; break;
            case "TuningFailed": r.TuningOutcome = "Failed"; break; // the search ended, and failed, before the stop
        }
        var v = Judge(r);
        Assert.Equal("Fail", v.Result);
        Assert.Equal(new[] { code, "RunStopped" }, v.Reasons.Select(x => x.Code).ToArray());
        Assert.Contains("the rules above failed in what was measured", v.Reasons[1].Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_checkpoint_is_Interrupted_with_the_time_last_seen_and_the_window_it_covered()
    {
        var r = StoppedAt(null);
        r.Completion = "Interrupted";
        r.Timeline.CollectionStartUtc = r.Timeline.TestStartUtc.AddSeconds(30);
        r.Timeline.TestEndUtc = r.Timeline.TestStartUtc.AddSeconds(75); // last seen: no window end yet
        var v = VerdictJudge.Interrupted(r);
        Assert.Equal("Interrupted", v.Result);
        var reason = Assert.Single(v.Reasons);
        Assert.Equal("RunInterrupted", reason.Code);
        Assert.Contains("Interrupted (last seen 2026-11-28 10:01:15 UTC) 45 s into the measured window of the 600 s planned (8%)", reason.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(new[] { "Pass", "Pass" }, "Pass")]
    [InlineData(new[] { "Pass", "Stopped" }, "Stopped")]
    [InlineData(new[] { "Stopped", "Interrupted", "Pass" }, "Interrupted")]
    [InlineData(new[] { "Stopped", "Fail" }, "Fail")]
    [InlineData(new string[0], "Fail")]
    public void Runs_taken_as_one_fail_when_one_failed_and_are_stopped_when_one_stopped(string[] results, string combined) =>
        Assert.Equal(combined, Verdicts.Combine(results));
}

public class SystemLogVerdictTests
{
    private static TestResults WithLog(params SystemLogEntry[] entries)
    {
        var r = new TestResults { TestType = TestType.DatabaseBackup };
        r.SystemLog = new SystemLogReport { Checked = true, Events = entries.ToList() };
        return r;
    }

    [Fact]
    public void A_storage_error_in_the_system_log_fails_the_run_and_names_it()
    {
        var r = WithLog(
            new SystemLogEntry { Provider = "kernel", Level = "Error", Message = "some unrelated error", IsStorageError = false },
            new SystemLogEntry { Provider = "disk", EventId = 153, Level = "Warning", Message = "The IO operation at logical block address 0x1234 was retried.", IsStorageError = true });
        var v = VerdictJudge.Judge(r, Thresholds.Strict());
        var reason = Assert.Single(v.Reasons);
        Assert.Equal("SystemLogStorageErrors", reason.Code);
        Assert.Contains("disk 153", reason.Message);
        Assert.Equal(1, reason.Measured);
    }

    [Fact]
    public void Errors_that_are_not_storage_errors_do_not_fail_the_run()
    {
        var r = WithLog(new SystemLogEntry { Provider = "kernel", Level = "Error", Message = "usb 1-1: device descriptor read error", IsStorageError = false });
        Assert.Equal("Pass", VerdictJudge.Judge(r, Thresholds.Strict()).Result);
    }
}
