using System.Management.Automation;
using ExchStorageTest.Json;
using ExchStorageTest.Runs;

namespace ExchStorageTest.Tests.Reports;

/// <summary>Get-TestReport's objects from the engine's events: one run each, flat where PowerShell writes them as text.</summary>
public sealed class ReportObjectsTests
{
    private static JsonObject Json(string text) => (JsonObject)JsonReader.Parse(text)!;

    private static JsonObject ReportEvent(string testIds, string resultsPaths, string? runId = null) => Json(
        "{\"testIds\":[" + testIds + "],\"result\":\"Pass\",\"runs\":1,\"hosts\":2," + (runId == null ? "" : "\"runId\":\"" + runId + "\",") +
        "\"summary\":{\"testType\":\"Performance\",\"targetIops\":20,\"achievedIops\":21.5,\"dbReadLatencyAvgMs\":3.25,\"logWriteLatencyAvgMs\":0.5}," +
        "\"resultsPaths\":[" + resultsPaths + "],\"esrp\":{\"submission\":false,\"servers\":[]}," +
        "\"instances\":[{\"testId\":\"t1\",\"machine\":\"HOST1\",\"table\":\"Transactional\",\"counters\":{\"instance\":\"Instance.1\"," +
        "\"databaseReadsAverageLatencyMs\":3.5,\"databaseWritesAverageLatencyMs\":1.25,\"databaseReadsPerSecond\":12,\"databaseWritesPerSecond\":6," +
        "\"databaseReadsAverageBytes\":32768,\"databaseWritesAverageBytes\":32768,\"logReadsAverageLatencyMs\":0,\"logWritesAverageLatencyMs\":0.5," +
        "\"logReadsPerSecond\":0,\"logWritesPerSecond\":4,\"logReadsAverageBytes\":0,\"logWritesAverageBytes\":4096}}]}");

    [Fact]
    public void A_run_of_two_hosts_reads_as_one_line_of_test_ids_with_its_run_id_and_figures()
    {
        var report = TestReport.FromEvent(ReportEvent("\"t1\",\"t2\"", "\"/a.json\",\"/b.json\"", "run-1"));
        Assert.Equal("t1, t2", report.TestId);
        Assert.Equal("run-1", report.RunId);
        Assert.Equal(21.5, report.AchievedIops);
        Assert.Equal(3.25, report.DbReadLatencyAvgMs);
        // Where it is text (Export-Csv, Format-List *), the ESRP tables name what they hold, not @{...}.
        Assert.Equal("ExchStorageTest.EsrpTables", report.Esrp!.TypeNames[0]);
    }

    [Fact]
    public void Instance_rows_are_typed_with_every_counter_a_property()
    {
        var row = Assert.Single(TestReport.FromEvent(ReportEvent("\"t1\"", "\"/a.json\"")).Instances);
        Assert.Equal(("t1", "HOST1", "Transactional", "Instance.1"), (row.TestId, row.Machine, row.Table, row.Instance));
        Assert.Equal(3.5, row.DatabaseReadsAverageLatencyMs);
        Assert.Equal(1.25, row.DatabaseWritesAverageLatencyMs);
        Assert.Equal(12, row.DatabaseReadsPerSecond);
        Assert.Equal(6, row.DatabaseWritesPerSecond);
        Assert.Equal(0.5, row.LogWritesAverageLatencyMs);
        Assert.Equal(4, row.LogWritesPerSecond);
        Assert.Equal(4096, row.LogWritesAverageBytes);
        Assert.Equal("HOST1 Transactional Instance.1", row.ToString());
    }

    [Fact]
    public void A_comparison_holds_each_runs_report_in_the_order_of_its_columns()
    {
        var first = TestReport.FromEvent(ReportEvent("\"t1\"", "\"/a.json\""));
        var second = TestReport.FromEvent(ReportEvent("\"t2\"", "\"/b.json\""));
        var comparison = ReportComparison.FromEvent(Json(
            "{\"statement\":\"A comparison of 2 separate runs\",\"text\":\"x\",\"files\":[\"/c.txt\",\"/c.html\"]," +
            "\"reports\":[{\"kind\":\"ComparisonText\",\"path\":\"/c.txt\"},{\"kind\":\"ComparisonHtml\",\"path\":\"/c.html\"}]," +
            "\"labels\":[\"B\",\"A\"],\"runs\":[{\"label\":\"B\",\"resultsPaths\":[\"/b.json\"]},{\"label\":\"A\",\"resultsPaths\":[\"/a.json\"]}]," +
            "\"rows\":[{\"metric\":\"m\",\"values\":[1,2]}]}"), new[] { first, second });
        Assert.Equal(new[] { "B", "A" }, comparison.Labels);
        Assert.Equal(new[] { second, first }, comparison.Runs);
        Assert.Equal("/c.html", comparison.HtmlReportPath);
        Assert.Equal("A comparison of 2 separate runs", comparison.Statement);
        Assert.Single(comparison.Rows);
    }

    [Fact]
    public void A_run_id_reaches_the_request_and_a_start_files_id_is_made_a_plain_name()
    {
        var profile = new MailboxProfile { Name = "p", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 10, DatabasePaths = new[] { "/db" } };
        var settings = RunSettings.FromParameters(new System.Collections.Hashtable(), path => path);
        Assert.Equal("run-1", settings.ToRequest(EngineCommands.Run, profile, runId: "run-1").GetString(RequestFields.RunId));
        Assert.False(settings.ToRequest(EngineCommands.Run, profile).Contains(RequestFields.RunId));
        Assert.Equal("20261125-001000-1a2b3c4d", RunIds.Plain("20261125-001000-1a2b3c4d"));
        Assert.Equal("lab_run_1", RunIds.Plain(" lab run/1 "));
        Assert.Null(RunIds.Plain("  "));
        Assert.Null(RunIds.Plain("///"));
    }
}
