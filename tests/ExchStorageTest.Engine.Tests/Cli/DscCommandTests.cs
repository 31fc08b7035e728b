using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Cli.Commands;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>The DSC v3 resource side of the engine: get and test read results files only.</summary>
public class DscCommandTests : IDisposable
{
    private static readonly DateTime Now = new(2024, 6, 1, 12, 0, 0, DateTimeKind.Utc);
    private readonly TestFolder _dir = new("dsc");

    private string ProfilePath(string name = "lab")
    {
        string path = _dir.Combine(name + ".profile.json");
        File.WriteAllText(path, "{\"schema\":\"exchstoragetest/profile\",\"schemaVersion\":1,\"name\":\"" + name + "\",\"mailboxCount\":10,\"iopsPerMailbox\":0.1,\"mailboxSizeMB\":10,\"databaseCount\":1,\"databasePaths\":[" + JsonSerializer.Serialize(_dir.Path) + "]}");
        return path;
    }

    private string Results(string file, string profileName, string verdict, DateTime endUtc, string completion = "Complete", TestType type = TestType.Performance)
    {
        string folder = _dir.Combine("out");
        Directory.CreateDirectory(folder);
        var results = new TestResults
        {
            TestId = Path.GetFileNameWithoutExtension(file),
            TestType = type,
            Completion = completion,
            Profile = new MailboxProfile { Name = profileName, MailboxCount = 10, IopsPerMailbox = 0.1, MailboxSizeMB = 10, DatabaseCount = 1 },
            Timeline = new Timeline { TestStartUtc = endUtc.AddMinutes(-5), TestEndUtc = endUtc },
            Verdict = new VerdictResult { Result = verdict },
        };
        if (verdict == "Fail")
            results.Verdict.Reasons.Add(new VerdictReason { Code = "DbReadLatencyAverage", Message = "Average DB read latency 25 ms exceeds 20 ms." });
        string path = Path.Combine(folder, file);
        ResultsFile.Save(results, path);
        return path;
    }

