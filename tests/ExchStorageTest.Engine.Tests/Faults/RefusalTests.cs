using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Tests.Cli;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>
/// Misuse: every refusal comes from the plan, before the first byte, with a stable code naming the
/// bad value, and exits 2 (docs/protocol.md). Each case runs the real engine process.
/// </summary>
public class RefusalTests : IDisposable
{
    private readonly TestFolder _dir = new("refuse");

    private static JsonElement Error(List<JsonElement> events) => events.Last(e => e.GetProperty("type").GetString() == "error");

    private void AssertNothingWritten(params string[] allowed)
    {
        var entries = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories)
            .Where(e => !allowed.Contains(e)).ToList();
        Assert.True(entries.Count == 0, "Written before the refusal: " + string.Join(", ", entries));
    }

    [Fact]
    public void A_misspelt_field_is_refused_by_name_instead_of_running_a_default_two_hour_test()
    {
        var request = Requests.Run(_dir.Sub("Db"), 30);
        request.Remove("durationSeconds");
        request["durationSecs"] = 30;
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(2, exit);
        var error = Error(events);
        Assert.Equal("UnknownField", error.GetProperty("code").GetString());
        Assert.Contains("'durationSecs'", error.GetProperty("message").GetString());
        Assert.Contains("did you mean 'durationSeconds'", error.GetProperty("message").GetString());
        AssertNothingWritten(_dir.Combine("Db"));
    }

    [Fact]
    public void A_misspelt_profile_field_is_refused_by_name()
    {
        var request = Requests.Run(_dir.Sub("Db"), 30);
        request["profile"]!["mailboxCnt"] = 5;
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(2, exit);
        Assert.Equal("UnknownField", Error(events).GetProperty("code").GetString());
        Assert.Contains("'mailboxCnt'", Error(events).GetProperty("message").GetString());
    }

    [Fact]
    public void A_request_without_command_is_refused_not_run()
    {
        var request = Requests.Run(_dir.Sub("Db"), 2);
        request.Remove("command");
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(2, exit);
        Assert.Equal("CommandMissing", Error(events).GetProperty("code").GetString());
        AssertNothingWritten(_dir.Combine("Db"));
    }

    [Theory]
    [InlineData("/../../Z")]
    [InlineData("a/b")]
    [InlineData("..")]
    [InlineData("x\\y")]
    [InlineData("")]
    public void A_test_id_that_is_not_a_plain_name_is_refused_before_any_file_is_named_after_it(string testId)
    {
        string db = _dir.Sub("Db");
        string output = Path.Combine(db, "Results", "deep");
        var (exit, events) = ProcessProtocolTests.RunEngine(Requests.Run(db, 2, testId: testId, output: output).Json());

        Assert.Equal(2, exit);
        var error = Error(events);
        Assert.Equal("TestIdInvalid", error.GetProperty("code").GetString());
        Assert.Contains(testId, error.GetProperty("message").GetString());
        AssertNothingWritten(db);
    }

    [Theory]
    [InlineData("thresholds", "{\"averageDatabaseReadLatencyMs\":-5}", "ThresholdOutOfRange", "averageDatabaseReadLatencyMs '-5'")]
    [InlineData("thresholds", "{\"maximumLogWriteLatencyMs\":0}", "ThresholdOutOfRange", "maximumLogWriteLatencyMs '0'")]
    [InlineData("warmupSeconds", "-1", "WarmupOutOfRange", "Warmup '-00:00:01'")]
    public void Zero_or_negative_thresholds_and_warmup_are_refused(string field, string json, string code, string named)
    {
        var request = Requests.Run(_dir.Sub("Db"), 2);
        request[field] = JsonNode.Parse(json);
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(2, exit);
        Assert.Equal(code, Error(events).GetProperty("code").GetString());
        Assert.Contains(named, Error(events).GetProperty("message").GetString());
        AssertNothingWritten(_dir.Combine("Db"));
    }

    [Fact] // ForeignFile came only when that file was reached, after 200 MB were created
    public void A_foreign_file_at_the_last_planned_log_is_refused_before_any_database_is_created()
    {
        string db = _dir.Sub("Db");
        string logs = Directory.CreateDirectory(Path.Combine(db, "DB2", "Logs")).FullName;
        string foreign = Path.Combine(logs, TestPlan.LogFileName(TestPlanner.CircularLogGenerations));
        File.WriteAllText(foreign, "a user's file");
        var (exit, events) = ProcessProtocolTests.RunEngine(Requests.Run(db, 2).Json());

        Assert.Equal(2, exit);
        Assert.Equal("ForeignFile", Error(events).GetProperty("code").GetString());
        Assert.Equal(foreign, Error(events).GetProperty("target").GetString());
        Assert.Equal("a user's file", File.ReadAllText(foreign));
        AssertNothingWritten(db, Path.Combine(db, "DB2"), logs, foreign);
    }

    [Fact] // DatabaseMissing came after the folders were made
    public void Attach_without_a_database_is_refused_before_any_folder_is_made()
    {
        string db = _dir.Sub("Db");
        var request = Requests.Run(db, 2);
        request["databaseSource"] = "Attach";
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(2, exit);
        Assert.Equal("DatabaseMissing", Error(events).GetProperty("code").GetString());
        AssertNothingWritten(db);
    }

    [Fact]
    public void Streams_refuse_a_missing_folder_and_a_relative_path_without_creating_anything()
    {
        string missing = _dir.Combine("not-there", "s.dat");
        var request = new JsonObject
        {
            ["protocol"] = 1, ["command"] = "streams", ["durationSeconds"] = 1,
            ["streams"] = new JsonArray(new JsonObject { ["name"] = "a", ["preset"] = "Random32K", ["path"] = missing, ["fileSizeBytes"] = 8 << 20 }),
        };
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());
        Assert.Equal(2, exit);
        Assert.Equal("PathNotFound", Error(events).GetProperty("code").GetString());
        Assert.False(Directory.Exists(Path.GetDirectoryName(missing)));

        request["streams"]![0]!["path"] = "relative/s.dat";
        (exit, events) = ProcessProtocolTests.RunEngine(request.Json());
        Assert.Equal(2, exit);
        Assert.Equal("PathNotAbsolute", Error(events).GetProperty("code").GetString());
        AssertNothingWritten();
    }

    [Theory] // documented refusals exited 1
    [InlineData("PathNotFound")]
    [InlineData("PathIsFile")]
    [InlineData("OutputPathIsFile")]
    [InlineData("InsufficientSpace")]
    [InlineData("RequestFileNotFound")]
    public void Every_refusal_exits_2(string code)
    {
        string db = _dir.Sub("Db");
        var request = Requests.Run(db, 2);
        string[] args = Array.Empty<string>();
        switch (code)
        {
            case "PathNotFound": request["profile"]!["databasePaths"] = new JsonArray(_dir.Combine("missing")); break;
            case "PathIsFile":
                File.WriteAllText(_dir.Combine("file"), "x");
                request["profile"]!["databasePaths"] = new JsonArray(_dir.Combine("file"));
                break;
            case "OutputPathIsFile":
                File.WriteAllText(_dir.Combine("out"), "x");
                request["outputPath"] = _dir.Combine("out");
                break;
            case "InsufficientSpace": request["profile"]!["mailboxSizeMB"] = 1_000_000; request["profile"]!["mailboxCount"] = 100_000; break;
            case "RequestFileNotFound": args = new[] { "--request", _dir.Combine("no-such-request.json") }; break;
        }
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json(), args);

        Assert.Equal(code, Error(events).GetProperty("code").GetString());
        Assert.Equal(2, exit);
    }

    public void Dispose() => _dir.Dispose();
}
