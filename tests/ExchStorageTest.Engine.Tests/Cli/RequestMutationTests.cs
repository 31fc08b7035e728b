using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Tests.Reports;
using ExchStorageTest.Engine.Cli;
using ExchStorageTest.Engine.Cli.Commands;
using ExchStorageTest.Engine.Cli.Requests;

namespace ExchStorageTest.Engine.Tests.Cli;

/// <summary>
/// A mutation probe of the request readers, as a test: a valid request for every command, then hundreds of broken copies
/// (each field removed, nulled, of another kind, out of range, given twice; unknown and foreign fields; the
/// protocol and the command wrong or missing; documents that are not requests). Each must be accepted or refused
/// cleanly: refused with a refusal (exit 2) whose code is in the catalogue and whose message is not empty, or
/// accepted by the command's checks — never another exception (an EngineFault, exit 1) — and nothing is written.
/// Commands that only read also run their work, which must end with exit 0. In-process, through the same gate and
/// dispatcher the engine's Program uses.
/// </summary>
public class RequestMutationTests : IDisposable
{
    private readonly TestFolder _dir = new("mutation");

    /// <summary>Commands whose work only reads (or only plans): their accepted mutations run to the end too.</summary>
    private static readonly string[] ReadOnly = { EngineCommands.Version, EngineCommands.Plan, EngineCommands.Verify, EngineCommands.Inspect, EngineCommands.Report, EngineCommands.Validation, EngineCommands.Calculator, EngineCommands.Capture };

    private Dictionary<string, JsonObject> Valid()
    {
        string db = _dir.Sub("db");
        string logs = _dir.Sub("logs");
        File.WriteAllBytes(Path.Combine(logs, "E0000000001.log"), new byte[4096]);
        string results = _dir.Combine("js13.json");
        if (!File.Exists(results)) ResultsFile.Save(ReportFixtures.Js13(), results);
        string profileFile = _dir.Combine("profile.json");
        var profile = new JsonObject
        {
            ["name"] = "Probe", ["mailboxCount"] = 20, ["iopsPerMailbox"] = 0.5, ["mailboxSizeMB"] = 4, ["databaseCount"] = 2,
            ["databasePaths"] = new JsonArray(db), ["threadCount"] = 1, ["minimumDatabaseCacheMB"] = 4, ["maximumDatabaseCacheMB"] = 8,
        };
        File.WriteAllText(profileFile, profile.ToJsonString());
        string workbook = _dir.Combine("calculator.xlsm");
        if (!File.Exists(workbook)) new Calculator.CalculatorWorkbookFile().Save(workbook);
        string serversCsv = _dir.Combine("Servers.csv");
        if (!File.Exists(serversCsv)) Calculator.ServersCsvFile.Save(serversCsv);
        JsonObject Request(string command, JsonObject fields)
        {
            var r = new JsonObject { ["protocol"] = 1, ["command"] = command };
            foreach (var (k, v) in fields) r[k] = v?.DeepClone();
            return r;
        }
        var test = new JsonObject
        {
            ["testId"] = "probe-1", ["profile"] = profile, ["testType"] = "Performance", ["durationSeconds"] = 30, ["sampleIntervalSeconds"] = 1,
            ["warmupSeconds"] = 0, ["thresholds"] = new JsonObject { ["averageDatabaseReadLatencyMs"] = 25 }, ["logFilesToReplay"] = 10, ["capacityPercent"] = 20,
            ["continueOnError"] = false, ["pinWorkerThreads"] = true, ["databaseSource"] = "Create",
        };
        return new()
        {
            [EngineCommands.Version] = Request(EngineCommands.Version, new JsonObject()),
            [EngineCommands.Plan] = Request(EngineCommands.Plan, test),
            [EngineCommands.Run] = Request(EngineCommands.Run, test),
            [EngineCommands.Streams] = Request(EngineCommands.Streams, new JsonObject
            {
                ["durationSeconds"] = 2, ["sampleIntervalSeconds"] = 1,
                ["streams"] = new JsonArray(new JsonObject { ["name"] = "r", ["preset"] = "Random32K", ["queueDepth"] = 2, ["path"] = Path.Combine(db, "r.dat"), ["fileSizeBytes"] = 8 << 20 }),
            }),
            [EngineCommands.Verify] = Request(EngineCommands.Verify, new JsonObject { ["paths"] = new JsonArray(logs) }),
            [EngineCommands.Inspect] = Request(EngineCommands.Inspect, new JsonObject { ["paths"] = new JsonArray(db) }),
            [EngineCommands.Report] = Request(EngineCommands.Report, new JsonObject { ["paths"] = new JsonArray(results), ["formats"] = new JsonArray() }),
            [EngineCommands.Validation] = Request(EngineCommands.Validation, new JsonObject { ["paths"] = new JsonArray(profileFile), ["testType"] = "Performance", ["maxResultAgeHours"] = 24 }),
            [EngineCommands.Calculator] = Request(EngineCommands.Calculator, new JsonObject { ["paths"] = new JsonArray(workbook), ["serversCsvPath"] = serversCsv }),
            [EngineCommands.Capture] = Request(EngineCommands.Capture, new JsonObject
            {
                ["paths"] = new JsonArray(Capture.CaptureImportTests.Fixture("ex07.tsv")), ["growthFactor"] = 1.3, ["captureWindowStart"] = "2026-11-04 13:10",
                ["captureWindowMinutes"] = 60, ["mailboxCount"] = 500, ["calculatorPath"] = workbook, ["serversCsvPath"] = serversCsv,
            }),
        };
    }

