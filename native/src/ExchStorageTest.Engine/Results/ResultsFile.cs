using System.Text.Json;
using System.Text.Json.Serialization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Results;

/// <summary>Reads and writes the results JSON. Writes claim a unique name and are atomic (<see cref="OutputFile"/>), so a crash never leaves half a file and no file of anyone else is replaced.</summary>
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

    /// <summary>
    /// The stem every results file (and its reports) is named by, exactly as Jetstress names its files:
    /// "&lt;Type&gt;_&lt;y&gt;_&lt;M&gt;_&lt;d&gt;_&lt;H&gt;_&lt;m&gt;_&lt;s&gt;" of the local start time, unpadded
    /// ("Performance_2014_3_5_9_4_21"). Jetstress automation finds its files by "&lt;Type&gt;*" (docs/jetstress.md);
    /// two runs in one folder in one second keep apart by the claimed name's "_2" (<see cref="OutputFile"/>).
    /// </summary>
    public static string Stem(string kind, DateTime localStart) =>
        $"{kind}_{localStart.Year}_{localStart.Month}_{localStart.Day}_{localStart.Hour}_{localStart.Minute}_{localStart.Second}";

    /// <summary>The stem before the run starts (a plan): the time's parts named, "Performance_&lt;y&gt;_&lt;M&gt;_&lt;d&gt;_&lt;H&gt;_&lt;m&gt;_&lt;s&gt;".</summary>
    public static string StemPattern(string kind) => $"{kind}_<y>_<M>_<d>_<H>_<m>_<s>";

    /// <summary>Saves over <paramref name="ownPath"/>, a results file this run claimed (<see cref="OutputFile"/>).</summary>
    public static void Save(TestResults results, string ownPath)
    {
        OutputFile.Replace(ownPath, stream => JsonSerializer.Serialize(stream, results, Options));
        results.SavedPath = ownPath;
    }

    /// <summary>Saves under a new unique name in <paramref name="folder"/>; returns the path.</summary>
    public static string SaveNew(TestResults results, string folder, string stem)
    {
        string path = OutputFile.WriteNew(folder, stem, ".json", stream => JsonSerializer.Serialize(stream, results, Options));
        results.SavedPath = path;
        return path;
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
