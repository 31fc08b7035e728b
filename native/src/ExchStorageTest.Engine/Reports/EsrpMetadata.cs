using System.Text.Json;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// What the vendor fills in once for an ESRP document: the title of the solution and the rows of the
/// tested-deployment tables no host can discover (storage cache, RAID level, DAGs ...), keyed by the
/// row label exactly as the tables print it (docs/esrp.md). A file of
/// <c>{ "schema": "exchstoragetest/esrp-metadata", "schemaVersion": 1, "title": "...", "values": { "&lt;label&gt;": "&lt;value&gt;" } }</c>.
/// A label no table has is refused by name, so a typo never leaves a row "(to be supplied)" unnoticed.
/// </summary>
public sealed class EsrpMetadata
{
    public const string SchemaName = "exchstoragetest/esrp-metadata";
    public const int CurrentSchemaVersion = 1;

    /// <summary>The solution's title for the document's heading; null leaves the generic heading.</summary>
    public string? Title { get; init; }
    public IReadOnlyDictionary<string, string> Values { get; init; } = new Dictionary<string, string>();

    public string? Path { get; init; }

    public static EsrpMetadata Load(string path)
    {
        string full = System.IO.Path.GetFullPath(path);
        if (!File.Exists(full))
            throw new EngineException("MetadataNotFound", ErrorCategories.ObjectNotFound, $"The ESRP metadata file '{path}' does not exist.", path);
        JsonDocument doc;
        try { doc = JsonDocument.Parse(File.ReadAllText(full), new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip, AllowTrailingCommas = true }); }
        catch (JsonException ex) { throw Malformed(path, $"it is not valid JSON ({ex.Message})"); }
        using (doc)
        {
            var root = doc.RootElement;
            if (root.ValueKind != JsonValueKind.Object || !root.TryGetProperty("schema", out var schema) || schema.GetString() != SchemaName)
                throw Malformed(path, $"it has no \"schema\": \"{SchemaName}\"");
            if (root.TryGetProperty("schemaVersion", out var version) && (version.ValueKind != JsonValueKind.Number || version.GetInt32() > CurrentSchemaVersion))
                throw Malformed(path, $"its schemaVersion is {version}; this engine reads up to {CurrentSchemaVersion}");
            string? title = null;
            if (root.TryGetProperty("title", out var t))
            {
                if (t.ValueKind != JsonValueKind.String) throw Malformed(path, "\"title\" is not a string");
                title = t.GetString();
            }
            var values = new Dictionary<string, string>(StringComparer.Ordinal);
            if (root.TryGetProperty("values", out var v))
            {
                if (v.ValueKind != JsonValueKind.Object) throw Malformed(path, "\"values\" is not an object of row label to value");
                foreach (var row in v.EnumerateObject())
                {
                    if (row.Value.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(row.Value.GetString()))
                        throw Malformed(path, $"the value of \"{row.Name}\" is not a non-empty string");
                    values[row.Name] = row.Value.GetString()!;
                }
            }
            foreach (var p in root.EnumerateObject())
                if (p.Name is not ("schema" or "schemaVersion" or "title" or "values"))
                    throw Malformed(path, $"it has the field \"{p.Name}\", which is not one of schema, schemaVersion, title, values");
            return new EsrpMetadata { Title = title, Values = values, Path = full };
        }
    }

    /// <summary>Refuses a value whose label is none of the tables' rows, naming it and the nearest row label.</summary>
    public void CheckLabels(IEnumerable<EsrpTable> tables)
    {
        var labels = tables.SelectMany(t => t.Items).Select(i => i.Label).ToList();
        foreach (var label in Values.Keys)
        {
            if (labels.Contains(label, StringComparer.Ordinal)) continue;
            string? near = Spelling.Nearest(label, labels);
            throw EngineException.InvalidArgument("MetadataUnknownLabel",
                $"The ESRP metadata file '{Path}' supplies \"{label}\", which is no row of the tested-deployment tables" +
                (near is null ? "." : $" (did you mean \"{near}\"?).") + " The row labels are listed in docs/esrp.md.", label);
        }
    }

    private static EngineException Malformed(string path, string why) =>
        new("MetadataMalformed", ErrorCategories.InvalidData, $"'{path}' is not an ESRP metadata file: {why}.", path);
}
