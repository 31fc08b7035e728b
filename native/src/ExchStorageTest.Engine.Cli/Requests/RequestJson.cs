using System.Text.Json;
using System.Text.Json.Serialization;

namespace ExchStorageTest.Engine.Cli.Requests;

/// <summary>How the engine reads JSON: field names in camelCase (matched without regard to case), enums as their names.</summary>
internal static class RequestJson
{
    /// <summary>
    /// For requests, after <see cref="RequestGate"/> has checked every field, and for documents the module saves
    /// (profiles, DSC instances), whose extra fields are ignored.
    /// </summary>
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        PropertyNameCaseInsensitive = true,
        Converters = { new JsonStringEnumConverter(allowIntegerValues: false) },
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
    };

    /// <summary>The same leniency for the gate's own parse of the request.</summary>
    public static readonly JsonDocumentOptions Document = new() { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true };
}
