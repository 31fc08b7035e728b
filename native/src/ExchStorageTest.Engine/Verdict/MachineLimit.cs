using System.Globalization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// The host-limited rule (docs/results-schema.md "Host evidence"), defined once: when the host — not the
/// storage — explains every failed load rule of a measured window, the verdict says so with a <see cref="Code"/>
/// reason that gives the evidence, and a capacity search's answer is a lower bound. A Pass is never touched, and the
/// Fail stays a Fail: the run did not show the storage carrying the load, it only showed that this host could not put
/// it there.
/// <para>
/// Two questions, both from measurements of the same window (<see cref="MachineEvidence"/>, the instances' flushing
/// evidence). Was the host strained? An I/O worker waited for a CPU (<see cref="WaitingForCpuShare"/>), or never
/// waited for anything but a CPU (<see cref="BusyShare"/>), or thinking sessions were woken late
/// (<see cref="LateThinkShare"/>). And does the storage not explain the failure? Per rule: a latency rule, when the
/// device's own latency (the kernel's per-device count) stayed within <see cref="DeviceShareOfLimit"/> of the rule's
/// limit — the window's mean for an average rule, its slowest sample interval for a maximum rule — so the rest of what
/// the engine measured was the wait for its worker to run; Database Page Fault Stalls, when the scavenger kept fewer
/// than <see cref="FlushSlotsShare"/> of its write slots busy — it could have written more and did not get to — or when
/// the device's own writes were quick (within the share of the log write limit) — the write-back was not held up; target
/// IOPS not met, when the devices' own read and write latency stayed within the same share of the average limits — the
/// sessions were not waiting for slow I/O. Where the device latency is not known (Windows, a device the run could not
/// name), a latency or IOPS rule stays the storage's: the rule never claims what it did not measure. A window with I/O
/// errors is not asked at all (<see cref="VerdictJudge"/>): the errors explain its missing throughput themselves.
/// </para>
/// </summary>
public static class MachineLimit
{
    /// <summary>The verdict reason (and a capacity answer's limiting rule) when the host explains the failures.</summary>
    public const string Code = ReasonCodes.HostLimited;

    /// <summary>
    /// An I/O worker runnable but not running for this share of the window was starved. Measured here (2-vCPU VM,
    /// Linux schedstat, 1 s windows): a paced run on a RAM-backed volume with the machine otherwise idle-ish waited
    /// 1-4%; the same beside another build (load average 10-19) 5-9%; pinned to one CPU beside four CPU burners, 60-80%.
    /// </summary>
    public const double WaitingForCpuShare = 0.10;

    /// <summary>
    /// An I/O worker on a CPU or waiting for one for this share of the window never waited for the storage: the engine
    /// itself set the pace. A worker carrying a profile's paced load on any storage waits most of the time (measured
    /// 5-40% busy on a RAM-backed volume up to ~8,000 IOPS); a closed-loop worker on a RAM-backed volume runs 95-100%.
    /// </summary>
    public const double BusyShare = 0.90;

    /// <summary>
    /// This share of thinking sessions woken later than <see cref="Workload.SessionPacer.LateWakeMilliseconds"/>
    /// means the worker's turns came late. A healthy host wakes them within 1-2 ms (the wait is aimed to the
    /// millisecond); measured under 1% late on the busy VM, 30-70% pinned beside CPU burners.
    /// </summary>
    public const double LateThinkShare = 0.10;

    /// <summary>
    /// A latency rule is the host's only when the device's own average latency for that direction stayed within this
    /// share of the stream's average limit (reads: 10 ms of 20; writes: 5 ms of 10): a device that fast leaves no room
    /// for the storage to have broken the rule, so what the engine measured on top was its own wait to run. A device
    /// near the limit is the storage's, even on a busy host.
    /// </summary>
    public const double DeviceShareOfLimit = 0.5;

    /// <summary>
    /// Where the device's write latency is not known, stalls are the host's only when the scavenger's writes in flight
    /// averaged less than this share of its limit (<see cref="RunSettings.MaxFlushesInFlight"/>): storage that cannot
    /// write back fills the slots (measured: a serialized 4 ms delay disk kept 25-32 of 32 busy when stalling), a host
    /// that cannot run the scavenger leaves them empty (RAM-backed volumes on the busy VM: 0.5-3 of 32 with stall waits
    /// of 0.05-0.1 ms, docs/benchmarks.md). Where it is known and quick, full slots are no sign of the storage: a starved
    /// worker holds finished writes "in flight" until it gets to reap them (measured: workers starved on one CPU, the
    /// RAM-backed device writing in 0.5 ms, the slots full).
    /// </summary>
    public const double FlushSlotsShare = 0.5;

