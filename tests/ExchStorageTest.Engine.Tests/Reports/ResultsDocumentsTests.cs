using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// The one answer to "which results documents does this path stand for?" (report, dsc and so every cmdlet): a
/// folder's whole tree, told from the other JSON a run folder holds by the schema name, and the newest of a profile.
/// </summary>
public class ResultsDocumentsTests : IDisposable
{
    private readonly TestFolder _dir = new("docs");

    private string Save(TestResults r, params string[] parts)
    {
        string path = _dir.Combine(parts);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        ResultsFile.Save(r, path);
        return path;
    }

    private void Write(string text, params string[] parts)
    {
        string path = _dir.Combine(parts);
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllText(path, text);
    }

    [Fact]
    public void A_folder_stands_for_every_results_document_in_its_tree_and_nothing_else()
    {
        string a = Save(ReportFixtures.Js13(), "run", "hostA", "results.json");
        string b = Save(ReportFixtures.Js14(), "run", "hostB", "deeper", "results.json");
        Write("{ \"schema\": \"exchstoragetest/profile\" }", "run", "hostA", "profile.json");
        Write("{ \"runId\": \"x\" }", "run", "run.json");
        Write("not json at all", "run", "notes.txt");

        Assert.Equal(new[] { a, b }, ResultsDocuments.In(_dir.Combine("run")).ToArray());
        var resolved = ResultsDocuments.Resolve(new[] { _dir.Combine("run"), a });
        Assert.Equal(new[] { (a, true), (b, true) }, resolved); // a file named twice is rendered once
    }

    [Fact]
    public void Older_runs_named_with_their_test_id_are_found_and_rendered_beside_themselves()
    {
        // Before Jetstress's names (Performance_<y>_<M>_<d>_<H>_<m>_<s>), a results file carried its test id too: such a
        // folder still renders, each report under its own results file's name, next to a run of today's names.
        string old = Save(ReportFixtures.Js13(), "runs", "Performance_2024_6_1_9_5_7_0f3c2a1b.json");
        string current = Save(ReportFixtures.Js14(), "runs", "Performance_2024_6_2_9_5_7.json");
        var (exit, events) = Cli.ProcessProtocolTests.RunEngine(System.Text.Json.JsonSerializer.Serialize(new
        {
            protocol = 1, command = "report", formats = new[] { "Html" }, paths = new[] { _dir.Combine("runs") },
        }));
        Assert.Equal(0, exit);
        var report = events.Single(e => e.GetProperty("type").GetString() == "report");
        Assert.Equal(new[] { old, current }, report.GetProperty("resultsPaths").EnumerateArray().Select(p => p.GetString()).OrderBy(p => p, StringComparer.Ordinal));
        var files = report.GetProperty("files").EnumerateArray().Select(f => Path.GetFileName(f.GetString()!)).ToList();
        Assert.Contains("Performance_2024_6_1_9_5_7_0f3c2a1b.html", files);
        Assert.Contains("Performance_2024_6_2_9_5_7.html", files);
    }

    [Fact]
    public void A_file_named_is_itself_and_a_folder_without_results_is_refused_by_name()
    {
        string a = Save(ReportFixtures.Js13(), "one.json");
        Assert.Equal(new[] { (a, false) }, ResultsDocuments.Resolve(new[] { a }));

        Write("{ \"schema\": \"exchstoragetest/profile\" }", "empty", "profile.json");
        var none = Assert.Throws<EngineException>(() => ResultsDocuments.Resolve(new[] { _dir.Combine("empty") }));
        Assert.Equal(ErrorCodes.ResultsNotFound.Code, none.Code);
        Assert.Equal(_dir.Combine("empty"), none.Target);

        var relative = Assert.Throws<EngineException>(() => ResultsDocuments.Resolve(new[] { "relative/results" }));
        Assert.Equal(ErrorCodes.PathNotAbsolute.Code, relative.Code);
        Assert.Equal(ErrorCodes.PathsMissing.Code, Assert.Throws<EngineException>(() => ResultsDocuments.Resolve(Array.Empty<string>())).Code);
    }

    [Fact]
    public void The_newest_results_are_those_of_the_profile_and_test_that_ended_last()
    {
        var older = ReportFixtures.Js13();
        var newer = ReportFixtures.Js14();
        newer.Timeline.TestEndUtc = older.Timeline.TestEndUtc.AddHours(1);
        var otherProfile = ReportFixtures.Js13();
        otherProfile.Profile.Name = "Another";
        otherProfile.Timeline.TestEndUtc = older.Timeline.TestEndUtc.AddHours(2);
        Save(older, "a", "results.json");
        Save(newer, "b", "results.json");
        Save(otherProfile, "c", "results.json");
        Write("{ \"schema\": \"exchstoragetest/results\", \"schemaVersion\": 99 }", "d", "future.json");

        var newest = ResultsDocuments.Newest(_dir.Path, older.Profile.Name, TestType.Performance);
        Assert.Equal(newer.Environment.MachineName, newest?.Environment.MachineName);
        Assert.Null(ResultsDocuments.Newest(_dir.Path, older.Profile.Name, TestType.Stress));
        Assert.Null(ResultsDocuments.Newest(_dir.Combine("missing"), older.Profile.Name, null));
    }

    public void Dispose() => _dir.Dispose();
}
