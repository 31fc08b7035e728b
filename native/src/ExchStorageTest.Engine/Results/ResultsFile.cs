using System.Text.Json;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Results;

/// <summary>Reads and writes the results JSON. Writes are atomic (temp file + rename) so a crash never leaves half a file.</summary>
public static class ResultsFile
{
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        WriteIndented = true,
        DefaultIgnoreCondition = JsonIgnoreCondition.WhenWritingNull,
        Converters = { new JsonStringEnumConverter() },
        NumberHandling = JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    public static void Save(TestResults results, string path)
    {
        string tmp = path + ".partial";
        using (var stream = new FileStream(tmp, FileMode.Create, FileAccess.Write, FileShare.None))
        {
            JsonSerializer.Serialize(stream, results, Options);
            stream.Flush(flushToDisk: true);
        }
        File.Move(tmp, path, overwrite: true);
        results.SavedPath = path;
    }

    public static TestResults Load(string path)
    {
        if (!File.Exists(path))
            throw new EngineException("ResultsNotFound", ErrorCategories.ObjectNotFound, $"Results file '{path}' does not exist.", path);
        TestResults? r;
        try
        {
            using var stream = File.OpenRead(path);
            r = JsonSerializer.Deserialize<TestResults>(stream, Options);
        }
        catch (JsonException ex)
        {
            throw new EngineException("ResultsMalformed", ErrorCategories.InvalidData, $"Results file '{path}' is not valid results JSON: {ex.Message}", path, ex);
        }
        if (r is null || r.Schema != TestResults.SchemaName)
            throw new EngineException("ResultsMalformed", ErrorCategories.InvalidData, $"'{path}' is not an ExchStorageTest results file (schema '{r?.Schema}').", path);
        if (r.SchemaVersion > TestResults.CurrentSchemaVersion)
            throw new EngineException("ResultsTooNew", ErrorCategories.InvalidData, $"'{path}' has schema version {r.SchemaVersion}; this engine reads up to {TestResults.CurrentSchemaVersion}.", path);
        r.SavedPath = Path.GetFullPath(path);
        return r;
    }
}
