using System.Globalization;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Verdict;

/// <summary>
/// A run judged against the sizing calculator's design (results-schema.md, "calculatorCheck"): for a profile built from
/// the calculator, each of its per-server targets — database IOPS, log IOPS, database read share, background
/// maintenance MB/s — beside what the run achieved, with a verdict line. It does not change the run's Pass or Fail
/// (Jetstress's rules, which scripts read); it says whether the storage carried the load the design assumed. For
/// several hosts, the deployment's: every target times the hosts, achieved figures summed.
/// </summary>
public sealed class CalculatorCheck
{
    /// <summary>
    /// How far the test's read share may lie from the calculator's and still be the design's mix: Jetstress, and this
    /// engine's transactional model after it, aims anywhere between 3:2 and 2:1 reads to writes (60% to 66.7%), the
    /// calculator's profiles say 3:2 or 2:1; 7 points lets a run anywhere in that aim match either, and no 50:50 or 75:25 mix.
    /// </summary>
    public const double ReadShareTolerance = 0.07;

    public const string DatabaseIops = "DatabaseIops";
    public const string LogIops = "LogIops";
    public const string DatabaseReadShare = "DatabaseReadShare";
    public const string MaintenanceMBPerSecond = "MaintenanceMBPerSecond";

    public const string Meets = "Meets";
    public const string Short = "Short";
    public const string Matches = "Matches";
    public const string Differs = "Differs";
    public const string NotMeasured = "NotMeasured";

    public string Calculator { get; set; } = "";
    public string Version { get; set; } = "";
    public string Workbook { get; set; } = "";
    /// <summary>1 for a host's run; the number of hosts for a deployment.</summary>
    public int Servers { get; set; } = 1;
    /// <summary>
    /// Every rate target met: database IOPS, log IOPS and maintenance. The read share is the test's mix, not the
    /// storage's doing: its row says whether the mix was the design's, and does not count here.
    /// </summary>
    public bool Met { get; set; }
    /// <summary>The test's read share was the design's (within <see cref="ReadShareTolerance"/>).</summary>
    public bool MixMatched { get; set; }
    public List<CalculatorCheckRow> Rows { get; set; } = new();

    /// <summary>The check of one host's run, or null when its profile is not the calculator's or its test type carries no transactional load.</summary>
    public static CalculatorCheck? For(TestResults r) => ForDeployment(new[] { r });

    /// <summary>The deployment's check over several hosts' runs of one calculator profile, or null when they are not that.</summary>
    public static CalculatorCheck? ForDeployment(IReadOnlyList<TestResults> hosts)
    {
        if (hosts.Count == 0 || hosts[0].Profile.Calculator is not { } t) return null;
        foreach (var h in hosts)
        {
            if (!TestTypes.Of(h.TestType).Transactional) return null;
            if (h.Profile.Calculator is not { } other || other.Workbook != t.Workbook || other.Version != t.Version || other.DatabaseIops != t.DatabaseIops) return null;
        }
        int n = hosts.Count;
        var figures = Achieved.Of(hosts);
        bool readLatencyFailed = hosts.Any(h => h.Verdict.Reasons.Any(x => x.Code.StartsWith("DatabaseReadLatency", StringComparison.Ordinal)));
        bool logLatencyFailed = hosts.Any(h => h.Verdict.Reasons.Any(x => x.Code.StartsWith("LogWriteLatency", StringComparison.Ordinal)));
        bool maintenance = hosts.All(h => h.Profile.BackgroundMaintenance);
        string per = n == 1 ? "per server" : Scope(t, n);

        var rows = new List<CalculatorCheckRow>
        {
            Rate(DatabaseIops, "database IOPS", t.DatabaseIops * n, figures.DatabaseIops, per, readLatencyFailed,
                F($"at {figures.ReadLatencyMs:0.0} ms average read latency"), "its read latency broke the test's limit"),
            Rate(LogIops, "log IOPS", t.LogIops * n, figures.LogIops, per, logLatencyFailed,
                F($"at {figures.LogWriteLatencyMs:0.0} ms average log write latency"), "its log write latency broke the test's limit",
                shortNote: "the test's log I/O follows its transactions, as Jetstress's does, so this run does not show the design's log rate"),
            Share(t.DatabaseReadShare, figures.ReadShare),
            maintenance
                ? Rate(MaintenanceMBPerSecond, "MB/s of background database maintenance", t.MaintenanceMBPerSecond * n, figures.MaintenanceMBPerSecond, per, false, "", "")
                : new CalculatorCheckRow
                {
                    Metric = MaintenanceMBPerSecond, Target = Round(t.MaintenanceMBPerSecond * n), Achieved = 0, Verdict = NotMeasured, Met = false,
                    Line = F($"Not measured: the calculator's {t.MaintenanceMBPerSecond * n:0.###} MB/s of background database maintenance {per} needs a run with BackgroundMaintenance on."),
                },
        };
        return new CalculatorCheck
        {
            Calculator = t.Calculator, Version = t.Version, Workbook = t.Workbook, Servers = n, Rows = rows,
            Met = rows.Where(r => r.Metric != DatabaseReadShare).All(r => r.Met), MixMatched = rows.Single(r => r.Metric == DatabaseReadShare).Met,
        };
    }

