using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Requests;

/// <summary>
/// The one way into the engine (docs/protocol.md): every request, whatever its command, is read and checked here
/// before a command sees it — JSON, no field given twice, the protocol, a command the engine has, only the fields
/// that command takes (by their contract names, nested objects too), values of the right kind, and the fields it
/// needs. A command cannot skip these checks, and every refusal exits 2 (nothing was written).
/// </summary>
internal static class RequestGate
{
    /// <summary>The request in <paramref name="text"/>, checked, with <see cref="EngineRequest.Command"/> as the contract spells it.</summary>
    /// <param name="text">The request as sent: one JSON object.</param>
    /// <param name="source">Where the request came from, for messages (standard input, a file).</param>
    public static EngineRequest Read(string text, string source)
    {
        if (string.IsNullOrWhiteSpace(text))
            throw EngineException.Refused(ErrorCodes.RequestMissing, $"No request was given on {source}: send one JSON request (see docs/protocol.md).");
        using var document = Parse(text, source);
        var root = document.RootElement;
        if (root.ValueKind != JsonValueKind.Object)
            throw EngineException.Refused(ErrorCodes.RequestMalformed, $"The request on {source} is JSON, but not an object: send one JSON object (see docs/protocol.md).");
        RequestFieldCheck.RefuseDuplicates(root, "");
        CheckProtocol(root);
        var command = Command(root);
        RequestFieldCheck.Check(root, command);
        EngineRequest request;
        try
        {
            request = root.Deserialize<EngineRequest>(RequestJson.Options)
                ?? throw EngineException.Refused(ErrorCodes.RequestMalformed, $"The request on {source} is empty.");
        }
        catch (JsonException ex)
        {
            throw EngineException.Refused(ErrorCodes.RequestMalformed, $"The request on {source} is not valid for this engine: {ex.Message}");
        }
        request.Command = command.Name;
        return request;
    }

    private static JsonDocument Parse(string text, string source)
    {
        try
        {
            return JsonDocument.Parse(text, RequestJson.Document);
        }
        catch (JsonException ex)
        {
            throw EngineException.Refused(ErrorCodes.RequestMalformed, $"The request on {source} is not valid JSON: {ex.Message}");
        }
    }

    /// <summary>Present and the engine's: a request of another protocol may mean anything by its fields.</summary>
    private static void CheckProtocol(JsonElement root)
    {
        var given = RequestFieldCheck.Member(root, RequestFields.Protocol);
        if (given is null)
            throw EngineException.Refused(ErrorCodes.ProtocolMismatch, $"The request names no protocol: this engine speaks protocol {EngineProtocol.Version} (send \"{RequestFields.Protocol}\": {EngineProtocol.Version}).");
        if (given.Value.ValueKind != JsonValueKind.Number || !given.Value.TryGetInt32(out int protocol) || protocol != EngineProtocol.Version)
            throw EngineException.Refused(ErrorCodes.ProtocolMismatch, $"The request speaks protocol {given.Value.GetRawText()}; this engine speaks {EngineProtocol.Version}.", given.Value.GetRawText());
    }

    private static CommandShape Command(JsonElement root)
    {
        var given = RequestFieldCheck.Member(root, RequestFields.Command);
        string names = string.Join(", ", EngineCommands.All.Select(c => c.Name));
        if (given is null || given.Value.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(given.Value.GetString()))
            throw EngineException.Refused(ErrorCodes.CommandMissing, $"The request has no '{RequestFields.Command}': say which one ({names}); nothing runs by default.");
        string name = given.Value.GetString()!;
        return EngineCommands.Find(name)
            ?? throw EngineException.Refused(ErrorCodes.UnknownCommand,
                $"Unknown command '{name}'{(Spelling.Nearest(name, EngineCommands.All.Select(c => c.Name)) is string best ? $" (did you mean '{best}'?)" : "")}: expected {names}.", name);
    }
}
