using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Cli;
using ExchStorageTest.Engine.Verdict;
using ExchStorageTest.Engine.Cli.Jetstress;
using static ExchStorageTest.Engine.Tests.FailureMode.FaultRunFixture;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>A stored run judged again: the same figures for the same window, new files beside the source and never over one, bad input refused before anything is written.</summary>
public sealed class RejudgeTests : IDisposable
{
    private readonly TestFolder _dir = new("rejudge");
    private static readonly DateTime Now = new(2026, 2, 3, 4, 5, 6, DateTimeKind.Utc);

    public void Dispose() => _dir.Dispose();

    private string Save(TestResults r, string name = "Performance_2026_1_1_0_0_0.json")
    {
        string path = _dir.Combine(name);
        ResultsFile.Save(r, path);
        return path;
    }

    private static string Json<T>(T value) => JsonSerializer.Serialize(value, ResultsFile.Options);

    [Fact]
    public void Rejudging_the_same_window_reproduces_the_live_judgement_exactly()
    {
        var live = Run();
        RunJudgement.Judge(live, live.Settings.Thresholds, 20);

        // A run that declared no window, judged again with the live run's window, gets the live run's figures.
        var undeclared = Run(declared: false);
        RunJudgement.Judge(undeclared, undeclared.Settings.Thresholds, 20);
        string path = Save(undeclared);
        var again = Rejudging.Prepare(ResultsFile.Load(path), path, new RejudgeSettings(FaultAtSeconds: 60, FaultLengthSeconds: 60), Now);
        Assert.Equal("Rejudged", again.FailureMode!.Window!.Source);
        Assert.Equal(Json(live.FailureMode!.Fault), Json(again.FailureMode.Fault));
        Assert.Equal(Json(live.FailureMode.SteadyState), Json(again.FailureMode.SteadyState));
        Assert.Equal(Json(live.Verdict), Json(again.Verdict));

        // The live run's own results judged again as they are: nothing changes.
        string livePath = Save(live, "Performance_live.json");
        var same = Rejudging.Prepare(ResultsFile.Load(livePath), livePath, new RejudgeSettings(), Now);
        Assert.Equal(Json(live.FailureMode.Fault), Json(same.FailureMode!.Fault));
        Assert.Equal(Json(live.FailureMode.SteadyState), Json(same.FailureMode.SteadyState));
        var rejudged = same.FailureMode.Rejudged!;
        Assert.Equal((livePath, "fm-test", Verdicts.Pass, Now), (rejudged.SourcePath, rejudged.SourceTestId, rejudged.OriginalResult, rejudged.JudgedUtc));
        Assert.StartsWith("nothing judged differently", Assert.Single(rejudged.Changes));
    }

    [Fact]
    public void A_rejudgement_records_what_it_judged_differently_and_says_so_in_the_test_log()
    {
        var r = Run();
        RunJudgement.Judge(r, r.Settings.Thresholds, 20);
        string path = Save(r);
        var again = Rejudging.Prepare(ResultsFile.Load(path), path,
            new RejudgeSettings(StallLimitSeconds: 4, Thresholds: new ThresholdOverrides { AverageDatabaseReadLatencyMs = 15 }, WindowFromSeconds: 30), Now);
        Assert.Equal(Verdicts.Fail, again.Verdict.Result);
        Assert.Equal(FailureModeJudge.StallTooLongCode, Assert.Single(again.Verdict.Reasons).Code);
        Assert.Equal(15, again.Settings.Thresholds.AverageDatabaseReadLatencyMs);
        var changes = again.FailureMode!.Rejudged!.Changes;
        Assert.Equal(new[] { "stall limit 4 s (the run's 20 s)", "averageDatabaseReadLatencyMs 15 (the run's 20)", "only 30-180 s of the 180 s measured window judged" }, changes);
        Assert.Contains(again.TestLog, l => l.Message.StartsWith("Re-judgement of fm-test (Performance_2026_1_1_0_0_0.json): stall limit 4 s", StringComparison.Ordinal));
        Assert.Contains(again.TestLog, l => l.Message.StartsWith("Re-judged overall test result: Fail (judged live: Pass)", StringComparison.Ordinal));
        // The sub-window leaves the first 30 s out of the steady state: 6 samples of 15 s are judged.
        var view = SteadyStateView.Of(again, FailureModeJudge.Excluded(again));
        Assert.Equal(90, view.Instances[0].Stream(StreamNames.DatabaseRead)!.DurationSeconds);
    }

