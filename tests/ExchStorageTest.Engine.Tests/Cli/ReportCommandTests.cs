using System.Text.Json;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Reports;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>The report command through the real engine process: single results, hosts of one run, and a folder.</summary>
public class ReportCommandTests : IDisposable
{
    private readonly TestFolder _dir = new("report");

    private string Save(TestResults r, string name)
    {
        string path = _dir.Combine(name);
        ResultsFile.Save(r, path);
        return path;
    }

    private static JsonElement ReportEvent(List<JsonElement> events) => events.Single(e => e.GetProperty("type").GetString() == "report");

    [Fact]
    public void One_results_file_gives_the_text_report_and_the_requested_files()
    {
        string file = Save(ReportFixtures.Js13(), "Performance_js13.json");
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Text\",\"Html\"],\"paths\":[" + JsonSerializer.Serialize(file) + "]}");
        Assert.Equal(0, exit);
        var report = ReportEvent(events);
        Assert.Contains("Overall Test Result", report.GetProperty("text").GetString());
        var files = report.GetProperty("files").EnumerateArray().Select(f => f.GetString()!).ToList();
        Assert.Equal(new[] { _dir.Combine("Performance_js13.txt"), _dir.Combine("Performance_js13.html") }, files);
        Assert.All(files, f => Assert.True(File.Exists(f)));
        Assert.Equal(1, report.GetProperty("runs").GetInt32());
        Assert.Equal(8, report.GetProperty("instances").GetArrayLength()); // 4 transactional + 4 total rows
    }

    [Fact]
    public void Two_hosts_of_one_calculator_profile_are_judged_as_a_deployment_against_the_calculators_targets_times_two()
    {
        var targets = new CalculatorTargets { Calculator = "Exchange 2013 Server Role Requirements Calculator", Version = "7.6", Workbook = "design.xlsm", DatabaseIops = 100, LogIops = 5, DatabaseReadShare = 0.6, MaintenanceMBPerSecond = 1, ServersPerDag = 2, Dags = 1 };
        foreach (var (r, name) in new[] { (ReportFixtures.Js13(), "js13.json"), (ReportFixtures.Js14(), "js14.json") })
        {
            r.Profile.Calculator = targets;
            Save(r, name);
        }
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Text\"],\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        var check = ReportEvent(events).GetProperty("aggregate").GetProperty("calculatorCheck");
        Assert.Equal(2, check.GetProperty("servers").GetInt32());
        var rows = check.GetProperty("rows").EnumerateArray().ToList();
        Assert.Equal(200, rows[0].GetProperty("target").GetDouble());
        double sum = ReportFixtures.Js13().Sizing.AchievedTransactionalIops + ReportFixtures.Js14().Sizing.AchievedTransactionalIops;
        Assert.Equal(Math.Round(sum, 3), rows[0].GetProperty("achieved").GetDouble(), 2);
        Assert.Contains("the calculator's 200 database IOPS for a DAG of 2 servers", rows[0].GetProperty("line").GetString());
        string aggregateText = File.ReadAllText(Directory.GetFiles(_dir.Path, "Aggregate_*.txt").Single(f => !f.EndsWith(".esrp.txt", StringComparison.Ordinal)));
        Assert.Contains("Calculator Design Check (Exchange 2013 Server Role Requirements Calculator 7.6, design.xlsm, 2 servers)", aggregateText);
    }

    [Fact]
    public void Two_hosts_of_one_capture_profile_are_judged_as_a_deployment_against_the_capture_s_target_for_two()
    {
        // Four servers captured, 400 database IOPS in their busiest hour x 1.5 = 600: two hosts carry half, 300.
        var captured = new CaptureTargets
        {
            Captures = new[] { "ex.csv" }, Servers = new[] { "EX01", "EX02", "EX03", "EX04" }, WindowStart = "2026-11-02 10:00", WindowEnd = "2026-11-02 11:00",
            GrowthFactor = 1.5, DatabaseIops = 400, TargetIops = 600, TestedIops = 600,
        };
        foreach (var (r, name) in new[] { (ReportFixtures.Js13(), "js13.json"), (ReportFixtures.Js14(), "js14.json") })
        {
            r.Profile.Capture = captured;
            Save(r, name);
        }
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Text\"],\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        var check = ReportEvent(events).GetProperty("aggregate").GetProperty("captureCheck");
        Assert.Equal(2, check.GetProperty("hosts").GetInt32());
        Assert.Equal(300, check.GetProperty("testedIops").GetDouble());
        double sum = ReportFixtures.Js13().Sizing.AchievedTransactionalIops + ReportFixtures.Js14().Sizing.AchievedTransactionalIops;
        Assert.Equal(Math.Round(sum, 3), check.GetProperty("achievedIops").GetDouble(), 2);
        Assert.StartsWith("Tested at 1.5x the busiest hour of EX01-EX04 (10:00-11:00 on 2026-11-02): 300 IOPS for 2 servers (600 over 4); achieved ", check.GetProperty("line").GetString());
        string aggregateText = File.ReadAllText(Directory.GetFiles(_dir.Path, "Aggregate_*.txt").Single(f => !f.EndsWith(".esrp.txt", StringComparison.Ordinal)));
        Assert.Contains("Capture Check (EX01-EX04, 10:00-11:00 on 2026-11-02, 2 hosts)", aggregateText);
        Assert.Contains(check.GetProperty("line").GetString()!, aggregateText);
    }

    [Fact]
    public void Two_hosts_of_one_run_are_merged_with_rates_summed()
    {
        Save(ReportFixtures.Js13(), "js13.json");
        Save(ReportFixtures.Js14(), "js14.json");
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        var report = ReportEvent(events);
        Assert.Equal(1, report.GetProperty("runs").GetInt32());
        Assert.Equal(2, report.GetProperty("hosts").GetInt32());
        var aggregate = report.GetProperty("aggregate");
        double sum = ReportFixtures.Js13().Sizing.AchievedTransactionalIops + ReportFixtures.Js14().Sizing.AchievedTransactionalIops;
        Assert.Equal(Math.Round(sum, 3), aggregate.GetProperty("achievedIops").GetDouble(), 3);
        Assert.Equal(2, report.GetProperty("esrp").GetProperty("servers").GetArrayLength());
        Assert.Empty(report.GetProperty("files").EnumerateArray());
    }

    /// <summary>Two separate runs (no run id in common) of one machine's two volumes, minutes apart: never added up as "2 servers".</summary>
    private void SaveTwoSeparateRuns()
    {
        var first = ReportFixtures.Js13();
        var second = ReportFixtures.Js13();
        first.RunId = second.RunId = null;
        second.Profile.DatabasePaths = new[] { @"E:\DB" };
        second.Timeline.TestStartUtc = first.Timeline.TestStartUtc.AddMinutes(5);
        Save(first, "Performance_first.json");
        Save(second, "Performance_second.json");
    }

    private static List<JsonElement> Events(List<JsonElement> events, string type) => events.Where(e => e.GetProperty("type").GetString() == type).ToList();

    [Fact]
    public void Separate_runs_are_reported_each_on_its_own_and_no_aggregate_adds_them_up()
    {
        SaveTwoSeparateRuns();
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Esrp\"],\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        var reports = Events(events, "report");
        Assert.Equal(2, reports.Count);
        foreach (var report in reports)
        {
            Assert.Equal(1, report.GetProperty("runs").GetInt32());
            Assert.Equal(1, report.GetProperty("hosts").GetInt32());
            Assert.Single(report.GetProperty("testIds").EnumerateArray());
            Assert.False(report.TryGetProperty("aggregate", out _));
            Assert.Equal(1, report.GetProperty("esrp").GetProperty("servers").GetArrayLength());
            Assert.Equal(Math.Round(ReportFixtures.Js13().Sizing.AchievedTransactionalIops, 3), report.GetProperty("summary").GetProperty("achievedIops").GetDouble(), 3);
        }
        Assert.Empty(Events(events, "comparison"));
        // Each run's own ESRP tables, and no aggregate of "2 servers" anywhere.
        Assert.Empty(Directory.GetFiles(_dir.Path, "Aggregate_*"));
        Assert.All(Directory.GetFiles(_dir.Path, "*.esrp.txt"), f => Assert.Contains("Number of servers tested\t1", File.ReadAllText(f)));
    }

    [Fact]
    public void Separate_runs_asked_to_compare_give_a_comparison_that_says_so_and_writes_no_esrp_tables()
    {
        SaveTwoSeparateRuns();
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"compare\":true,\"formats\":[\"Text\"],\"paths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        Assert.Equal(0, exit);
        Assert.Equal(2, Events(events, "report").Count);
        var comparison = Assert.Single(Events(events, "comparison"));
        Assert.StartsWith("A comparison of 2 separate runs", comparison.GetProperty("statement").GetString());
        Assert.StartsWith("A comparison of 2 separate runs", comparison.GetProperty("text").GetString());
        Assert.Equal(2, comparison.GetProperty("labels").GetArrayLength());
        var files = comparison.GetProperty("files").EnumerateArray().Select(f => Path.GetFileName(f.GetString()!)).ToList();
        Assert.Matches("^Comparison_.*\\.txt$", Assert.Single(files));
        Assert.Empty(Directory.GetFiles(_dir.Path, "*.esrp.txt"));
        Assert.Empty(Directory.GetFiles(_dir.Path, "Aggregate_*"));
    }

    [Fact]
    public void Results_named_one_deployment_merge_whatever_their_run_ids_and_a_host_twice_is_refused()
    {
        var a = ReportFixtures.Js13();
        var b = ReportFixtures.Js14();
        a.RunId = b.RunId = null;
        Save(a, "js13.json");
        Save(b, "js14.json");
        string paths = JsonSerializer.Serialize(_dir.Path);
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"paths\":[" + paths + "]}");
        Assert.Equal(0, exit);
        Assert.Equal(2, Events(events, "report").Count); // no run id in common: two runs

        (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"deployment\":true,\"paths\":[" + paths + "]}");
        Assert.Equal(0, exit);
        var report = ReportEvent(events);
        Assert.Equal(2, report.GetProperty("hosts").GetInt32());
        Assert.Equal(2, report.GetProperty("aggregate").GetProperty("hosts").GetInt32());

        var again = ReportFixtures.Js13();
        again.Timeline.TestStartUtc = again.Timeline.TestStartUtc.AddHours(3);
        Save(again, "js13-again.json");
        (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"deployment\":true,\"paths\":[" + paths + "]}");
        Assert.Equal(2, exit);
        Assert.Equal("DeploymentHostRepeated", events.Last().GetProperty("code").GetString());
    }

    [Fact]
    public void A_missing_path_and_an_unknown_format_are_refused()
    {
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"paths\":[" + JsonSerializer.Serialize(_dir.Combine("none.json")) + "]}");
        Assert.Equal(2, exit); // a refusal: nothing was written
        Assert.Equal("ResultsNotFound", events.Last().GetProperty("code").GetString());
        string file = Save(ReportFixtures.Js13(), "a.json");
        (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"formats\":[\"Pdf\"],\"paths\":[" + JsonSerializer.Serialize(file) + "]}");
        Assert.Equal(2, exit);
        Assert.Equal("UnknownReportFormat", events.Last().GetProperty("code").GetString());
    }

    public void Dispose() => _dir.Dispose();
}
