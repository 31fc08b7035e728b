using System.Management.Automation;
using System.Text.Json;

namespace ExchStorageTest.PowerShell.Tests;

/// <summary>
/// Invoke-StorageTest -TestType EsrpSuite end to end with lab durations (seconds): the four ESRP tests in order on
/// one database set, the state file that lets a stopped suite resume, and the ESRP document it ends with.
/// </summary>
public class EsrpSuiteTests : IClassFixture<SessionFixture>
{
    private const string FullyQualified = ",ExchStorageTest.Commands.InvokeStorageTestCommand";
    private const string Profile = "$p = New-MailboxProfile -MailboxCount 40 -IopsPerMailbox 0.5 -MailboxSizeMB 1 -DatabaseCount 2 -Path $args[0]; ";
    private const string Lab = "-Duration 00:00:03 -StressDuration 00:00:04 -Warmup 00:00:01 -ThreadCount 2 -SampleIntervalSeconds 1 -LogFilesToReplay 3 -Force";
    private readonly PowerShellSession _ps;

    public EsrpSuiteTests(SessionFixture fixture) => _ps = fixture.Session;

    private static JsonElement Json(string path) => JsonDocument.Parse(File.ReadAllText(path)).RootElement.Clone();

    /// <summary>A SuiteTest seen from PowerShell (the test project does not reference the module's assembly).</summary>
    private sealed record Test(string TestType, string State, string? TestId, string? ResultsPath);

    private static List<Test> Tests(PSObject suiteResult) => ((Array)suiteResult.Properties["Tests"].Value).Cast<object>().Select(PSObject.AsPSObject)
        .Select(t => new Test((string)t.Properties["TestType"].Value, (string)t.Properties["State"].Value, (string?)t.Properties["TestId"].Value, (string?)t.Properties["ResultsPath"].Value))
        .ToList();

    private static string[] ResultsFiles(string folder) => Directory.GetFiles(folder, "*.json").Where(f => File.ReadAllText(f).Contains("exchstoragetest/results")).ToArray();

    [Fact]
    public void The_suite_runs_the_four_tests_in_ESRP_order_on_one_database_set_and_ends_with_the_ESRP_document()
    {
        using var dir = new ScratchFolder("esrp");
        string suite = dir.Combine("suite");
        var run = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab}", dir.Path, suite);
        Assert.Null(run.Exception);
        var result = run.Single();
        Assert.Equal("ExchStorageTest.SuiteResult", result.TypeNames[0]);
        Assert.True((bool)result.Properties["Complete"].Value);
        Assert.Null(result.Properties["NextTest"].Value);
        Assert.Equal(suite, result.Properties["ResultsPath"].Value);
        FormatViews.AssertMatch(result);
        FormatViews.AssertMatch(PSObject.AsPSObject(((Array)result.Properties["Tests"].Value).GetValue(0)));

        // The order: each test started after the one before it ended, Performance first.
        var tests = Tests(result);
        Assert.Equal(new[] { "Performance", "Stress", "DatabaseBackup", "SoftRecovery" }, tests.Select(t => t.TestType));
        var results = tests.Select(t => Json(t.ResultsPath!)).ToList();
        for (int i = 0; i < 4; i++)
        {
            Assert.Equal("Complete", tests[i].State);
            Assert.Equal(tests[i].TestType, results[i].GetProperty("testType").GetString());
            Assert.Equal(Path.Combine(suite, $"{i + 1}-{tests[i].TestType}"), Path.GetDirectoryName(tests[i].ResultsPath));
            if (i == 0) continue;
            var previousEnd = results[i - 1].GetProperty("timeline").GetProperty("testEndUtc").GetDateTime();
            Assert.True(results[i].GetProperty("timeline").GetProperty("testStartUtc").GetDateTime() >= previousEnd, $"{tests[i].TestType} started before {tests[i - 1].TestType} ended");
        }

