using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// A run judged against the PerfMon capture its profile was made of (results-schema.md, "captureCheck";
/// docs/capture.md): the tested target — the busiest hour x the growth factor, or the calculator's design when higher —
/// beside the transactional database IOPS the run achieved and its read latency, in one line such as "Tested at 1.3x
/// the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): 5,210 IOPS; achieved 6,950 at 9.8 ms". Per host the
/// target is the captured servers' total split evenly; for several hosts, that times the hosts. It does not change
/// the run's Pass or Fail (Jetstress's rules, which scripts read).
/// </summary>
public sealed class CaptureCheck
{
    /// <summary>The servers captured, "EX01-EX04".</summary>
    public string Servers { get; set; } = "";
    /// <summary>1 for a host's run; the number of hosts for a deployment.</summary>
    public int Hosts { get; set; } = 1;
    /// <summary>"10:00-11:00 on 2026-11-02".</summary>
    public string Window { get; set; } = "";
    public double GrowthFactor { get; set; }
    /// <summary>The busiest hour's (or named window's) database IOPS, all captured servers.</summary>
    public double BusiestHourIops { get; set; }
    /// <summary>The capture's target for the hosts judged: busiest hour x growth / captured servers x hosts.</summary>
    public double TargetIops { get; set; }
    /// <summary>The calculator's database IOPS for the hosts judged, when the profile had its design too; 0 otherwise.</summary>
    public double CalculatorIops { get; set; }
    /// <summary>The higher of the two: what the run was sized to and is judged against.</summary>
    public double TestedIops { get; set; }
    public double AchievedIops { get; set; }
    public double ReadLatencyMs { get; set; }
    /// <summary>
    /// The capture's database read share (reads / reads + writes) beside the test's: the test's mix is its own
    /// transactional model's (Jetstress's, 3:2 to 2:1), so this says how near today's mix the tested IOPS were; it does not count toward <see cref="Met"/>.
    /// </summary>
    public double CaptureReadShare { get; set; }
    public double TestReadShare { get; set; }
    /// <summary>Achieved at least the tested IOPS with no database read latency rule broken, in a run that ran to its end.</summary>
    public bool Met { get; set; }
    public string Line { get; set; } = "";

    public static CaptureCheck? For(TestResults r) => ForDeployment(new[] { r });

    /// <summary>The check of hosts that ran one capture profile, or null when they did not (or their test type carries no transactional load).</summary>
    public static CaptureCheck? ForDeployment(IReadOnlyList<TestResults> hosts)
    {
        if (hosts.Count == 0 || hosts[0].Profile.Capture is not { Servers.Length: > 0 } c) return null;
        foreach (var h in hosts)
        {
            if (!TestTypes.Of(h.TestType).Transactional) return null;
            if (h.Profile.Capture is not { } other || other.WindowStart != c.WindowStart || other.TestedIops != c.TestedIops) return null;
        }
        int n = hosts.Count, captured = c.Servers.Length;
        double scale = n / (double)captured;
        var achieved = CalculatorCheck.Achieved.Of(hosts);
        bool readLatencyFailed = hosts.Any(h => h.Verdict.Reasons.Any(x => x.Code.StartsWith("DatabaseReadLatency", StringComparison.Ordinal)));
        double target = Math.Round(c.TargetIops * scale, 3), calculator = Math.Round(c.CalculatorIops * scale, 3), tested = Math.Round(c.TestedIops * scale, 3);
        // A run stopped or cut short is judged by its final rules only (VerdictJudge): its latency was never held to the
        // limits, so reaching the IOPS says nothing about carrying them. It is not judged against the capture either.
        string? cut = hosts.Select(h => h.Completion).FirstOrDefault(x => x is Completions.Stopped or Completions.Interrupted);
        bool met = cut is null && achieved.DatabaseIops >= tested && !readLatencyFailed;
        string what = c.WindowNamed ? "the named window" : "the busiest hour";
        string scope = n == captured ? "" : n == 1 ? F($" per server ({c.TestedIops:N0} over {captured} servers)") : F($" for {n} servers ({c.TestedIops:N0} over {captured})");
        string sizedBy = calculator > target
            ? F($"Tested at the calculator's design, above {c.GrowthFactor:0.##}x {what} of {c.ServerNames()} ({c.WindowText()}, {target:N0}): {tested:N0} IOPS{scope}")
            : F($"Tested at {c.GrowthFactor:0.##}x {what} of {c.ServerNames()} ({c.WindowText()}): {tested:N0} IOPS{scope}");
        string verdict = cut is not null ? F($"not judged: the run was {cut.ToLowerInvariant()} before its end, its latencies never held to the limits")
            : met ? "meets it"
            : achieved.DatabaseIops >= tested ? "reaches it, but its read latency broke the test's limit"
            : F($"short of it ({(tested > 0 ? achieved.DatabaseIops / tested * 100 : 0):0.#}%)");
        return new CaptureCheck
        {
            Servers = c.ServerNames(), Hosts = n, Window = c.WindowText(), GrowthFactor = c.GrowthFactor, BusiestHourIops = c.DatabaseIops,
            TargetIops = target, CalculatorIops = calculator, TestedIops = tested, AchievedIops = Math.Round(achieved.DatabaseIops, 3),
            ReadLatencyMs = Math.Round(achieved.ReadLatencyMs, 3), Met = met,
            CaptureReadShare = c.DatabaseIops > 0 ? Math.Round(c.DatabaseReadsPerSecond / c.DatabaseIops, 3) : 0, TestReadShare = Math.Round(achieved.ReadShare, 3),
            Line = F($"{sizedBy}; achieved {achieved.DatabaseIops:N0} at {achieved.ReadLatencyMs:0.0} ms: {verdict}."),
        };
    }

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
