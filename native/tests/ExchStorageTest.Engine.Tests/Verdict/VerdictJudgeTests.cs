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

    [Fact]
    public void Stopped_run_is_judged_but_not_passed()
    {
        var r = Good();
        r.Completion = "Stopped";
        Assert.Equal("RunStopped", Assert.Single(Judge(r).Reasons).Code);
    }
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
