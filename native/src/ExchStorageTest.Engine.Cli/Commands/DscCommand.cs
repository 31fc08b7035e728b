using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Cli.Requests;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// The engine as a DSC v3 command resource (dsc/exchstoragetest.dsc.resource.json):
/// <c>exchstoragetest-engine dsc get|test|set</c> with the instance JSON on stdin.
/// The desired state is "a passing, complete result for this profile, no older than
/// maxResultAgeHours". get and test only read results files; set runs the test through the same
/// code path as the "run" command. Nothing but the state goes to stdout (DSC parses it), so this
/// runs before the hello event is written.
/// </summary>
/// <remarks>
/// Exit codes (declared in the manifest): 0 success, 1 error, 2 invalid input, 3 set ran and the
/// verdict failed (or the run was stopped).
/// </remarks>
public static class DscCommand
{
    public const int Success = 0;
    public const int Error = 1;
    public const int InvalidInput = 2;
    public const int TestFailed = 3;

    private static readonly JsonSerializerOptions OutputOptions = new() { WriteIndented = false };

    public static int Execute(string verb, TextReader stdin, TextWriter stdout) => Execute(verb, stdin, stdout, Console.Error, DateTime.UtcNow);

    /// <summary>The testable form: stderr and "now" are given.</summary>
    public static int Execute(string verb, TextReader stdin, TextWriter stdout, TextWriter stderr, DateTime nowUtc)
    {
        DscInstance instance;
        try
        {
            instance = DscInstance.Parse(stdin.ReadToEnd());
        }
        catch (EngineException ex)
        {
            Trace(stderr, "error", ex.Message);
            return InvalidInput;
        }

        try
        {
            switch ((verb ?? "").ToLowerInvariant())
            {
                case "get":
                    stdout.WriteLine(Read(instance, nowUtc).ToJson(inDesiredState: null));
                    return Success;
                case "test":
                    var state = Read(instance, nowUtc);
                    stdout.WriteLine(state.ToJson(state.InDesiredState));
                    stdout.WriteLine(JsonSerializer.Serialize(state.DifferingProperties(), OutputOptions));
                    return Success;
                case "set":
                    return Set(instance, stdout, stderr, nowUtc);
                default:
                    Trace(stderr, "error", $"Unknown dsc operation '{verb}': expected get, test or set.");
                    return InvalidInput;
            }
        }
        catch (EngineException ex)
        {
            Trace(stderr, "error", $"{ex.Code}: {ex.Message}");
            return ex.Category == ErrorCategories.InvalidArgument ? InvalidInput : Error;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException or JsonException)
        {
            Trace(stderr, "error", $"{ex.GetType().Name}: {ex.Message}");
            return Error;
        }
    }

    private static int Set(DscInstance instance, TextWriter stdout, TextWriter stderr, DateTime nowUtc)
    {
        var before = Read(instance, nowUtc);
        if (before.InDesiredState)
        {
            // Set is expensive (hours of load); a passing fresh result already satisfies it.
            stdout.WriteLine(before.ToJson(inDesiredState: null));
            return Success;
        }

        var profile = LoadProfile(instance.ProfilePath)
            ?? throw EngineException.Refused(ErrorCodes.ProfileNotFound, $"The profile file '{instance.ProfilePath}' does not exist or holds no profile.", instance.ProfilePath);
        var request = new EngineRequest
        {
            Command = EngineCommands.Run,
            Profile = profile,
            OutputPath = instance.OutputPath,
            TestType = instance.TestType ?? TestType.Performance,
            DurationSeconds = instance.DurationSeconds,
        };
        Trace(stderr, "info", $"Running a {request.TestType} storage test for profile '{profile.Name}'.");
        int exit = CommandDispatcher.Execute(request, new EventWriter(Stream.Null), CancellationToken.None);

        var after = Read(instance, DateTime.UtcNow);
        stdout.WriteLine(after.ToJson(inDesiredState: null));
        if (exit != EngineExit.Ran)
            return exit == EngineExit.Stopped ? TestFailed : Error;
        if (after.LastResult != Verdicts.Pass)
        {
            Trace(stderr, "error", $"The storage test for profile '{profile.Name}' failed: {string.Join("; ", after.Reasons.Select(r => r.Phrase))}");
            return TestFailed;
        }
        return Success;
    }