        // One database set: Performance created it, the others attached to it (the same instance ids).
        Assert.Equal(new[] { "Create", "Attach", "Attach", "Attach" }, results.Select(r => r.GetProperty("settings").GetProperty("databaseSource").GetString()));
        var ids = results.Select(r => string.Join(",", r.GetProperty("instances").EnumerateArray().Select(i => i.GetProperty("instanceId").GetString()))).ToList();
        Assert.All(ids, id => Assert.Equal(ids[0], id));
        // Lab durations: Performance and Stress took -Duration and -StressDuration; Stress ran its checksum pass.
        Assert.Equal(3, results[0].GetProperty("settings").GetProperty("durationSeconds").GetDouble());
        Assert.Equal(4, results[1].GetProperty("settings").GetProperty("durationSeconds").GetDouble());
        Assert.Equal("Lenient", results[1].GetProperty("settings").GetProperty("thresholds").GetProperty("name").GetString());
        Assert.True(results[1].GetProperty("checksum").GetProperty("pagesChecked").GetInt64() > 0);

        // The state file says the same, with paths relative to the suite folder.
        var state = Json(Path.Combine(suite, "suite.json"));
        Assert.Equal("exchstoragetest/suite", state.GetProperty("schema").GetString());
        Assert.Equal(tests.Select(t => Path.GetRelativePath(suite, t.ResultsPath!)), state.GetProperty("tests").EnumerateArray().Select(t => t.GetProperty("resultsPath").GetString()));

        // The ESRP document: written in the suite folder, linking every test's report.
        string document = (string)result.Properties["DocumentPath"].Value;
        Assert.Equal(suite, Path.GetDirectoryName(document));
        string html = File.ReadAllText(document);
        foreach (var t in tests) Assert.Contains(Path.GetFileNameWithoutExtension(t.ResultsPath) + ".html", html);
        Assert.Contains("Appendix D Recovery testing", html);

