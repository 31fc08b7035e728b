using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host;

/// <summary>
/// Reads the one JSON request (stdin or --request file) the module sends. Strict: a field this
/// engine does not know is refused by name (a typo such as "durationSecs" must not silently become
/// a default 2-hour run), and "command" must be given.
/// </summary>
internal static class RequestReader
{
    /// <summary>Lenient options for documents the module saves (profiles, DSC instances): extra fields are ignored.</summary>
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        PropertyNameCaseInsensitive = true,
        Converters = { new JsonStringEnumConverter() },
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    /// <summary>The request itself: every field must be one this engine knows.</summary>
    private static readonly JsonSerializerOptions Strict = new(Options) { UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow };

    public static EngineRequest Parse(string json, string source)
    {
        if (string.IsNullOrWhiteSpace(json))
            throw EngineException.InvalidArgument("RequestMissing", $"No request was given on {source}: send one JSON request (see docs/protocol.md).");
        EngineRequest request;
        try
        {
            request = JsonSerializer.Deserialize<EngineRequest>(json, Strict)
                ?? throw EngineException.InvalidArgument("RequestMalformed", $"The request on {source} is empty JSON.");
        }
        catch (JsonException ex) when (UnknownField(ex) is { } field)
        {
            string known = Suggest(field.Name, field.Owner);
            throw EngineException.InvalidArgument("UnknownField",
                $"The request on {source} has the field '{field.Name}' (at {ex.Path}), which this engine does not know{known}. Fields are listed in docs/protocol.md.", field.Name);
        }
        catch (JsonException ex)
        {
            throw EngineException.InvalidArgument("RequestMalformed", $"The request on {source} is not valid JSON for this engine: {ex.Message}");
        }
        if (string.IsNullOrWhiteSpace(request.Command))
            throw EngineException.InvalidArgument("CommandMissing",
                $"The request on {source} has no 'command': say which one (run, plan, streams, verify, inspect, report or version); nothing runs by default.");
        return request;
    }

    /// <summary>
    /// The request types and the JSON names of their fields: what the strict reader accepts. The
    /// module sends only these (docs/protocol.md lists them).
    /// </summary>
    public static IReadOnlyDictionary<Type, IReadOnlyList<string>> Fields()
    {
        var types = new[] { typeof(EngineRequest), typeof(MailboxProfile), typeof(Thresholds), typeof(Engine.Load.StreamMix.StreamSpec) };
        var map = new Dictionary<Type, IReadOnlyList<string>>();
        foreach (var t in types)
            map[t] = t.GetProperties(BindingFlags.Public | BindingFlags.Instance)
                .Where(p => p.CanWrite && p.GetCustomAttribute<JsonIgnoreAttribute>() is null)
                .Select(p => JsonNamingPolicy.CamelCase.ConvertName(p.Name)).ToList();
        return map;
    }

    /// <summary>The unmapped property System.Text.Json names in its message, and the type it was found in.</summary>
    private static (string Name, string Owner)? UnknownField(JsonException ex)
    {
        // "The JSON property 'durationSecs' could not be mapped to any .NET member contained in type '...EngineRequest'."
        const string marker = "The JSON property '";
        int i = ex.Message.IndexOf(marker, StringComparison.Ordinal);
        if (i < 0 || !ex.Message.Contains("could not be mapped", StringComparison.Ordinal)) return null;
        int start = i + marker.Length, end = ex.Message.IndexOf('\'', start);
        if (end < 0) return null;
        int t = ex.Message.IndexOf("type '", end, StringComparison.Ordinal);
        string owner = t < 0 ? "" : ex.Message[(t + 6)..].TrimEnd('.', '\'');
        return (ex.Message[start..end], owner);
    }

    private static string Suggest(string name, string owner)
    {
        var fields = Fields().FirstOrDefault(f => f.Key.FullName == owner).Value ?? Fields()[typeof(EngineRequest)];
        return Spelling.Nearest(name, fields) is string best ? $" (did you mean '{best}'?)" : "";
    }
}