    /// <summary>The current state: the newest results file for the profile under the output folder.</summary>
    internal static DscState Read(DscInstance instance, DateTime nowUtc)
    {
        var state = new DscState(instance);
        var profile = LoadProfile(instance.ProfilePath);
        if (profile is null)
        {
            state.LastResult = Verdicts.NotRun;
            state.Reasons.Add(new DscReason("ProfileNotFound", $"The profile file '{instance.ProfilePath}' does not exist or is not a profile."));
            return state;
        }

        string? folder = instance.OutputPath;
        if (string.IsNullOrWhiteSpace(folder) && profile.DatabasePaths.Length > 0)
            folder = Path.Combine(Path.GetFullPath(profile.DatabasePaths[0]), "Results");
        state.OutputPath = folder;

        TestResults? newest = ResultsDocuments.Newest(folder, profile.Name, instance.TestType);
        if (newest is null)
        {
            state.LastResult = Verdicts.NotRun;
            state.Reasons.Add(new DscReason("NoResult", $"No results for profile '{profile.Name}' were found in '{folder}'."));
            return state;
        }

        state.LastResult = newest.Verdict.Result;
        state.LastRunUtc = DateTime.SpecifyKind(newest.Timeline.TestEndUtc, DateTimeKind.Utc);
        state.LastResultsPath = newest.SavedPath;
        state.ResultCurrent = newest.Verdict.Result == Verdicts.Pass && newest.Completion == Completions.Complete;
        state.Fresh = nowUtc - state.LastRunUtc.Value <= TimeSpan.FromHours(instance.MaxResultAgeHours);

        string why = newest.Verdict.Reasons.Count == 0 ? "no reason recorded" : string.Join("; ", newest.Verdict.Reasons.Select(r => r.Message));
        if (newest.Verdict.Result == Verdicts.Fail)
            state.Reasons.Add(new DscReason("ResultFailed", $"The newest result ({newest.TestId}) failed: {why}"));
        else if (newest.Verdict.Result != Verdicts.Pass || newest.Completion != Completions.Complete)
            // Stopped or Interrupted before it earned a Fail: not in the desired state, and not a failure either.
            state.Reasons.Add(new DscReason("ResultIncomplete", $"The newest result ({newest.TestId}) is {newest.Completion}, not Complete: {why}"));
        if (!state.Fresh)
            state.Reasons.Add(new DscReason("ResultTooOld", $"The newest result ended {state.LastRunUtc:o}, more than {instance.MaxResultAgeHours} hours ago."));
        return state;
    }