    private (int Exit, List<JsonElement> Lines, string Stderr) Run(string verb, object instance)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();
        int exit = DscCommand.Execute(verb, new StringReader(JsonSerializer.Serialize(instance)), stdout, stderr, Now);
        var lines = stdout.ToString().Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(l => JsonDocument.Parse(l).RootElement.Clone()).ToList();
        return (exit, lines, stderr.ToString());
    }

    private object Instance(double maxAge = 24) => new { name = "lab-gate", profilePath = ProfilePath(), outputPath = _dir.Combine("out"), maxResultAgeHours = maxAge };

    [Fact]
    public void Get_reports_the_newest_result_of_the_profile()
    {
        Results("old.json", "lab", "Fail", Now.AddHours(-10));
        string newest = Results("new.json", "lab", "Pass", Now.AddHours(-2));
        Results("other.json", "someone-else", "Fail", Now.AddHours(-1));

        var (exit, lines, _) = Run("get", Instance());

        Assert.Equal(0, exit);
        var state = Assert.Single(lines);
        Assert.Equal("lab-gate", state.GetProperty("name").GetString());
        Assert.Equal("Pass", state.GetProperty("lastResult").GetString());
        Assert.Equal(Now.AddHours(-2), state.GetProperty("lastRunUtc").GetDateTime().ToUniversalTime());
        Assert.Equal(Path.GetFullPath(newest), state.GetProperty("lastResultsPath").GetString());
        Assert.Equal(JsonValueKind.Null, state.GetProperty("_inDesiredState").ValueKind);
        Assert.Equal(0, state.GetProperty("reasons").GetArrayLength());
    }

    [Fact]
    public void Get_without_results_says_NotRun_with_a_reason()
    {
        var (exit, lines, _) = Run("get", Instance());

        Assert.Equal(0, exit);
        Assert.Equal("NotRun", lines[0].GetProperty("lastResult").GetString());
        Assert.Equal(JsonValueKind.Null, lines[0].GetProperty("lastRunUtc").ValueKind);
        Assert.Equal("NoResult", lines[0].GetProperty("reasons")[0].GetProperty("code").GetString());
    }

    [Fact]
    public void Test_is_in_desired_state_for_a_fresh_pass()
    {
        Results("r.json", "lab", "Pass", Now.AddHours(-3));

        var (exit, lines, _) = Run("test", Instance());

        Assert.Equal(0, exit);
        Assert.Equal(2, lines.Count);
        Assert.True(lines[0].GetProperty("_inDesiredState").GetBoolean());
        Assert.Equal(0, lines[1].GetArrayLength());
    }

    [Fact]
    public void Test_names_lastRunUtc_when_the_pass_is_too_old()
    {
        Results("r.json", "lab", "Pass", Now.AddHours(-30));

        var (exit, lines, _) = Run("test", Instance(maxAge: 24));

        Assert.Equal(0, exit);
        Assert.False(lines[0].GetProperty("_inDesiredState").GetBoolean());
        Assert.Equal(new[] { "lastRunUtc" }, lines[1].EnumerateArray().Select(e => e.GetString()).ToArray());
        Assert.Equal("ResultTooOld", lines[0].GetProperty("reasons")[0].GetProperty("code").GetString());
    }

    [Fact]
    public void Test_names_lastResult_when_the_newest_result_failed()
    {
        Results("pass.json", "lab", "Pass", Now.AddHours(-5));
        Results("fail.json", "lab", "Fail", Now.AddHours(-1));

        var (_, lines, _) = Run("test", Instance());

        Assert.False(lines[0].GetProperty("_inDesiredState").GetBoolean());
        Assert.Equal("Fail", lines[0].GetProperty("lastResult").GetString());
        Assert.Equal(new[] { "lastResult" }, lines[1].EnumerateArray().Select(e => e.GetString()).ToArray());
        Assert.Contains("25 ms", lines[0].GetProperty("reasons")[0].GetProperty("phrase").GetString());
    }

    [Fact]
    public void Test_does_not_accept_a_stopped_run_even_when_it_passed()
    {
        Results("stopped.json", "lab", "Pass", Now.AddHours(-1), completion: "Stopped");

        var (_, lines, _) = Run("test", Instance());

        Assert.False(lines[0].GetProperty("_inDesiredState").GetBoolean());
        Assert.Equal("ResultIncomplete", lines[0].GetProperty("reasons")[0].GetProperty("code").GetString());
    }

    [Fact]
    public void Test_filters_on_the_test_type_when_one_is_given()
    {
        Results("stress.json", "lab", "Pass", Now.AddHours(-1), type: TestType.Stress);
        var instance = new { name = "lab-gate", profilePath = ProfilePath(), outputPath = _dir.Combine("out"), testType = "Performance" };

        var (_, lines, _) = Run("test", instance);

        Assert.Equal("NotRun", lines[0].GetProperty("lastResult").GetString());
        Assert.Equal("Performance", lines[0].GetProperty("testType").GetString());
    }

    [Fact]
    public void Get_ignores_other_json_in_the_output_folder()
    {
        Results("r.json", "lab", "Pass", Now.AddHours(-1));
        File.WriteAllText(_dir.Combine("out", "notes.json"), "{\"hello\":1}");
        File.WriteAllText(_dir.Combine("out", "broken.json"), "{\"schema\":\"exchstoragetest/results\", oops");

        var (exit, lines, _) = Run("get", Instance());

        Assert.Equal(0, exit);
        Assert.Equal("Pass", lines[0].GetProperty("lastResult").GetString());
    }

    [Theory]
    [InlineData("", "instance")]
    [InlineData("not json", "instance")]
    [InlineData("{\"profilePath\":\"x.json\"}", "name")]
    [InlineData("{\"name\":\"a\"}", "profilePath")]
    [InlineData("{\"name\":\"a\",\"profilePath\":\"p.json\",\"maxResultAgeHours\":0}", "MaxResultAgeHours '0'")]
    public void Invalid_input_exits_2_with_a_trace_line(string input, string mentioned)
    {
        var stdout = new StringWriter();
        var stderr = new StringWriter();

        int exit = DscCommand.Execute("get", new StringReader(input), stdout, stderr, Now);

        Assert.Equal(2, exit);
        Assert.Equal("", stdout.ToString());
        var trace = JsonDocument.Parse(stderr.ToString().Trim()).RootElement;
        Assert.Contains(mentioned, trace.GetProperty("error").GetString());
    }

    [Fact]
    public void Unknown_operation_exits_2()
    {
        var (exit, lines, stderr) = Run("export", Instance());
        Assert.Equal(2, exit);
        Assert.Empty(lines);
        Assert.Contains("export", stderr);
    }

    [Fact]
    public void Set_with_a_fresh_pass_runs_nothing_and_returns_the_state()
    {
        Results("r.json", "lab", "Pass", Now.AddHours(-1));
        var instance = Instance();
        int before = Directory.GetFiles(_dir.Path, "*", SearchOption.AllDirectories).Length;

        var (exit, lines, _) = Run("set", instance);

        Assert.Equal(0, exit);
        Assert.Equal("Pass", Assert.Single(lines).GetProperty("lastResult").GetString());
        Assert.Equal(before, Directory.GetFiles(_dir.Path, "*", SearchOption.AllDirectories).Length);
    }

    [Fact]
    public void The_protocols_validation_command_reports_the_state_dsc_test_reports()
    {
        // The class resource (through the module's hidden Get-StorageValidationState) and the DSC v3
        // resource must judge one way: the validation event carries dsc test's state, member for member.
        DateTime now = DateTime.UtcNow;
        Results("old.json", "lab", "Pass", now.AddHours(-30));
        Results("new.json", "lab", "Fail", now.AddHours(-2));
        string profile = ProfilePath();
        var stdout = new StringWriter();
        int dsc = DscCommand.Execute("test", new StringReader(JsonSerializer.Serialize(new { name = "lab-gate", profilePath = profile, outputPath = _dir.Combine("out"), maxResultAgeHours = 12, testType = "Performance" })),
            stdout, new StringWriter(), now);
        var expected = JsonDocument.Parse(stdout.ToString().Split('\n')[0]).RootElement;

        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"validation\",\"testType\":\"Performance\",\"maxResultAgeHours\":12,\"paths\":[" + JsonSerializer.Serialize(profile)
            + "],\"outputPath\":" + JsonSerializer.Serialize(_dir.Combine("out")) + "}");

        Assert.Equal(0, dsc);
        Assert.Equal(0, exit);
        var state = events.Single(e => e.GetProperty("type").GetString() == "validation");
        foreach (string member in new[] { "profilePath", "outputPath", "maxResultAgeHours", "testType", "lastResult", "lastRunUtc", "lastResultsPath", "reasons", "_inDesiredState" })
            Assert.Equal(expected.GetProperty(member).GetRawText(), state.GetProperty(member).GetRawText());
        Assert.Equal("Fail", state.GetProperty("lastResult").GetString());
        Assert.False(state.GetProperty("_inDesiredState").GetBoolean());
    }

    [Theory]
    [InlineData("\"paths\":[]", "PathsMissing")]
    [InlineData("\"paths\":[\"p.json\"],\"maxResultAgeHours\":0", "MaxResultAgeOutOfRange")]
    public void The_validation_command_refuses_a_request_without_one_profile_or_with_a_bad_age(string members, string code)
    {
        var (exit, events) = ProcessProtocolTests.RunEngine("{\"protocol\":1,\"command\":\"validation\"," + members + "}");

        Assert.Equal(2, exit);
        Assert.Equal(code, events.Single(e => e.GetProperty("type").GetString() == "error").GetProperty("code").GetString());
    }

    public void Dispose() => _dir.Dispose();
}
