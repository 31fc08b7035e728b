using ExchStorageTest.Engine.Reports;

namespace ExchStorageTest.Engine.Tests.Reports;

public class ReportWriterTests
{
    [Fact]
    public void Writes_every_format_under_stable_names_and_returns_paths()
    {
        string dir = Path.Combine(Path.GetTempPath(), "est-reports-" + Guid.NewGuid().ToString("N"));
        try
        {
            var r = ReportFixtures.Small();
            var paths = ReportWriter.Write(r, dir);
            // Jetstress's names: the type, then the local start time unpadded (the fixture starts 2014-03-03 13:44:08 UTC).
            var local = DateTime.SpecifyKind(r.Timeline.TestStartUtc, DateTimeKind.Utc).ToLocalTime();
            string stem = $"Performance_{local.Year}_{local.Month}_{local.Day}_{local.Hour}_{local.Minute}_{local.Second}";
            string[] expected =
            {
                stem + ".txt", stem + ".html", stem + ".xml", stem + ".timeseries.csv", stem + ".perfmon.csv", stem + ".esrp.txt",
                // The ESRP page must not start with the test type: automation takes the newest "Performance*.html" as the report.
                "Esrp_" + stem + ".html",
            };
            Assert.Equal(expected, paths.Select(Path.GetFileName));
            Assert.All(paths, p => Assert.True(new FileInfo(p).Length > 100, p));
            Assert.Empty(Directory.GetFiles(dir, "*.partial"));
            // The HTML names the counter log it was written with; the ESRP page links the report.
            Assert.Contains(stem + ".perfmon.csv", File.ReadAllText(paths[1]), StringComparison.Ordinal);
            Assert.Contains($"href=\"{stem}.html\"", File.ReadAllText(paths[6]), StringComparison.Ordinal);
            Assert.Equal(new[] { stem + ".html" }, Directory.GetFiles(dir, "Performance*.html").Select(Path.GetFileName));

            var only = ReportWriter.Write(r, dir, ReportFormats.Html | ReportFormats.Csv, baseName: "results");
            Assert.Equal(new[] { "results.html", "results.timeseries.csv" }, only.Select(Path.GetFileName));
        }
        finally
        {
            if (Directory.Exists(dir)) Directory.Delete(dir, recursive: true);
        }
    }

    // Get-TestReport -Format Html on a stored results file said the performance log was "not written" beside it.
    [Fact]
    public void A_report_rendered_again_names_the_runs_own_performance_log()
    {
        string dir = Path.Combine(Path.GetTempPath(), "est-reports-" + Guid.NewGuid().ToString("N"));
        try
        {
            var r = ReportFixtures.Small();
            r.SavedPath = Path.Combine(dir, "Performance_run.json");
            Directory.CreateDirectory(dir);
            File.WriteAllText(r.SavedPath, "{}");
            var first = ReportWriter.Write(r, dir, ReportFormats.Text | ReportFormats.PdhCsv, baseName: "Performance_run");
            Assert.Equal("Performance_run.perfmon.csv", Path.GetFileName(first[1]));

            // Beside the results file: the log's name; in another folder: its full path.
            string again = File.ReadAllText(ReportWriter.Write(r, dir, ReportFormats.Text, baseName: "Performance_run")[0]);
            Assert.Matches(@"\n  Performance Log\s+Performance_run\.perfmon\.csv\r?\n", again);
            string elsewhere = Path.Combine(dir, "elsewhere");
            string moved = File.ReadAllText(ReportWriter.Write(r, elsewhere, ReportFormats.Text, baseName: "Performance_run")[0]);
            Assert.Matches(@"\n  Performance Log\s+" + System.Text.RegularExpressions.Regex.Escape(first[1]) + @"\r?\n", moved);

            // A run whose log is gone (or never saved) still says none was written with the report.
            File.Delete(first[1]);
            string gone = File.ReadAllText(ReportWriter.Write(r, elsewhere, ReportFormats.Text, baseName: "Performance_run")[0]);
            Assert.Contains("(not written with this report)", gone, StringComparison.Ordinal);
        }
        finally
        {
            if (Directory.Exists(dir)) Directory.Delete(dir, recursive: true);
        }
    }

    [Fact]
    public void Pdh_csv_header_and_rows_follow_the_PerfMon_format()
    {
        var zone = TimeZoneInfo.CreateCustomTimeZone("Test Zone", TimeSpan.FromHours(1), "Test Zone", "Test Zone");
        var text = PdhCsvLog.Render(ReportFixtures.Small(), zone);
        var lines = text.Split("\r\n");
        Assert.StartsWith("\"(PDH-CSV 4.0) (Test Zone)(-60)\",\"\\\\LAB01\\MSExchange Database ==> Instances(Instance.1)\\I/O Database Reads Average Latency\"", lines[0], StringComparison.Ordinal);
        // 2 instances x 14 counters + the time column; 9 samples; CRLF-terminated.
        Assert.Equal(1 + 2 * 14, lines[0].Split("\",\"").Length);
        Assert.Equal("", lines[^1]);
        Assert.Equal(1 + 9 + 1, lines.Length);
        Assert.StartsWith("\"03/03/2014 14:44:23.000\",\"", lines[1], StringComparison.Ordinal);
        Assert.DoesNotContain('\n', text.Replace("\r\n", "", StringComparison.Ordinal));
    }
}