    private static readonly string[] ReadRules = { "DatabaseReadLatencyAverage", "DatabaseReadLatencyMaximum" };
    private static readonly string[] LogRules = { "LogWriteLatencyAverage", "LogWriteLatencyMaximum" };
    private const string StallRule = "PageFaultStalls";

    /// <summary>True for the rules a load window is judged by, the ones the host can explain.</summary>
    public static bool IsLoadRule(string code) =>
        Array.IndexOf(ReadRules, code) >= 0 || Array.IndexOf(LogRules, code) >= 0 || code == StallRule || code == VerdictJudge.TargetIopsNotMet;

    /// <summary>Why the host was strained, one phrase a sign; empty when it kept up.</summary>
    public static List<string> Strain(MachineEvidence e)
    {
        var signs = new List<string>();
        if (e.WorkerWaitingForCpuShare is double wait && wait >= WaitingForCpuShare)
            signs.Add(F($"an I/O worker waited for a CPU {Pct(wait)} of the window") + (e.SchedulingDelayMs is double d ? F($" ({d:0.###} ms each time it became runnable)") : ""));
        if (e.WorkerBusyShare is double busy && busy >= BusyShare)
            signs.Add(F($"an I/O worker was busy {Pct(busy)} of the window (on a CPU or waiting for one), so it was not waiting for the storage"));
        if (e.LateThinkShare is double late && late >= LateThinkShare)
            signs.Add(F($"{Pct(late)} of the thinking sessions were woken more than {Workload.SessionPacer.LateWakeMilliseconds:0} ms after their schedule allowed ({e.ThinkLagMs:0.###} ms late on average)"));
        return signs;
    }

    /// <summary>
    /// The <see cref="Code"/> reason for <paramref name="reasons"/> — the window's failed rules — when the host was
    /// strained and explains every failed load rule; null when nothing failed on a load rule, the host kept up, or some
    /// failure is the storage's.
    /// </summary>
    public static VerdictReason? Explain(TestResults r, Thresholds t, IReadOnlyList<VerdictReason> reasons)
    {
        if (r.MachineEvidence is not { } e) return null;
        var load = reasons.Where(x => IsLoadRule(x.Code)).ToList();
        if (load.Count == 0) return null;
        var strain = Strain(e);
        if (strain.Count == 0) return null;
        var why = new List<string>();
        var latencies = new List<string>();
        foreach (var reason in load.Where(x => x.Code != VerdictJudge.TargetIopsNotMet))
        {
            bool stall = reason.Code == StallRule;
            string? because = stall ? StallsExplained(e, t, r, reason) : LatencyExplained(e, t, reason.Code);
            if (because is null) return null; // some failure is the storage's: the verdict says nothing about the host
            var into = stall ? why : latencies;
            if (!into.Contains(because)) into.Add(because);
        }
        if (latencies.Count > 0)
            why.Insert(0, F($"the {DeviceNames(e)} itself served {string.Join(", ", latencies)}, each within {Pct(DeviceShareOfLimit)} of its limit, so the rest of the latency measured was the wait for the worker to run"));
        if (load.Exists(x => x.Code == VerdictJudge.TargetIopsNotMet))
        {
            if (DeviceKeptUp(e, t) is not { } kept) return null;
            why.Add(kept);
        }
        var rules = load.Select(x => x.Instance is null ? x.Code : $"{x.Code} ({x.Instance})").Distinct().ToList();
        return new VerdictReason
        {
            Code = Code,
            Message = $"The host, not the storage, limited this run: {string.Join(", ", rules)} came from a host that could not keep up — {string.Join("; ", strain)}; {string.Join("; ", why)}. " +
                      "The storage carried the load the host could put on it; what it can carry is at least that, not measured here.",
            Measured = e.WorkerWaitingForCpuShare ?? e.WorkerBusyShare,
        };
    }

    /// <summary>What the device's own latency was, for a latency rule it clears ("reads in 0.4 ms on average (average limit 20 ms)"); null when it does not or is not known.</summary>
    private static string? LatencyExplained(MachineEvidence e, Thresholds t, string code)
    {
        bool read = Array.IndexOf(ReadRules, code) >= 0;
        bool maximum = code.EndsWith("Maximum", StringComparison.Ordinal);
        double? device = (read, maximum) switch
        {
            (true, false) => e.DeviceReadLatencyMs,
            (true, true) => e.DeviceMaxSampleReadLatencyMs,
            (false, false) => e.DeviceWriteLatencyMs,
            (false, true) => e.DeviceMaxSampleWriteLatencyMs,
        };
        double limit = (read, maximum) switch
        {
            (true, false) => t.AverageDatabaseReadLatencyMs,
            (true, true) => t.MaximumDatabaseReadLatencyMs,
            (false, false) => t.AverageLogWriteLatencyMs,
            (false, true) => t.MaximumLogWriteLatencyMs,
        };
        if (device is not double d || d > DeviceShareOfLimit * limit) return null;
        return F($"{(read ? "reads" : "writes")} in {d:0.###} ms {(maximum ? "in its slowest sample interval" : "on average")} ({(maximum ? "maximum" : "average")} limit {limit:G} ms)");
    }

