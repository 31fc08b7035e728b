using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Verdict;

namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>
/// Runs judged against the calculator's design, on the acceptance vector (402 database IOPS, 88.44 log IOPS, 60% reads,
/// 40 MB/s of maintenance per server): each target beside what was achieved, a verdict line for each, per server and
/// for the deployment, in the reports; and the capacity search's headroom over the calculator's numbers.
/// </summary>
public class CalculatorCheckTests
{
    private static CalculatorTargets Example => new()
    {
        Calculator = "Exchange 2013 Server Role Requirements Calculator", Version = "7.6", Workbook = "E2013Calc.xlsm", Role = "Mailbox server (DAG member)",
        MailboxesPerServer = 2500, DatabasesPerServer = 40, DatabaseSizeGB = 664.6728515625, ServersPerDag = 4, Dags = 2,
        DatabaseIops = 402, LogIops = 88.44, DatabaseReadShare = 0.6, MaintenanceMBPerSecond = 40,
        DatabaseReadsPerSecond = 241.2, DatabaseWritesPerSecond = 160.8, LogWritesPerSecond = 80.4, LogReadsPerSecond = 8.04, DatabaseCachePerMailboxMB = 16.384,
    };

    /// <summary>A host's Performance results over 40 databases, each with these rates (per database) and latencies.</summary>
    internal static TestResults Host(string machine, double readsPerDb, double writesPerDb, double logWritesPerDb, double logReadsPerDb, double maintenanceMBPerDb,
        double readLatencyMs = 14.2, double logLatencyMs = 1.5, CalculatorTargets? targets = null)
    {
        var r = new TestResults { TestType = TestType.Performance, Profile = new MailboxProfile { MailboxCount = 2500, IopsPerMailbox = 0.1608, Calculator = targets ?? Example } };
        r.Environment.MachineName = machine;
        r.Verdict.Result = "Pass";
        for (int i = 1; i <= 40; i++)
        {
            var inst = new InstanceResult { Name = $"Instance.{i}", Index = i };
            inst.Streams.Add(Stream(StreamNames.DatabaseRead, readsPerDb, 32768, readLatencyMs));
            inst.Streams.Add(Stream(StreamNames.DatabaseWrite, writesPerDb, 32768, 3));
            inst.Streams.Add(Stream(StreamNames.LogWrite, logWritesPerDb, 8192, logLatencyMs));
            inst.Streams.Add(Stream(StreamNames.LogReplicationRead, logReadsPerDb, 200000, 2));
            inst.Streams.Add(Stream(StreamNames.MaintenanceRead, maintenanceMBPerDb * 4, 262144, 5));
            r.Instances.Add(inst);
        }
        return r;
    }

    private static StreamResult Stream(string name, double perSecond, double averageBytes, double latencyMs) => new()
    {
        Stream = name, Operations = (long)Math.Ceiling(perSecond * 100), OperationsPerSecond = perSecond, AverageBytes = averageBytes, LatencyMs = new LatencySummary { Mean = latencyMs },
    };

    [Fact]
    public void A_server_that_carries_the_design_meets_every_target_with_a_line_for_each()
    {
        // 40 databases x (6.6 reads + 3.9 writes) = 420 IOPS, 62.9% reads; 40 x (2.1 + 0.25) = 94 log IOPS; 40 x 2.3 = 92 MB/s.
        var check = CalculatorCheck.For(Host("srv-nn-01", 6.6, 3.9, 2.1, 0.25, 2.3))!;

        Assert.True(check.Met);
        Assert.True(check.MixMatched);
        Assert.Equal(new[] { CalculatorCheck.DatabaseIops, CalculatorCheck.LogIops, CalculatorCheck.DatabaseReadShare, CalculatorCheck.MaintenanceMBPerSecond }, check.Rows.Select(r => r.Metric));
        Assert.Equal(new[] { 402, 88.44, 0.6, 40 }, check.Rows.Select(r => r.Target));
        Assert.Equal(420, check.Rows[0].Achieved, 3);
        Assert.Equal(94, check.Rows[1].Achieved, 3);
        Assert.Equal(92, check.Rows[3].Achieved, 3);
        Assert.Equal("Meets the calculator's 402 database IOPS per server at 14.2 ms average read latency (achieved 420).", check.Rows[0].Line);
        Assert.Equal("Meets the calculator's 88.44 log IOPS per server at 1.5 ms average log write latency (achieved 94).", check.Rows[1].Line);
        Assert.Equal("Matches the calculator's 60% database reads (the test read 62.9%).", check.Rows[2].Line);
        Assert.Equal("Meets the calculator's 40 MB/s of background database maintenance per server (achieved 92).", check.Rows[3].Line);
    }

    [Fact]
    public void A_server_short_of_the_design_says_which_target_and_by_how_much()
    {
        // 380 database IOPS at 70% reads, 40 log IOPS: Jetstress's log rate, not the calculator's.
        var check = CalculatorCheck.For(Host("srv-nn-01", 6.65, 2.85, 0.9, 0.1, 0.5))!;

        Assert.False(check.Met);
        Assert.False(check.MixMatched);
        Assert.Equal(new[] { "Short", "Short", "Differs", "Short" }, check.Rows.Select(r => r.Verdict));
        Assert.Equal("Falls short of the calculator's 402 database IOPS per server: achieved 380 (94.5%) at 14.2 ms average read latency.", check.Rows[0].Line);
        Assert.StartsWith("Falls short of the calculator's 88.44 log IOPS per server: achieved 40 (45.2%)", check.Rows[1].Line);
        Assert.Contains("the test read 70%", check.Rows[2].Line);
    }