    /// <summary>"per DAG (4 servers)", "for the environment (8 servers)", or "for 3 servers (402 per server)".</summary>
    private static string Scope(CalculatorTargets t, int servers) =>
        servers == t.ServersPerDag ? F($"for a DAG of {servers} servers")
        : servers == t.ServersPerDag * t.Dags ? F($"for the environment's {servers} servers")
        : F($"for {servers} servers");

    private static CalculatorCheckRow Rate(string metric, string what, double target, double achieved, string per, bool latencyFailed, string at, string latencyNote, string? shortNote = null)
    {
        bool reached = achieved >= target;
        string atText = at.Length > 0 ? " " + at : "";
        string line = reached && !latencyFailed
            ? F($"Meets the calculator's {target:0.###} {what} {per}{atText} (achieved {achieved:0.###}).")
            : reached
            ? F($"Reaches the calculator's {target:0.###} {what} {per} (achieved {achieved:0.###}){atText}, but {latencyNote}.")
            : F($"Falls short of the calculator's {target:0.###} {what} {per}: achieved {achieved:0.###} ({(target > 0 ? achieved / target * 100 : 0):0.#}%){atText}") + (shortNote is null ? "." : $"; {shortNote}.");
        bool met = reached && !latencyFailed;
        return new CalculatorCheckRow { Metric = metric, Target = Round(target), Achieved = Round(achieved), Verdict = met ? Meets : Short, Met = met, Line = line };
    }

    private static CalculatorCheckRow Share(double target, double achieved)
    {
        bool matches = Math.Abs(achieved - target) <= ReadShareTolerance;
        string line = matches
            ? F($"Matches the calculator's {target * 100:0.#}% database reads (the test read {achieved * 100:0.#}%).")
            : F($"Differs from the calculator's {target * 100:0.#}% database reads: the test read {achieved * 100:0.#}%, so its IOPS are of another mix than the design's.");
        return new CalculatorCheckRow { Metric = DatabaseReadShare, Target = Round(target), Achieved = Round(achieved), Verdict = matches ? Matches : Differs, Met = matches, Line = line };
    }

    private static double Round(double value) => Math.Round(value, 3);

    private static string F(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    /// <summary>What the hosts achieved, as the calculator counts it: rates summed, latencies the mean of the hosts' means over their databases (the capture check counts so too).</summary>
    internal readonly record struct Achieved(double DatabaseIops, double LogIops, double ReadShare, double MaintenanceMBPerSecond, double ReadLatencyMs, double LogWriteLatencyMs)
    {
        public static Achieved Of(IReadOnlyList<TestResults> hosts)
        {
            double databaseIops = 0, logIops = 0, reads = 0, maintenanceBytes = 0, readLatency = 0, logLatency = 0;
            int readHosts = 0, logHosts = 0;
            foreach (var h in hosts)
            {
                databaseIops += TransactionalIops.Achieved(h);
                double hostRead = 0, hostLog = 0;
                int readInstances = 0, logInstances = 0;
                foreach (var i in h.Instances)
                {
                    reads += i.Stream(StreamNames.DatabaseRead)?.OperationsPerSecond ?? 0;
                    logIops += (i.Stream(StreamNames.LogWrite)?.OperationsPerSecond ?? 0) + (i.Stream(StreamNames.LogRead)?.OperationsPerSecond ?? 0)
                               + (i.Stream(StreamNames.LogReplicationRead)?.OperationsPerSecond ?? 0);
                    if (i.Stream(StreamNames.MaintenanceRead) is { } bdm) maintenanceBytes += bdm.OperationsPerSecond * bdm.AverageBytes;
                    if (i.Stream(StreamNames.DatabaseRead) is { Operations: > 0 } read) { hostRead += read.LatencyMs.Mean; readInstances++; }
                    if (i.Stream(StreamNames.LogWrite) is { Operations: > 0 } log) { hostLog += log.LatencyMs.Mean; logInstances++; }
                }
                if (readInstances > 0) { readLatency += hostRead / readInstances; readHosts++; }
                if (logInstances > 0) { logLatency += hostLog / logInstances; logHosts++; }
            }
            return new Achieved(databaseIops, logIops, databaseIops > 0 ? reads / databaseIops : 0, maintenanceBytes / (1024.0 * 1024.0),
                readHosts > 0 ? readLatency / readHosts : 0, logHosts > 0 ? logLatency / logHosts : 0);
        }
    }
}

/// <summary>One target of the calculator beside what the run achieved.</summary>
public sealed class CalculatorCheckRow
{
    /// <summary>DatabaseIops, LogIops, DatabaseReadShare or MaintenanceMBPerSecond.</summary>
    public string Metric { get; set; } = "";
    /// <summary>The calculator's figure for the servers judged (a share from 0 to 1 for the read share).</summary>
    public double Target { get; set; }
    public double Achieved { get; set; }
    /// <summary>Meets or Short (rates), Matches or Differs (the read share), NotMeasured.</summary>
    public string Verdict { get; set; } = "";
    public bool Met { get; set; }
    /// <summary>The verdict in words, as every report prints it.</summary>
    public string Line { get; set; } = "";
}
