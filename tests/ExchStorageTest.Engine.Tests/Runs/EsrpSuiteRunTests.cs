using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Tests.Cli;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// An ESRP submission made of real short runs: two simulated hosts (two database sets on this machine)
/// run the four tests in ESRP order, each test on both hosts from one agreed instant, on one database set
/// per host; the engine's report turns the eight results files into one ESRP document whose every figure
/// is derived from them.
/// </summary>
public class EsrpSuiteRunTests
{
    private static EngineRequest Request(TestFolder folder, string host, TestType type, DateTime startAt)
    {
        var r = new EngineRequest
        {
            Command = "run",
            TestType = type,
            DurationSeconds = 3,
            WarmupSeconds = 1,
            SampleIntervalSeconds = 1,
            ThreadCount = 2,
            StartAtUtc = startAt,
            LogFilesToReplay = 3,
            // The first test creates the set, the others attach to it (what Invoke-StorageTest -TestType EsrpSuite does).
            DatabaseSource = type == TestType.Performance ? DatabaseSource.Create : DatabaseSource.Attach,
            OutputPath = folder.Combine(host, $"{EsrpSuite.Order.ToList().IndexOf(type) + 1}-{type}"),
            Profile = new MailboxProfile
            {
                Name = "Lab", MailboxCount = 40, IopsPerMailbox = 0.5, MailboxSizeMB = 1, DatabaseCount = 2, CopiesPerDatabase = 1,
                DatabasePaths = new[] { folder.Sub(host) }, MinimumDatabaseCacheMB = 4, MaximumDatabaseCacheMB = 8,
            },
        };
        return r;
    }