    [Fact]
    public void Another_mix_than_the_designs_is_said_but_is_not_the_storage_falling_short()
    {
        // 40 x (7.5 reads + 3 writes) = 420 IOPS at 71.4% reads: every rate met, the mix not the design's 60%.
        var check = CalculatorCheck.For(Host("srv-nn-01", 7.5, 3, 2.1, 0.25, 2.3))!;
        Assert.True(check.Met);
        Assert.False(check.MixMatched);
        Assert.Equal(CalculatorCheck.Differs, check.Rows[2].Verdict);
        Assert.Contains("The test's read share was not the design's", TextReport.Render(WithCheck(Host("srv-nn-01", 7.5, 3, 2.1, 0.25, 2.3))));
    }

    private static TestResults WithCheck(TestResults r)
    {
        r.CalculatorCheck = CalculatorCheck.For(r);
        return r;
    }

    [Fact]
    public void Enough_iops_at_a_latency_beyond_the_limit_does_not_meet_the_design()
    {
        var host = Host("srv-nn-01", 6.6, 3.9, 2.1, 0.25, 2.3, readLatencyMs: 31);
        host.Verdict.Reasons.Add(new VerdictReason { Code = "DatabaseReadLatencyAverage", Instance = "Instance.1", Message = "too slow" });
        var row = CalculatorCheck.For(host)!.Rows[0];
        Assert.Equal(CalculatorCheck.Short, row.Verdict);
        Assert.Equal("Reaches the calculator's 402 database IOPS per server (achieved 420) at 31.0 ms average read latency, but its read latency broke the test's limit.", row.Line);
    }

    [Fact]
    public void The_deployment_of_a_dags_four_servers_is_judged_against_the_calculators_dag_figures()
    {
        var hosts = Enumerable.Range(1, 4).Select(i => Host($"srv-nn-0{i}", 6.6, 3.9, 2.1, 0.25, 2.3)).ToList();
        var check = CalculatorCheck.ForDeployment(hosts)!;

        Assert.Equal(4, check.Servers);
        Assert.Equal(new[] { 1608, 353.76, 0.6, 160 }, check.Rows.Select(r => r.Target));
        Assert.Equal(1680, check.Rows[0].Achieved, 3);
        Assert.Equal("Meets the calculator's 1608 database IOPS for a DAG of 4 servers at 14.2 ms average read latency (achieved 1680).", check.Rows[0].Line);
        Assert.Contains("for the environment's 8 servers", CalculatorCheck.ForDeployment(Enumerable.Range(1, 8).Select(i => Host($"h{i}", 6.6, 3.9, 2.1, 0.25, 2.3)).ToList())!.Rows[0].Line);
    }

    [Fact]
    public void A_profile_not_from_the_calculator_has_no_check_and_reports_no_section()
    {
        var plain = Host("h", 6.6, 3.9, 2.1, 0.25, 2.3);
        plain.Profile.Calculator = null;
        Assert.Null(CalculatorCheck.For(plain));
        Assert.DoesNotContain("Calculator Design Check", TextReport.Render(plain));
    }

    [Fact]
    public void Every_report_carries_the_targets_beside_the_achieved_figures()
    {
        var r = Host("srv-nn-01", 6.6, 3.9, 2.1, 0.25, 2.3);
        r.CalculatorCheck = CalculatorCheck.For(r);

        string text = TextReport.Render(r);
        Assert.Contains("Calculator Design Check (Exchange 2013 Server Role Requirements Calculator 7.6, E2013Calc.xlsm)", text);
        Assert.Contains("Meets the calculator's 402 database IOPS per server at 14.2 ms average read latency", text);
        string html = HtmlReport.Render(r);
        Assert.Contains("<legend>Calculator Design Check", html);
        Assert.Contains("<td class=\"grid_row_header\">Log IOPS</td><td class=\"grid_data\">88.44</td><td class=\"grid_data\">94</td><td class=\"success\">Meets</td>", html);
        string xml = XmlReport.Render(r);
        Assert.Contains("<calculator-design-check calculator=\"Exchange 2013 Server Role Requirements Calculator\" version=\"7.6\"", xml);
        Assert.Contains("name=\"MaintenanceMBPerSecond\" target=\"40\" achieved=\"92\" verdict=\"Meets\"", xml);
    }

    [Fact]
    public void The_capacity_search_reports_its_headroom_over_the_calculators_numbers()
    {
        var answer = new CapacityAnswer { Mailboxes = 3125, AchievedIops = 510.5 };
        Assert.Equal("Against the calculator's design (Exchange 2013 Server Role Requirements Calculator 7.6): 25% over its 2500 mailboxes per server; the passing step achieved 510.5 database IOPS, 108.5 over its 402.",
            CapacityReport.CalculatorHeadroom(answer, Example, 1));
        Assert.Contains("10% under its 10000 mailboxes for 4 servers", CapacityReport.CalculatorHeadroom(new CapacityAnswer { Mailboxes = 9000, AchievedIops = 1400 }, Example, 4));
    }
}
