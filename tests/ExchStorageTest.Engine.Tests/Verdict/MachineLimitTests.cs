using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Verdict;

/// <summary>
/// The host-limited judgement from synthetic evidence, both sides: a strained host whose storage answered
/// quickly is named with its evidence; slow storage, a quiet host, unmeasured device latency, busy write-back slots
/// and a Pass are not. The rigs (MachineLimitRigTests, CapacityRigTests) prove the evidence is measured so on real runs.
/// </summary>
public class MachineLimitTests
{
    /// <summary>A Performance run on one database whose reads averaged <paramref name="readMs"/> and that achieved <paramref name="achieved"/> of 100 IOPS.</summary>
    private static TestResults Run(double readMs, double achieved, MachineEvidence? host)
    {
        var r = new TestResults { TestType = TestType.Performance, MachineEvidence = host };
        r.Settings.MaxFlushesInFlight = 32;
        r.Sizing.TargetTransactionalIops = 100;
        r.Sizing.AchievedTransactionalIops = achieved;
        r.Instances.Add(new InstanceResult
        {
            Name = "Instance.1", Index = 1, FlushWritesInFlight = 1.5, PageFaultStallWaitMs = 0.08,
            Streams =
            {
                new StreamResult { Stream = StreamNames.DatabaseRead, Operations = 1000, LatencyMs = new LatencySummary { Mean = readMs }, MaxSampleAverageLatencyMs = readMs * 2 },
                new StreamResult { Stream = StreamNames.DatabaseWrite, Operations = 500, LatencyMs = new LatencySummary { Mean = 3 } },
                new StreamResult { Stream = StreamNames.LogWrite, Operations = 100, LatencyMs = new LatencySummary { Mean = 2 }, MaxSampleAverageLatencyMs = 5 },
            },
        });
        return r;
    }

    /// <summary>A worker that waited for a CPU 70% of the window, on a RAM-backed device that served I/O in 0.05 ms.</summary>
    private static MachineEvidence Starved() => new()
    {
        WindowSeconds = 10, MachineCpus = 2, ProcessCoresUsed = 0.3, MachineBusyCpus = 2,
        Workers = { new WorkerCpu { Worker = 0, Cpu = 1, OnCpuShare = 0.2, WaitingForCpuShare = 0.7, SchedulingDelayMs = 9 } },
        WorkerBusyShare = 0.9, WorkerWaitingForCpuShare = 0.7, SchedulingDelayMs = 9,
        Devices = { "loop7" },
        DeviceReadLatencyMs = 0.05, DeviceWriteLatencyMs = 0.06, DeviceMaxSampleReadLatencyMs = 0.1, DeviceMaxSampleWriteLatencyMs = 0.1,
    };

    /// <summary>The same devices on a host that kept up: workers mostly waiting for the storage, none for a CPU.</summary>
    private static MachineEvidence Quiet()
    {
        var e = Starved();
        e.Workers[0].WaitingForCpuShare = 0.01;
        e.WorkerBusyShare = 0.2;
        e.WorkerWaitingForCpuShare = 0.01;
        e.SchedulingDelayMs = 0.02;
        return e;
    }

    private static VerdictResult Judge(TestResults r) => VerdictJudge.Judge(r, Thresholds.For(r.TestType));

    [Fact]
    public void A_starved_host_on_quick_storage_is_named_with_its_evidence_and_the_run_still_fails()
    {
        var v = Judge(Run(readMs: 35, achieved: 80, Starved()));
        Assert.Equal("Fail", v.Result);
        Assert.Contains(v.Reasons, x => x.Code == "DatabaseReadLatencyAverage");
        Assert.Contains(v.Reasons, x => x.Code == VerdictJudge.TargetIopsNotMet);
        var host = Assert.Single(v.Reasons, x => x.Code == ReasonCodes.HostLimited);
        Assert.Equal(MachineLimit.Code, host.Code);
        Assert.Contains("DatabaseReadLatencyAverage (Instance.1)", host.Message);
        Assert.Contains("TargetIopsNotMet", host.Message);
        Assert.Contains("waited for a CPU 70%", host.Message);
        Assert.Contains("loop7", host.Message);
        Assert.Equal(0.7, host.Measured);
    }

    // A run with millions of I/O errors listed HostLimited among its reasons. Failed I/Os carry no
    // throughput: the errors explain the window short of its load, not the host.
    [Fact]
    public void IO_errors_explain_the_failure_so_the_host_is_not_claimed()
    {
        var r = Run(readMs: 35, achieved: 80, Starved());
        r.Instances[0].Streams[0].ErrorCount = 2_500_000;
        r.Errors.Add(new IoErrorRecord { ErrorName = "EIO", File = "/mnt/db/Instance.1.edb", Offset = 32768 });
        var v = Judge(r);
        Assert.Equal("Fail", v.Result);
        Assert.DoesNotContain(v.Reasons, x => x.Code == ReasonCodes.HostLimited);
        var errors = Assert.Single(v.Reasons, x => x.Code == "IoErrors");
        Assert.StartsWith("2500000 I/O errors occurred; a single I/O error fails the test (first: EIO on /mnt/db/Instance.1.edb at offset 32768).", errors.Message);
        Assert.StartsWith("1 I/O error occurred;", VerdictJudge.IoErrors(1, null).Message);
    }