    /// <summary>Why the devices' own latency clears target IOPS not met: both directions measured and quick; null otherwise.</summary>
    private static string? DeviceKeptUp(MachineEvidence e, Thresholds t)
    {
        double readLimit = DeviceShareOfLimit * t.AverageDatabaseReadLatencyMs, writeLimit = DeviceShareOfLimit * t.AverageLogWriteLatencyMs;
        if (e.DeviceReadLatencyMs is null && e.DeviceWriteLatencyMs is null) return null;
        if (e.DeviceReadLatencyMs > readLimit || e.DeviceWriteLatencyMs > writeLimit) return null;
        return F($"the {DeviceNames(e)} served reads in {Ms(e.DeviceReadLatencyMs)} and writes in {Ms(e.DeviceWriteLatencyMs)} on average (within {Pct(DeviceShareOfLimit)} of the average limits), so the sessions short of the target were not held up by slow I/O");
    }

    private static string DeviceNames(MachineEvidence e) => $"{Wording.Noun(e.Devices.Count, "device", "devices")} ({string.Join(", ", e.Devices)})";

    /// <summary>Why the scavenger's idle write slots clear a stall failure; null when they were busy or unknown.</summary>
    private static string? StallsExplained(MachineEvidence e, Thresholds t, TestResults r, VerdictReason reason)
    {
        int slots = r.Settings.MaxFlushesInFlight;
        var inst = r.Instances.Find(i => i.Name == reason.Instance);
        if (inst is null) return null;
        // The device wrote back quickly: the slots, however full, were held by a worker that did not get to reap them.
        if (e.DeviceWriteLatencyMs is double d && d <= DeviceShareOfLimit * t.AverageLogWriteLatencyMs)
            return F($"the {DeviceNames(e)} wrote in {d:0.###} ms on average, so the scavenger of {inst.Name} was not held up by the storage ({inst.FlushWritesInFlight:0.##} of its {slots} writes in flight, stalls waited {inst.PageFaultStallWaitMs:0.###} ms)");
        if (slots <= 0 || inst.FlushWritesInFlight >= FlushSlotsShare * slots) return null;
        return F($"the scavenger of {inst.Name} kept {inst.FlushWritesInFlight:0.##} of its {slots} writes in flight (stalls waited {inst.PageFaultStallWaitMs:0.###} ms): it could have written more and did not get to");
    }

    /// <summary>The evidence as one test-log line, on every load run (pass or fail).</summary>
    public static string Describe(MachineEvidence e)
    {
        var parts = new List<string>();
        if (e.Workers.Count > 0)
        {
            double onCpu = e.Workers.Max(w => w.OnCpuShare);
            parts.Add(F($"I/O workers on a CPU up to {Pct(onCpu)} of the window") +
                      (e.WorkerWaitingForCpuShare is double wait ? F($", waiting for one up to {Pct(wait)}") + (e.SchedulingDelayMs is double d ? F($" ({d:0.###} ms per wake-up)") : "") : "") +
                      (e.WorkerBusyShare is double busy ? F($", busy up to {Pct(busy)}") : ""));
        }
        parts.Add(F($"the engine's process {e.ProcessCoresUsed:0.##} cores"));
        if (e.MachineBusyCpus is double machine) parts.Add(F($"the machine {machine:0.##} of {e.MachineCpus} CPUs busy"));
        if (e.ThinkLagMs is double lag) parts.Add(F($"thinking sessions woken {lag:0.###} ms late on average ({Pct(e.LateThinkShare)} over {Workload.SessionPacer.LateWakeMilliseconds:0} ms)"));
        if (e.DeviceReadLatencyMs is not null || e.DeviceWriteLatencyMs is not null)
            parts.Add($"the devices' own latency ({string.Join(", ", e.Devices)}): reads {Ms(e.DeviceReadLatencyMs)} (slowest sample {Ms(e.DeviceMaxSampleReadLatencyMs)}), writes {Ms(e.DeviceWriteLatencyMs)} (slowest sample {Ms(e.DeviceMaxSampleWriteLatencyMs)})");
        var strain = Strain(e);
        return "Host evidence: " + string.Join("; ", parts) + (strain.Count == 0 ? " - the host kept up." : " - the host was strained.");
    }

    private static string Pct(double? share) => share is double v ? F($"{v * 100:0}%") : "not measured";
    private static string Ms(double? ms) => ms is double v ? F($"{v:0.###} ms") : "not measured";
    private static string F(FormattableString s) => s.ToString(CultureInfo.InvariantCulture);
}