    private static readonly JsonNode?[] Replacements = { null, "x", "", -1, 0, 1e30, 1.5, true, new JsonArray(), new JsonObject(), new JsonArray(JsonValue.Create("x")) };

    /// <summary>The broken copies of one valid request.</summary>
    private static IEnumerable<(string What, string Text)> Mutations(JsonObject valid)
    {
        string text = valid.ToJsonString();
        yield return ("as is", text);
        foreach (var (name, value) in valid)
        {
            var without = (JsonObject)valid.DeepClone();
            without.Remove(name);
            yield return ($"without {name}", without.ToJsonString());
            // Given twice: the first of two values, then the document's own.
            yield return ($"{name} twice", "{" + JsonSerializer.Serialize(name) + ":" + (value?.ToJsonString() ?? "null") + "," + text[1..]);
            foreach (var replacement in Replacements)
            {
                var changed = (JsonObject)valid.DeepClone();
                changed[name] = replacement?.DeepClone();
                yield return ($"{name} = {replacement?.ToJsonString() ?? "null"}", changed.ToJsonString());
            }
            if (value is JsonObject nested)
            {
                foreach (var (inner, _) in nested)
                {
                    foreach (var replacement in Replacements.Take(8))
                    {
                        var changed = (JsonObject)valid.DeepClone();
                        ((JsonObject)changed[name]!)[inner] = replacement?.DeepClone();
                        yield return ($"{name}.{inner} = {replacement?.ToJsonString() ?? "null"}", changed.ToJsonString());
                    }
                }
                var unknown = (JsonObject)valid.DeepClone();
                ((JsonObject)unknown[name]!)["bogus"] = 1;
                yield return ($"{name}.bogus", unknown.ToJsonString());
            }
        }
        foreach (var (field, value) in new (string, JsonNode?)[] { ("bogus", 1), ("durationSecs", 30), ("streams", new JsonArray()), ("paths", new JsonArray("/x")), ("profile", new JsonObject()) })
        {
            if (valid.ContainsKey(field)) continue;
            var added = (JsonObject)valid.DeepClone();
            added[field] = value;
            yield return ($"with {field}", added.ToJsonString());
        }
        foreach (var casing in new[] { "PROTOCOL", "Command" })
            yield return ($"{casing} twice in another case", "{" + JsonSerializer.Serialize(casing) + ":" + valid[casing.ToLowerInvariant()]!.ToJsonString() + "," + text[1..]);
        yield return ("command in capitals", text.Replace($"\"command\":\"{valid["command"]}\"", $"\"command\":\"{valid["command"]!.GetValue<string>().ToUpperInvariant()}\""));
        yield return ("truncated", text[..(text.Length / 2)]);
        yield return ("with a byte order mark", "\uFEFF" + text);
    }

