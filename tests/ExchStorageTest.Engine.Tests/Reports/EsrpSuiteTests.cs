using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>Sorting results into an ESRP submission, and the summary and document built from it (fixtures; real runs in Runs/EsrpSuiteRunTests).</summary>
public class EsrpSuiteTests
{
    private static TestResults Run(TestType type, string machine, DateTime start, string completion = "Complete", string db = @"C:\DB\DB1\db.edb", string id = "0x0000000000000001")
    {
        var r = ReportFixtures.Js13();
        r.TestType = type;
        r.TestId = $"{type}-{machine}-{start:HHmmss}";
        r.Environment.MachineName = machine;
        r.Completion = completion;
        r.Timeline = new Timeline { TestStartUtc = start, TestEndUtc = start.AddMinutes(5), CollectionStartUtc = start.AddMinutes(1), CollectionEndUtc = start.AddMinutes(5) };
        r.Instances.RemoveRange(1, r.Instances.Count - 1);
        r.Instances[0].DatabasePath = db;
        r.Profile.DatabasePaths = new[] { System.IO.Path.GetDirectoryName(db)! };
        r.Instances[0].InstanceId = id;
        r.Instances[0].DatabaseCreated = type == TestType.Performance;
        if (type == TestType.Stress) r.Checksum = new ChecksumResult { PagesChecked = 1000, LogsChecked = 12 };
        if (type == TestType.DatabaseBackup) r.Backup = new BackupResult { Instances = { new BackupInstance { Instance = "Instance.1", DatabaseSizeMB = 100, ElapsedSeconds = 2, MBPerSecond = 50 } } };
        if (type == TestType.SoftRecovery) r.SoftRecovery = new SoftRecoveryResult { Instances = { new RecoveryInstance { Instance = "Instance.1", LogsReplayed = 10, ElapsedSeconds = 25 } } };
        return r;
    }

    private static readonly DateTime T0 = ReportFixtures.Start;

    [Fact]
    public void Tests_come_in_ESRP_order_whatever_the_order_of_the_files()
    {
        var suite = EsrpSuite.From(new[]
        {
            Run(TestType.SoftRecovery, "H1", T0.AddHours(3)), Run(TestType.DatabaseBackup, "H1", T0.AddHours(2)),
            Run(TestType.Stress, "H1", T0.AddHours(1)), Run(TestType.Performance, "H1", T0),
        });
        Assert.Equal(EsrpSuite.Order, suite.Tests.Select(t => t.TestType));
        Assert.True(suite.IsSubmission);
        Assert.Empty(suite.Missing);
        Assert.All(suite.Tests, t => Assert.True(t.Complete));
    }

    [Fact]
    public void A_stopped_run_resumed_later_counts_once_and_is_listed_as_superseded()
    {
        var stopped = Run(TestType.Stress, "H1", T0.AddHours(1), completion: "Stopped");
        var resumed = Run(TestType.Stress, "H1", T0.AddHours(2));
        // Even a stopped run that started later does not replace a completed one.
        var laterStopped = Run(TestType.Performance, "H1", T0.AddHours(5), completion: "Stopped");
        var perf = Run(TestType.Performance, "H1", T0);
        var suite = EsrpSuite.From(new[] { stopped, resumed, laterStopped, perf });
        Assert.Same(resumed, Assert.Single(suite.Of(TestType.Stress)));
        Assert.Same(perf, Assert.Single(suite.Of(TestType.Performance)));
        Assert.Equal(new[] { stopped, laterStopped }, suite.Superseded);
        Assert.Equal(new[] { TestType.DatabaseBackup, TestType.SoftRecovery }, suite.Missing);
        Assert.Contains("Not a complete ESRP submission: no DatabaseBackup, SoftRecovery result.", EsrpDocument.Gaps(suite));
    }

    [Fact]
    public void Hosts_on_one_machine_are_told_apart_by_their_databases_and_numbered()
    {
        var a = Run(TestType.Performance, "LAB", T0, db: "/srv/a/db1.edb", id: "0x01");
        var b = Run(TestType.Performance, "LAB", T0, db: "/srv/b/db1.edb", id: "0x02");
        var suite = EsrpSuite.From(new[] { a, b });
        Assert.Equal(2, suite.Of(TestType.Performance).Count);
        Assert.Equal(new[] { "LAB #1", "LAB #2" }, suite.Of(TestType.Performance).Select(suite.HostName));
        var summary = EsrpSummary.From(suite);
        Assert.Equal(new[] { "LAB #1", "LAB #2" }, summary.Servers.Select(s => s.Host));
        Assert.Equal(TransactionalIops.Achieved(a.Instances) + TransactionalIops.Achieved(b.Instances), summary.Aggregate.AchievedTransactionalIops, 9);
        // Different machines keep their own names.
        Assert.Equal("JS13", EsrpSuite.From(new[] { ReportFixtures.Js13(), ReportFixtures.Js14() }).HostName(ReportFixtures.Js13()));
    }