    internal static MailboxProfile? LoadProfile(string path)
    {
        if (string.IsNullOrWhiteSpace(path) || !File.Exists(path))
            return null;
        try
        {
            return JsonSerializer.Deserialize<MailboxProfile>(File.ReadAllText(path), RequestJson.Options);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>DSC v3 reads JSON trace lines on stderr ({"error": "..."}, {"info": "..."}).</summary>
    private static void Trace(TextWriter stderr, string level, string message)
    {
        var line = new JsonObject { [level] = message };
        stderr.WriteLine(line.ToJsonString());
    }
}

/// <summary>The resource instance as DSC sends it (camelCase; unknown properties are ignored).</summary>
internal sealed class DscInstance
{
    public string Name { get; set; } = "";
    public string ProfilePath { get; set; } = "";
    public string? OutputPath { get; set; }
    public double MaxResultAgeHours { get; set; } = RunDefaults.MaxResultAgeHours;
    public TestType? TestType { get; set; }
    public double? DurationSeconds { get; set; }

    public static DscInstance Parse(string json)
    {
        if (string.IsNullOrWhiteSpace(json))
            throw EngineException.Refused(ErrorCodes.RequestMissing, "No instance JSON was given on standard input.");
        DscInstance? instance;
        try
        {
            instance = JsonSerializer.Deserialize<DscInstance>(json, RequestJson.Options);
        }
        catch (JsonException ex)
        {
            throw EngineException.Refused(ErrorCodes.RequestMalformed, $"The instance JSON is not valid: {ex.Message}");
        }
        if (instance is null)
            throw EngineException.Refused(ErrorCodes.RequestMalformed, "The instance JSON is empty.");
        if (string.IsNullOrWhiteSpace(instance.Name))
            throw EngineException.Refused(ErrorCodes.NameMissing, "The instance needs a 'name'.");
        return instance.Checked();
    }

    /// <summary>
    /// The checks every reader of the state needs (dsc get/test/set and the protocol's "validation"
    /// command); makes the paths absolute.
    /// </summary>
    internal DscInstance Checked()
    {
        if (string.IsNullOrWhiteSpace(ProfilePath))
            throw EngineException.Refused(ErrorCodes.ProfileMissing, "The instance needs a 'profilePath' (a profile saved with New-MailboxProfile -SaveTo).");
        if (RunRules.MaxResultAgeHours.Check(MaxResultAgeHours) is { } violation) throw EngineException.Refused(violation);
        ProfilePath = Path.GetFullPath(ProfilePath);
        if (!string.IsNullOrWhiteSpace(OutputPath))
            OutputPath = Path.GetFullPath(OutputPath);
        return this;
    }
}

internal sealed record DscReason(string Code, string Phrase);

/// <summary>What get/test/set print: the instance's settings plus the read-only observed state.</summary>
internal sealed class DscState
{
    private readonly DscInstance _instance;

    public DscState(DscInstance instance)
    {
        _instance = instance;
        OutputPath = instance.OutputPath;
    }

    public string? OutputPath { get; set; }
    public string LastResult { get; set; } = Verdicts.NotRun;
    public DateTime? LastRunUtc { get; set; }
    public string? LastResultsPath { get; set; }
    public bool ResultCurrent { get; set; }
    public bool Fresh { get; set; }
    public List<DscReason> Reasons { get; } = new();

    public bool InDesiredState => ResultCurrent && Fresh;

    /// <summary>The names of the properties that are out of state (DSC v3 stateAndDiff).</summary>
    public List<string> DifferingProperties()
    {
        var names = new List<string>();
        if (!ResultCurrent)
            names.Add(EventFields.Validation.LastResult);
        if (!Fresh)
            names.Add(EventFields.Validation.LastRunUtc);
        return names;
    }

    public string ToJson(bool? inDesiredState) => ToJsonObject(inDesiredState).ToJsonString();

    /// <summary>The state as DSC reads it; the protocol's "validation" event carries the same members.</summary>
    public JsonObject ToJsonObject(bool? inDesiredState)
    {
        var o = new JsonObject
        {
            [EventFields.Validation.Name] = _instance.Name,
            [EventFields.Validation.ProfilePath] = _instance.ProfilePath,
            [EventFields.Validation.OutputPath] = OutputPath,
            [EventFields.Validation.MaxResultAgeHours] = _instance.MaxResultAgeHours,
        };
        if (_instance.TestType is TestType t)
            o[EventFields.Validation.TestType] = t.ToString();
        if (_instance.DurationSeconds is double d)
            o[EventFields.Validation.DurationSeconds] = d;
        o[EventFields.Validation.LastResult] = LastResult;
        o[EventFields.Validation.LastRunUtc] = LastRunUtc?.ToString("o", System.Globalization.CultureInfo.InvariantCulture);
        o[EventFields.Validation.LastResultsPath] = LastResultsPath;
        var reasons = new JsonArray();
        foreach (var r in Reasons)
            reasons.Add(new JsonObject { [EventFields.Validation.Reason.Code] = r.Code, [EventFields.Validation.Reason.Phrase] = r.Phrase });
        o[EventFields.Validation.Reasons] = reasons;
        o[EventFields.Validation.InDesiredState] = inDesiredState;
        return o;
    }
}