    [Fact]
    public async Task Two_hosts_run_the_four_tests_and_the_report_makes_one_self_consistent_ESRP_document()
    {
        using var folder = new TestFolder("esrp");
        var runs = new List<TestResults>();
        foreach (var type in EsrpSuite.Order)
        {
            var at = DateTime.UtcNow.AddSeconds(3);
            var hosts = new[] { "hostA", "hostB" }.Select(h => Task.Run(() =>
                TestRunner.Run(TestPlanner.Plan(Request(folder, h, type, at)), EventWriter.Null, CancellationToken.None))).ToArray();
            foreach (var r in await Task.WhenAll(hosts))
            {
                Assert.Equal("Complete", r.Completion);
                runs.Add(r);
            }
        }

        string request = JsonSerializer.Serialize(new
        {
            protocol = 1,
            command = "report",
            formats = new[] { "Html", "EsrpHtml" },
            paths = runs.Select(r => r.SavedPath!).ToArray(),
        });
        var (exit, events) = ProcessProtocolTests.RunEngine(request);
        Assert.Equal(0, exit);
        var report = events.Single(e => e.GetProperty("type").GetString() == "report");
        var esrp = report.GetProperty("esrp");
        Assert.True(esrp.GetProperty("submission").GetBoolean());
        Assert.False(report.TryGetProperty("comparison", out _)); // the tests of a suite are not alternatives
        Assert.Equal(EsrpSuite.Order.Select(t => t.ToString()), esrp.GetProperty("tests").EnumerateArray().Select(t => t.GetProperty("testType").GetString()));
        Assert.All(esrp.GetProperty("tests").EnumerateArray(), t => Assert.Equal(2, t.GetProperty("hosts").GetArrayLength()));
        Assert.Empty(esrp.GetProperty("missing").EnumerateArray());
        // Nothing is missing, incomplete or on another database set; a verdict that failed (a tiny cache stalls,
        // another user's disk logs errors on a shared machine) is stated, for exactly the tests that failed.
        var gaps = esrp.GetProperty("gaps").EnumerateArray().Select(g => g.GetString()!).ToList();
        var failed = runs.Where(r => r.Verdict.Result != "Pass").Select(r => r.TestType).Distinct().OrderBy(t => t).ToList();
        Assert.Equal(failed.Select(t => $"{t} failed on "), gaps.Select(g => g[..(g.IndexOf(" failed on ", StringComparison.Ordinal) + 11)]));
        var sets = esrp.GetProperty("databaseSets").EnumerateArray().ToList();
        Assert.Equal(2, sets.Count);
        Assert.All(sets, s => Assert.True(s.GetProperty("same").GetBoolean(), s.GetProperty("detail").GetString()));

        // Per-server rows are the Performance results' own figures; the aggregate sums them.
        var perf = runs.Where(r => r.TestType == TestType.Performance).OrderBy(r => r.Profile.DatabasePaths[0], StringComparer.Ordinal).ToList();
        var servers = esrp.GetProperty("servers").EnumerateArray().ToList();
        Assert.Equal(new[] { $"{Environment.MachineName} #1", $"{Environment.MachineName} #2" }, servers.Select(s => s.GetProperty("host").GetString()));
        for (int i = 0; i < 2; i++)
        {
            var expected = EsrpServerMetrics.From(perf[i]);
            Assert.Equal(expected.DatabaseDisksTransfersPerSecond, servers[i].GetProperty("databaseDisksTransfersPerSecond").GetDouble(), 9);
            Assert.Equal(expected.AverageLogDiskWriteLatencyMs, servers[i].GetProperty("averageLogDiskWriteLatencyMs").GetDouble(), 9);
        }
        var aggregate = esrp.GetProperty("aggregate");
        Assert.Equal(perf.Sum(p => TransactionalIops.Achieved(p.Instances)), aggregate.GetProperty("achievedTransactionalIops").GetDouble(), 9);
        Assert.Equal(perf.Sum(p => p.Sizing.TargetTransactionalIops), aggregate.GetProperty("targetedDatabaseDisksTransfersPerSecond").GetDouble(), 9);

        // Reliability: the checksum pass of both Stress runs; backup and recovery from their own runs.
        var stress = runs.Where(r => r.TestType == TestType.Stress).ToList();
        string checksum = esrp.GetProperty("reliability").EnumerateArray().Single(i => i.GetProperty("label").GetString() == "Errors in the database and log checksum pass").GetProperty("value").GetString()!;
        Assert.Equal($"no errors ({stress.Sum(s => s.Checksum!.PagesChecked)} database pages, {stress.Sum(s => s.Checksum!.LogsChecked)} log files checked)", checksum);
        var backups = runs.Where(r => r.TestType == TestType.DatabaseBackup).SelectMany(r => r.Backup!.Instances).ToList();
        Assert.Equal(backups.Average(b => b.MBPerSecond), esrp.GetProperty("backup").GetProperty("mbReadPerSecondPerDatabase").GetDouble(), 9);
        var replays = runs.Where(r => r.TestType == TestType.SoftRecovery).SelectMany(r => r.SoftRecovery!.Instances).ToList();
        Assert.Equal(replays.Sum(r => r.ElapsedSeconds) / replays.Sum(r => r.LogsReplayed), esrp.GetProperty("softRecovery").GetProperty("averageSecondsPerLog").GetDouble(), 9);
        // Up to 3 logs per database (LogFilesToReplay), 2 databases, 2 hosts: the generation is bounded by the 3 s duration
        // too, so a loaded machine replays fewer (a CI run beside the other suites replayed 8), never none.
        Assert.Equal(4, replays.Count);
        Assert.All(replays, r => Assert.InRange(r.LogsReplayed, 1, 3));

        // The document lands in the folder holding every results file and links each run's own HTML report.
        var files = report.GetProperty("files").EnumerateArray().Select(f => f.GetString()!).ToList();
        string document = Assert.Single(files, f => Path.GetFileName(f).StartsWith("EsrpSubmission_", StringComparison.Ordinal) && f.EndsWith(".esrp.html", StringComparison.Ordinal));
        Assert.Equal(folder.Path, Path.GetDirectoryName(document));
        string html = File.ReadAllText(document);
        // Each run's report is linked from the Test runs table and from its appendix.
        var links = System.Text.RegularExpressions.Regex.Matches(html, "<a href=\"([^\"]+)\">").Select(m => m.Groups[1].Value).Distinct().ToList();
        Assert.Equal(8, links.Count);
        foreach (var link in links) Assert.True(File.Exists(Path.Combine(folder.Path, Uri.UnescapeDataString(link))), link);
        foreach (var r in runs) Assert.Contains(Path.GetFileNameWithoutExtension(r.SavedPath!) + ".html", string.Join("\n", links));
    }
}