    private static readonly (string What, string Text)[] NotRequests =
    {
        ("empty", ""), ("blank", "   "), ("null", "null"), ("array", "[]"), ("number", "1"), ("string", "\"run\""), ("open brace", "{"), ("empty object", "{}"),
        ("protocol only", "{\"protocol\":1}"), ("command only", "{\"command\":\"version\"}"), ("protocol -1", "{\"protocol\":-1,\"command\":\"version\"}"),
        ("protocol twice", "{\"protocol\":1,\"protocol\":2,\"command\":\"version\"}"), ("protocol as text", "{\"protocol\":\"1\",\"command\":\"version\"}"),
        ("unknown command", "{\"protocol\":1,\"command\":\"explode\"}"), ("command null", "{\"protocol\":1,\"command\":null}"), ("command a number", "{\"protocol\":1,\"command\":5}"),
    };

    [Fact]
    public void Every_mutation_of_every_command_is_accepted_or_refused_cleanly_and_writes_nothing()
    {
        var valid = Valid();
        Assert.Equal(EngineCommands.All.Select(c => c.Name).OrderBy(n => n), valid.Keys.OrderBy(n => n)); // every command is probed
        var cases = valid.SelectMany(v => Mutations(v.Value).Select(m => (Command: v.Key, m.What, m.Text)))
            .Concat(NotRequests.Select(m => (Command: "", m.What, m.Text))).ToList();
        var before = Snapshot();
        var unclean = new List<string>();
        int accepted = 0, refused = 0;
        foreach (var (command, what, text) in cases)
        {
            string? problem = Probe(text, out bool wasRefused);
            if (problem is not null) unclean.Add($"{command} {what}: {problem}");
            else if (wasRefused) refused++;
            else accepted++;
        }
        Assert.True(unclean.Count == 0, $"{unclean.Count} of {cases.Count} requests were not accepted or refused cleanly:\n" + string.Join("\n", unclean));
        Assert.True(cases.Count >= 400, $"only {cases.Count} mutations");
        Assert.True(accepted > 20 && refused > 300, $"{accepted} accepted, {refused} refused: the probe no longer exercises both outcomes");
        Assert.Equal(before, Snapshot());
    }

    /// <summary>Null when the request was handled cleanly; else what went wrong.</summary>
    private static string? Probe(string text, out bool refused)
    {
        refused = false;
        var output = new MemoryStream();
        var events = new EventWriter(output);
        try
        {
            var request = RequestGate.Read(text, "the probe");
            var work = CommandDispatcher.Check(request, events);
            if (!ReadOnly.Contains(request.Command)) return null;
            int exit = work(CancellationToken.None);
            return exit == EngineExit.Ran ? null : $"exit {exit}: {Encoding.UTF8.GetString(output.ToArray())}";
        }
        catch (EngineException ex) when (ex.IsRefusal)
        {
            refused = true;
            if (ErrorCodes.Find(ex.Code) is null) return $"refused with '{ex.Code}', which is not in the catalogue";
            if (string.IsNullOrWhiteSpace(ex.Message)) return $"refused with '{ex.Code}' and no message";
            return null;
        }
        catch (Exception ex)
        {
            return $"{ex.GetType().Name}{(ex is EngineException e ? $" {e.Code} (not a refusal: exit 1)" : "")}: {ex.Message}";
        }
    }

    private string[] Snapshot() => Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories).OrderBy(p => p, StringComparer.Ordinal).ToArray();

    public void Dispose() => _dir.Dispose();
}