    [Theory]
    [InlineData(150.0, null, null, null, "ends after the 180 s measured window")]
    [InlineData(5.0, null, null, null, "leaves no baseline before the fault")]
    [InlineData(null, null, -1.0, null, "windowFromSeconds -1 lies outside")]
    [InlineData(null, null, 100.0, 90.0, "windowToSeconds 90 lies outside")]
    [InlineData(null, null, 70.0, null, "does not lie inside the judged sub-window 70-180 s")]
    public void A_window_the_stored_run_cannot_judge_is_refused_naming_the_value(double? at, double? length, double? from, double? to, string said)
    {
        string path = Save(Run());
        var ex = Assert.Throws<EngineException>(() => Rejudging.Prepare(ResultsFile.Load(path), path, new RejudgeSettings(at, length, null, null, from, to), Now));
        Assert.Equal(ErrorCodes.FaultWindowInvalid.Code, ex.Code);
        Assert.Contains(said, ex.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Results_without_the_seconds_of_the_window_or_without_failure_mode_figures_are_refused()
    {
        var r = Run(declared: false);
        r.FailureMode!.VolumeSeries.RemoveAll(v => v.ElapsedSeconds >= 60);
        string path = Save(r);
        var ex = Assert.Throws<EngineException>(() => Rejudging.Prepare(ResultsFile.Load(path), path, new RejudgeSettings(FaultAtSeconds: 60), Now));
        Assert.Contains("holds no per-second series of its volumes for the fault window 60-120 s", ex.Message);

        var old = Run();
        old.FailureMode = null;
        string oldPath = Save(old, "old.json");
        ex = Assert.Throws<EngineException>(() => Rejudging.Prepare(ResultsFile.Load(oldPath), oldPath, new RejudgeSettings(FaultAtSeconds: 60), Now));
        Assert.Equal(ErrorCodes.FaultWindowInvalid.Code, ex.Code);
        Assert.Contains("holds no failure-mode figures", ex.Message);
    }

    [Fact]
    public void A_free_name_is_taken_past_every_file_of_the_stem_results_or_report()
    {
        Assert.Equal("Performance_x.rejudged-20260203-040506", Rejudging.FreeStem(_dir.Path, "Performance_x", Now));
        File.WriteAllText(_dir.Combine("Performance_x.rejudged-20260203-040506.json"), "{}");
        Assert.Equal("Performance_x.rejudged-20260203-040506-2", Rejudging.FreeStem(_dir.Path, "Performance_x", Now));
        File.WriteAllText(_dir.Combine("Performance_x.rejudged-20260203-040506-2.perfmon.csv"), "");
        Assert.Equal("Performance_x.rejudged-20260203-040506-3", Rejudging.FreeStem(_dir.Path, "Performance_x", Now));
    }

    private static JsonElement ReportEvent(List<JsonElement> events) => events.Single(e => e.GetProperty("type").GetString() == "report");

    private static string Request(string path, string more = "") =>
        "{\"protocol\":1,\"command\":\"report\",\"rejudge\":true,\"paths\":[" + JsonSerializer.Serialize(path) + "]" + more + "}";

    [Fact]
    public void The_report_commands_rejudge_writes_new_files_beside_the_source_and_never_over_one()
    {
        var r = Run(declared: false);
        RunJudgement.Judge(r, r.Settings.Thresholds, 20);
        string source = Save(r);
        File.WriteAllText(_dir.Combine("Performance_2026_1_1_0_0_0.html"), "the run's own report");
        var before = Directory.GetFiles(_dir.Path).ToDictionary(f => f, File.ReadAllText);

        var (exit, events) = ProcessProtocolTests.RunEngine(Request(source, ",\"faultAtSeconds\":60,\"stallLimitSeconds\":4"));
        Assert.Equal(0, exit);
        var report = ReportEvent(events);
        Assert.Equal("Fail", report.GetProperty("result").GetString());
        string results = Assert.Single(report.GetProperty("resultsPaths").EnumerateArray()).GetString()!;
        Assert.StartsWith(_dir.Combine("Performance_2026_1_1_0_0_0.rejudged-"), results);
        var files = report.GetProperty("files").EnumerateArray().Select(f => f.GetString()!).ToList();
        Assert.Contains(files, f => f.EndsWith(".html", StringComparison.Ordinal));
        Assert.All(files, f => Assert.StartsWith(Path.Combine(_dir.Path, Path.GetFileNameWithoutExtension(results)) + ".", f));
        var rejudged = ResultsFile.Load(results);
        Assert.Equal(source, rejudged.FailureMode!.Rejudged!.SourcePath);
        Assert.Equal(FaultOutcomes.NotTolerated, rejudged.FailureMode.Fault!.Result);
        Assert.Contains("Re-judgement of fm-test", File.ReadAllText(files.Single(f => f.EndsWith(".txt", StringComparison.Ordinal) && !f.EndsWith(".esrp.txt", StringComparison.Ordinal))));

        // Again: another set of files; nothing written before is touched.
        var (exit2, events2) = ProcessProtocolTests.RunEngine(Request(source, ",\"faultAtSeconds\":60"));
        Assert.Equal(0, exit2);
        string results2 = ReportEvent(events2).GetProperty("resultsPaths")[0].GetString()!;
        Assert.NotEqual(results, results2);
        foreach (var (file, text) in before) Assert.Equal(text, File.ReadAllText(file));
        Assert.Equal(Verdicts.Pass, ResultsFile.Load(results2).Verdict.Result);
    }

    [Fact]
    public void A_bad_rejudge_request_is_refused_before_anything_is_written()
    {
        string source = Save(Run());
        int count = Directory.GetFiles(_dir.Path).Length;
        var (exit, events) = ProcessProtocolTests.RunEngine(Request(source, ",\"faultAtSeconds\":170"));
        Assert.Equal(2, exit);
        var error = events.Single(e => e.GetProperty("type").GetString() == "error");
        Assert.Equal("FaultWindowInvalid", error.GetProperty("code").GetString());
        Assert.Contains("faultAtSeconds 170", error.GetProperty("message").GetString());
        Assert.Equal(count, Directory.GetFiles(_dir.Path).Length);

        // Re-judgement fields without rejudge would be ignored: refused.
        (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"report\",\"faultAtSeconds\":60,\"paths\":[" + JsonSerializer.Serialize(source) + "]}");
        Assert.Equal(2, exit);
        Assert.Contains("\"rejudge\": true", events.Single(e => e.GetProperty("type").GetString() == "error").GetProperty("message").GetString());
        Assert.Equal(count, Directory.GetFiles(_dir.Path).Length);
    }

    [Fact]
    public void JetstressCmd_rejudge_takes_its_window_switches_and_nothing_else()
    {
        var line = JetstressCommandLine.Parse(new[] { "/rejudge", "/r/Performance.json", "/FaultAt", "60", "-faultlength", "30", "/stalllimit", "4" });
        Assert.Equal(("/r/Performance.json", 60.0, 30.0, 4.0), (line.Rejudge, line.FaultAtSeconds, line.FaultLengthSeconds, line.StallLimitSeconds));
        var ex = Assert.Throws<EngineException>(() => JetstressCommandLine.Parse(new[] { "/rejudge", "r.json", "/c", "a.xml" }));
        Assert.Contains("takes only /faultat, /faultlength and /stalllimit", ex.Message);
        ex = Assert.Throws<EngineException>(() => JetstressCommandLine.Parse(new[] { "/c", "a.xml", "/faultat", "60" }));
        Assert.Contains("use them with /rejudge", ex.Message);
        ex = Assert.Throws<EngineException>(() => JetstressCommandLine.Parse(new[] { "/rejudge", "r.json", "/stalllimit", "0.5" }));
        Assert.Equal(ErrorCodes.StallLimitOutOfRange.Code, ex.Code);
        Assert.Contains("/rejudge <results.json>", JetstressCommandLine.Usage);
    }

    [Fact]
    public void JetstressCmd_rejudge_writes_the_new_results_and_prints_the_verdict()
    {
        var r = Run();
        RunJudgement.Judge(r, r.Settings.Thresholds, 20);
        string source = Save(r);
        var stdout = new StringWriter();
        int exit = JetstressCmd.Run(new[] { "/rejudge", Path.GetFileName(source), "/stalllimit", "4" }, _dir.Path, _dir.Sub("bin"), stdout, new StringWriter(), CancellationToken.None);
        Assert.Equal(0, exit);
        Assert.Contains("Overall Test Result: Fail (re-judged). Results: " + _dir.Combine("Performance_2026_1_1_0_0_0.rejudged-"), stdout.ToString());
    }
}