    [Fact]
    public void Server_metrics_come_from_Performance_and_the_checksum_from_Stress()
    {
        var perf = Run(TestType.Performance, "H1", T0);
        var stress = Run(TestType.Stress, "H1", T0.AddHours(1));
        stress.Instances[0].Streams[0].OperationsPerSecond *= 3; // Stress ran harder: it must not leak into the server table
        var summary = EsrpSummary.From(EsrpSuite.From(new[] { stress, perf, Run(TestType.DatabaseBackup, "H1", T0.AddHours(2)), Run(TestType.SoftRecovery, "H1", T0.AddHours(3)) }));
        var server = Assert.Single(summary.Servers);
        Assert.Equal(EsrpServerMetrics.From(perf).DatabaseDisksReadsPerSecond, server.DatabaseDisksReadsPerSecond, 9);
        Assert.Equal("no errors (1000 database pages, 12 log files checked)", summary.Reliability.Single(i => i.Label == "Errors in the database and log checksum pass").Value);
        Assert.Equal("completed without errors", summary.Reliability.Single(i => i.Label == "Database backup").Value);
        Assert.Equal("completed without errors", summary.Reliability.Single(i => i.Label == "Soft recovery").Value);
        Assert.Equal(2.5, summary.SoftRecovery!.AverageSecondsPerLog, 9);
        Assert.Equal(50, summary.Backup!.MBReadPerSecondPerDatabase, 9);
    }

    [Fact]
    public void The_system_log_of_every_test_counts_for_reliability()
    {
        var perf = Run(TestType.Performance, "H1", T0);
        perf.SystemLog = new SystemLogReport { Checked = true };
        var backup = Run(TestType.DatabaseBackup, "H1", T0.AddHours(2));
        backup.SystemLog = new SystemLogReport { Checked = true, Events = { new SystemLogEntry { IsStorageError = true, Message = "sd 2:0:0:0: I/O error" } } };
        var summary = EsrpSummary.From(EsrpSuite.From(new[] { perf, backup }));
        Assert.Equal("H1 (DatabaseBackup): 1 storage error", summary.Reliability[0].Value);
    }

    [Fact]
    public void A_later_test_on_other_databases_breaks_the_database_set_and_the_document_says_so()
    {
        var perf = Run(TestType.Performance, "H1", T0, id: "0x01");
        var same = Run(TestType.Stress, "H1", T0.AddHours(1), id: "0x01");
        var other = Run(TestType.DatabaseBackup, "H1", T0.AddHours(2), id: "0x09");
        var good = EsrpSuite.From(new[] { perf, same }).DatabaseSets().Single();
        Assert.True(good.Same);
        Assert.Equal("the same 1 database in Performance, Stress", good.Detail);
        var suite = EsrpSuite.From(new[] { perf, same, other });
        var bad = suite.DatabaseSets().Single();
        Assert.False(bad.Same);
        Assert.Equal("DatabaseBackup ran on other databases than Performance", bad.Detail);
        Assert.Contains("Database set on H1: DatabaseBackup ran on other databases than Performance.", EsrpDocument.Gaps(suite));
        // A later test that re-created its databases (same paths) departs from the set too.
        var recreated = Run(TestType.Stress, "H1", T0.AddHours(1), id: "0x01");
        recreated.Instances[0].DatabaseCreated = true;
        Assert.Equal("Stress created its databases anew", EsrpSuite.From(new[] { perf, recreated }).DatabaseSets().Single().Detail);
    }

    [Fact]
    public void The_document_links_every_run_and_marks_what_is_to_be_supplied()
    {
        var runs = new[] { Run(TestType.Performance, "H1", T0), Run(TestType.Stress, "H1", T0.AddHours(1)), Run(TestType.DatabaseBackup, "H1", T0.AddHours(2)), Run(TestType.SoftRecovery, "H1", T0.AddHours(3)) };
        var suite = EsrpSuite.From(runs);
        string html = EsrpDocument.RenderHtml(suite, EsrpSummary.From(suite), "Lab", r => $"{r.TestType}/report.html");
        foreach (var type in EsrpSuite.Order) Assert.Contains($"<a href=\"{type}/report.html\">report.html</a>", html);
        foreach (var appendix in new[] { "Appendix A Performance testing", "Appendix B Stress testing", "Appendix C Backup testing", "Appendix D Recovery testing" })
            Assert.Contains(appendix, html);
        Assert.Contains("<td class=\"to_supply\">(to be supplied)</td>", html);
        Assert.DoesNotContain("class=\"banner\"", html); // complete, passing, one database set: nothing to flag
    }
}