    [Fact]
    public void A_pass_on_a_starved_host_is_untouched()
    {
        var v = Judge(Run(readMs: 12, achieved: 120, Starved()));
        Assert.Equal("Pass", v.Result);
        Assert.Empty(v.Reasons);
    }

    [Fact]
    public void Slow_storage_on_a_starved_host_is_the_storages()
    {
        var host = Starved();
        host.DeviceReadLatencyMs = 18; // the device itself was near the 20 ms limit
        var v = Judge(Run(readMs: 35, achieved: 80, host));
        Assert.Equal("Fail", v.Result);
        Assert.DoesNotContain(v.Reasons, x => x.Code == ReasonCodes.HostLimited);
        Assert.Equal("DatabaseReadLatencyAverage", CapacitySearch.LimitingRule(v.Reasons));
    }

    [Fact]
    public void A_failure_on_a_host_that_kept_up_is_the_storages()
    {
        var v = Judge(Run(readMs: 35, achieved: 80, Quiet()));
        Assert.DoesNotContain(v.Reasons, x => x.Code == ReasonCodes.HostLimited);
        Assert.Empty(MachineLimit.Strain(Quiet()));
        Assert.EndsWith("the host kept up.", MachineLimit.Describe(Quiet()));
    }

    [Fact]
    public void Each_strain_sign_alone_counts()
    {
        var busy = Quiet();
        busy.WorkerBusyShare = 0.97;
        Assert.Contains(MachineLimit.Strain(busy), s => s.Contains("busy 97%", StringComparison.Ordinal));
        var late = Quiet();
        late.ThinkWakes = 1000;
        late.ThinkLagMs = 14;
        late.LateThinkShare = 0.4;
        Assert.Contains(MachineLimit.Strain(late), s => s.Contains("40% of the thinking sessions", StringComparison.Ordinal));
        var all = Starved();
        all.ThinkWakes = 10;
        all.ThinkLagMs = 20;
        all.LateThinkShare = 0.5;
        Assert.Equal(3, MachineLimit.Strain(all).Count);
    }

    [Fact]
    public void Without_the_devices_own_latency_no_latency_or_iops_failure_is_claimed_for_the_host()
    {
        var host = Starved();
        host.Devices.Clear();
        host.DeviceReadLatencyMs = host.DeviceWriteLatencyMs = host.DeviceMaxSampleReadLatencyMs = host.DeviceMaxSampleWriteLatencyMs = null;
        Assert.DoesNotContain(Judge(Run(readMs: 35, achieved: 80, host)).Reasons, x => x.Code == ReasonCodes.HostLimited);
        Assert.DoesNotContain(Judge(Run(readMs: 12, achieved: 80, host)).Reasons, x => x.Code == ReasonCodes.HostLimited);
    }

    [Fact]
    public void A_maximum_rule_is_judged_by_the_devices_slowest_sample_not_its_mean()
    {
        var r = Run(readMs: 12, achieved: 120, Starved());
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs = 140;
        var v = Judge(r);
        Assert.Contains(v.Reasons, x => x.Code == ReasonCodes.HostLimited);

        r.MachineEvidence!.DeviceMaxSampleReadLatencyMs = 90; // a storage spike: the mean stays quick, one interval did not
        v = Judge(r);
        Assert.Equal("DatabaseReadLatencyMaximum", Assert.Single(v.Reasons).Code);
    }

    [Fact]
    public void Stalls_are_the_hosts_while_the_device_wrote_quickly_or_the_scavengers_write_slots_stood_empty()
    {
        var r = Run(readMs: 12, achieved: 120, Starved());
        r.Instances[0].PageFaultStallsPerSecond = 3;
        r.Instances[0].MaximumPageFaultStallsPerSecond = 9;
        r.Instances[0].FlushWritesInFlight = 30; // full slots: a starved worker had not reaped the finished writes
        var host = Assert.Single(Judge(r).Reasons, x => x.Code == ReasonCodes.HostLimited);
        Assert.Contains("wrote in 0.06 ms", host.Message);

        r.MachineEvidence!.DeviceWriteLatencyMs = 8; // the device itself wrote slowly and the slots were full: the storage's
        Assert.DoesNotContain(Judge(r).Reasons, x => x.Code == ReasonCodes.HostLimited);

        r.MachineEvidence.DeviceWriteLatencyMs = null; // not measured (Windows): only empty slots clear the storage
        Assert.DoesNotContain(Judge(r).Reasons, x => x.Code == ReasonCodes.HostLimited);
        r.Instances[0].FlushWritesInFlight = 1.5;
        Assert.Contains("1.5 of its 32 writes in flight", Assert.Single(Judge(r).Reasons, x => x.Code == ReasonCodes.HostLimited).Message);
    }

