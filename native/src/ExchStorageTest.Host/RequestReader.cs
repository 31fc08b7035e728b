using System.Text.Json;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host;

/// <summary>Reads the one JSON request (stdin or --request file) the module sends.</summary>
internal static class RequestReader
{
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        PropertyNameCaseInsensitive = true,
        Converters = { new JsonStringEnumConverter() },
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    public static EngineRequest Parse(string json, string source)
    {
        if (string.IsNullOrWhiteSpace(json))
            throw EngineException.InvalidArgument("RequestMissing", $"No request was given on {source}: send one JSON request (see docs/protocol.md).");
        try
        {
            return JsonSerializer.Deserialize<EngineRequest>(json, Options)
                ?? throw EngineException.InvalidArgument("RequestMalformed", $"The request on {source} is empty JSON.");
        }
        catch (JsonException ex)
        {
            throw EngineException.InvalidArgument("RequestMalformed", $"The request on {source} is not valid JSON for this engine: {ex.Message}");
        }
    }
}