        // Get-TestReport on the suite folder (piped by ResultsPath) gives the same submission.
        var report = _ps.Run("$args[0] | Get-TestReport", result).Single();
        var esrp = (PSObject)report.Properties["Esrp"].Value;
        Assert.True((bool)esrp.Properties["submission"].Value);
        Assert.Null(report.Properties["Comparison"].Value);
        Assert.Empty((object[])esrp.Properties["missing"].Value);
    }

    [Fact]
    public void A_suite_stopped_after_a_test_resumes_with_the_next_test_and_never_runs_a_completed_one_again()
    {
        using var dir = new ScratchFolder("esrp");
        string suite = dir.Combine("suite");
        string statePath = Path.Combine(suite, "suite.json");
        using (var ps = System.Management.Automation.PowerShell.Create())
        {
            ps.Runspace = _ps.Runspace;
            ps.AddScript(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab.Replace("00:00:04", "00:05:00")}").AddArgument(dir.Path).AddArgument(suite);
            var async = ps.BeginInvoke();
            // Stop as soon as Performance is complete: between the tests or early in Stress.
            var deadline = DateTime.UtcNow.AddMinutes(3);
            while (!(File.Exists(statePath) && File.ReadAllText(statePath).Contains("\"state\": \"Complete\"")) && DateTime.UtcNow < deadline && !async.IsCompleted)
                Thread.Sleep(100);
            Assert.True(File.Exists(statePath) && File.ReadAllText(statePath).Contains("\"state\": \"Complete\""), "Performance never completed");
            ps.Stop();
            Assert.Throws<PipelineStoppedException>(() => ps.EndInvoke(async));
        }
        var stopped = Json(statePath).GetProperty("tests").EnumerateArray().ToList();
        Assert.Equal("Complete", stopped[0].GetProperty("state").GetString());
        Assert.Contains(stopped[1].GetProperty("state").GetString(), new[] { "NotRun", "Stopped" });
        Assert.All(stopped.Skip(2), t => Assert.Equal("NotRun", t.GetProperty("state").GetString()));
        string performanceId = stopped[0].GetProperty("testId").GetString()!;
        string performanceResults = Assert.Single(ResultsFiles(Path.Combine(suite, "1-Performance")));
        var performanceWritten = File.GetLastWriteTimeUtc(performanceResults);

        // The same command again: it resumes with Stress and goes on to the end.
        var resumed = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab} -Verbose", dir.Path, suite);
        Assert.Null(resumed.Exception);
        var result = resumed.Single();
        Assert.True((bool)result.Properties["Complete"].Value);
        Assert.Contains(resumed.Verbose, v => v.Message.StartsWith($"Resuming the ESRP suite in '{suite}' with Stress", StringComparison.Ordinal));
        var tests = Tests(result);
        Assert.Equal(performanceId, tests[0].TestId);
        Assert.Equal(performanceResults, Assert.Single(ResultsFiles(Path.Combine(suite, "1-Performance"))));
        Assert.Equal(performanceWritten, File.GetLastWriteTimeUtc(performanceResults));
        Assert.All(tests, t => Assert.Equal("Complete", t.State));
        // A Stress stopped part-way left its partial result: the document counts the completed one and says so.
        var stressFiles = ResultsFiles(Path.Combine(suite, "2-Stress"));
        string html = File.ReadAllText((string)result.Properties["DocumentPath"].Value);
        Assert.Equal(stressFiles.Length > 1, html.Contains("Runs not counted:"));
        Assert.DoesNotContain("did not complete", html);

        // Run once more: nothing runs, the suite is complete.
        var again = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab}", dir.Path, suite);
        Assert.Null(again.Exception);
        Assert.Contains(again.Warnings, w => w.Message.Contains("is complete: no test ran"));
        Assert.Equal(result.Properties["DocumentPath"].Value, again.Single().Properties["DocumentPath"].Value);
    }

    /// <summary>
    /// Two hosts (two runspaces of this process, each with its own databases and suite folder) run the suite with one
    /// start file: every test starts on both at one instant, the next only after both finished, and the share's run
    /// folder renders as one submission of two servers.
    /// </summary>
    [Fact]
    public async Task Two_hosts_with_one_start_file_run_each_test_together_and_the_share_makes_one_submission()
    {
        using var dir = new ScratchFolder("esrp");
        string run = dir.Sub("run");
        string startFile = Path.Combine(run, "start.json");
        using var second = new PowerShellSession();
        string script = Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -StartFile $args[1] -StartAtUtc $args[2] -OutputPath $args[3] {Lab}";
        var at = DateTime.UtcNow.AddSeconds(25);
        var hostA = Task.Run(() => _ps.Run(script, dir.Sub("a"), startFile, at, dir.Combine("suite-a")));
        var hostB = Task.Run(() => second.Run(script, dir.Sub("b"), startFile, at.AddSeconds(10), dir.Combine("suite-b")));
        var a = await hostA;
        var b = await hostB;
        Assert.Null(a.Exception);
        Assert.Null(b.Exception);
        Assert.True((bool)a.Single().Properties["Complete"].Value);
        Assert.True((bool)b.Single().Properties["Complete"].Value);

        var tests = new[] { Tests(a.Single()), Tests(b.Single()) };
        DateTime previousEnd = DateTime.MinValue;
        for (int i = 0; i < 4; i++)
        {
            string folder = Path.Combine(run, $"{i + 1}-{tests[0][i].TestType}");
            // The instant: the run's start file for the first test, the test's own for the others.
            var start = Json(i == 0 ? startFile : Path.Combine(folder, "start.json"));
            var agreed = DateTime.Parse(start.GetProperty("startAtUtc").GetString()!, null, System.Globalization.DateTimeStyles.AdjustToUniversal);
            Assert.True(agreed >= previousEnd, $"{tests[0][i].TestType} was to start at {agreed:o}, before a host ended the test before it ({previousEnd:o})");
            var both = tests.Select(t => Json(t[i].ResultsPath!)).ToList();
            foreach (var r in both)
            {
                var timeline = r.GetProperty("timeline");
                var measuring = timeline.GetProperty("phases").EnumerateArray().Single(p => p.GetProperty("name").GetString() == "WaitingForStart").GetProperty("endUtc").GetDateTime().ToUniversalTime();
                Assert.True(measuring >= agreed && measuring - agreed < TimeSpan.FromSeconds(5), $"{tests[0][i].TestType}: a host went on at {measuring:o}, agreed {agreed:o}");
                previousEnd = new[] { previousEnd, timeline.GetProperty("testEndUtc").GetDateTime().ToUniversalTime() }.Max();
            }
            Assert.Equal(2, Directory.GetFiles(Path.Combine(folder, "ready"), "*.json").Length);
            Assert.Equal(2, Directory.GetFiles(Path.Combine(folder, "results"), "*.json").Length);
        }

        // The share renders as one submission of both hosts: two servers, every test on both, one database set each.
        var report = _ps.Run("Get-TestReport -Path $args[0] -Format EsrpHtml", run).Single();
        var esrp = (PSObject)report.Properties["Esrp"].Value;
        Assert.True((bool)esrp.Properties["submission"].Value);
        Assert.Equal(2, ((object[])esrp.Properties["servers"].Value).Length);
        Assert.All(((object[])esrp.Properties["tests"].Value).Cast<PSObject>(), t => Assert.Equal(2, ((object[])t.Properties["hosts"].Value).Length));
        Assert.All(((object[])esrp.Properties["databaseSets"].Value).Cast<PSObject>(), s => Assert.True((bool)s.Properties["same"].Value));
        double achieved = tests.Sum(t => Json(t[0].ResultsPath!).GetProperty("sizing").GetProperty("achievedTransactionalIops").GetDouble());
        var aggregate = (PSObject)esrp.Properties["aggregate"].Value;
        Assert.Equal(achieved, Convert.ToDouble(aggregate.Properties["achievedTransactionalIops"].Value), 2);
        Assert.Single(Directory.GetFiles(run, "EsrpSubmission_*.esrp.html"));
    }

    [Fact]
    public void A_suite_folder_of_another_profile_or_a_foreign_state_file_is_refused_and_left_untouched()
    {
        using var dir = new ScratchFolder("esrp");
        string suite = dir.Sub("suite");
        string statePath = Path.Combine(suite, "suite.json");
        File.WriteAllText(statePath, "{\"name\":\"my notes\"}");
        var foreign = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab}", dir.Path, suite);
        Assert.Equal("ExchStorageTest.SuiteStateInvalid" + FullyQualified, foreign.Error?.FullyQualifiedErrorId);
        Assert.Equal("{\"name\":\"my notes\"}", File.ReadAllText(statePath));

        // A suite started for one profile does not resume with another.
        File.Delete(statePath);
        var plan = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab} -WhatIf", dir.Path, suite);
        Assert.Null(plan.Exception);
        Assert.Empty(Directory.GetFileSystemEntries(suite)); // -WhatIf writes nothing
        File.WriteAllText(statePath, "{\"schema\":\"exchstoragetest/suite\",\"schemaVersion\":1,\"suiteId\":\"x\",\"profile\":{\"name\":\"Other\",\"mailboxCount\":9},\"tests\":["
            + string.Join(",", new[] { "Performance", "Stress", "DatabaseBackup", "SoftRecovery" }.Select((t, i) => $"{{\"step\":{i + 1},\"testType\":\"{t}\",\"folder\":\"{i + 1}-{t}\",\"state\":\"NotRun\"}}")) + "]}");
        string before = File.ReadAllText(statePath);
        var other = _ps.Run(Profile + $"$p | Invoke-StorageTest -TestType EsrpSuite -OutputPath $args[1] {Lab}", dir.Path, suite);
        Assert.Equal("ExchStorageTest.SuiteProfileMismatch" + FullyQualified, other.Error?.FullyQualifiedErrorId);
        Assert.Equal(before, File.ReadAllText(statePath));
        Assert.Equal(new[] { "suite.json" }, Directory.GetFileSystemEntries(suite).Select(Path.GetFileName));

        // -StressDuration belongs to the suite.
        var single = _ps.Run(Profile + "$p | Invoke-StorageTest -StressDuration 00:00:05 -Force", dir.Path);
        Assert.Equal("ExchStorageTest.StressDurationWithoutSuite" + FullyQualified, single.Error?.FullyQualifiedErrorId);
    }
}