    [Fact]
    public void One_failure_the_storage_explains_keeps_the_whole_verdict_the_storages()
    {
        var r = Run(readMs: 35, achieved: 120, Starved());
        var log = r.Instances[0].Stream(StreamNames.LogWrite)!;
        log.LatencyMs.Mean = 14;
        r.MachineEvidence!.DeviceWriteLatencyMs = 9; // log writes slow on the device itself
        var v = Judge(r);
        Assert.Contains(v.Reasons, x => x.Code == "LogWriteLatencyAverage");
        Assert.DoesNotContain(v.Reasons, x => x.Code == ReasonCodes.HostLimited);
    }

    [Fact]
    public void A_capacity_step_the_host_failed_makes_the_answer_a_lower_bound_named_by_the_host()
    {
        var profile = new MailboxProfile { Name = "p", MailboxCount = 400, IopsPerMailbox = 1, MailboxSizeMB = 10, DatabaseCount = 1, CopiesPerDatabase = 1 };
        var failed = Judge(Run(readMs: 35, achieved: 80, Starved())).Reasons;
        Assert.Equal(ReasonCodes.HostLimited, CapacitySearch.LimitingRule(failed));
        var steps = new List<CapacityStep>
        {
            new() { Step = 1, Mailboxes = 100, TargetIops = 120, AchievedIops = 121, Passed = true },
            new() { Step = 2, Mailboxes = 200, TargetIops = 240, AchievedIops = 190, Passed = false, Reasons = failed, LimitingRule = CapacitySearch.LimitingRule(failed) },
        };
        var a = CapacitySearch.Answer(profile, steps);
        Assert.Equal(ReasonCodes.HostLimited, a.LimitingRule);
        Assert.True(a.LowerBound);
        Assert.Equal(100, a.Mailboxes);
        var said = ExchStorageTest.Engine.Reports.CapacityReport.Answer(new CapacityResult { Answer = a, Steps = steps, StopReason = "Resolved", StopMessage = "done" }, profile);
        Assert.Contains(said, l => l.StartsWith("Limited by HostLimited at 200 mailboxes: The host, not the storage", StringComparison.Ordinal));
        Assert.Contains(said, l => l.Contains("carries at least 100 mailboxes", StringComparison.Ordinal));
        Assert.DoesNotContain(said, l => l.StartsWith("No step failed", StringComparison.Ordinal));

        // The storage's own failure is no lower bound; an I/O error outranks the host.
        var storage = Judge(Run(readMs: 35, achieved: 80, Quiet())).Reasons;
        steps[1].Reasons = storage;
        steps[1].LimitingRule = CapacitySearch.LimitingRule(storage);
        Assert.False(CapacitySearch.Answer(profile, steps).LowerBound);
        Assert.Equal("IoErrors", CapacitySearch.LimitingRule(failed.Append(new VerdictReason { Code = "IoErrors", Message = "x" }).ToList()));
    }

    [Fact]
    public void The_schedulers_per_thread_accounting_is_read_as_seconds_on_a_cpu_waiting_and_times_scheduled()
    {
        var t = ThreadCpuTimes.ParseSchedstat("2500000000 700000000 1234\n");
        Assert.Equal(new ThreadCpuTimes(2.5, 0.7, 1234), t);
        var d = t!.Value.Since(new ThreadCpuTimes(0.5, 0.2, 234));
        Assert.Equal(2.0, d.OnCpuSeconds, 9);
        Assert.Equal(0.5, d.WaitingSeconds!.Value, 9);
        Assert.Equal(1000, d.TimesScheduled);
        Assert.Null(ThreadCpuTimes.ParseSchedstat("garbage"));
        Assert.Null(new ThreadCpuTimes(1, 0.1, 5).Since(new ThreadCpuTimes(0, null, null)).WaitingSeconds);
    }

    [Fact]
    public void The_evidence_is_saved_in_the_results_document_under_its_documented_names()
    {
        var r = Run(readMs: 35, achieved: 80, Starved());
        string json = System.Text.Json.JsonSerializer.Serialize(r, ResultsFile.Options);
        foreach (var name in new[] { "\"hostEvidence\"", "\"workerWaitingForCpuShare\"", "\"workerBusyShare\"", "\"schedulingDelayMs\"", "\"processCoresUsed\"", "\"machineBusyCpus\"",
                                     "\"deviceReadLatencyMs\"", "\"deviceMaxSampleReadLatencyMs\"", "\"onCpuShare\"", "\"waitingForCpuShare\"" })
            Assert.Contains(name, json);
        var back = System.Text.Json.JsonSerializer.Deserialize<TestResults>(json, ResultsFile.Options)!;
        Assert.Equal(0.7, back.MachineEvidence!.WorkerWaitingForCpuShare);
        Assert.Equal("loop7", Assert.Single(back.MachineEvidence.Devices));
    }
}
