using ExchStorageTest.HelpCompiler.Markdown;

namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// A parameter's ```yaml block: the flat "Key: value" lines platyPS writes (Type, Parameter Sets,
/// Aliases, Accepted values, Required, Position, Default value, Accept pipeline input, Accept
/// wildcard characters). An unknown key or a value of the wrong shape is an error, not a guess.
/// </summary>
public static class ParameterYaml
{
    private static readonly HashSet<string> Known = new(StringComparer.OrdinalIgnoreCase)
    {
        "Type", "Parameter Sets", "Aliases", "Accepted values", "Required", "Position", "Default value",
        "Accept pipeline input", "Accept wildcard characters",
        "Applicable", // platyPS's applicable-tags key: read, not rendered (MAML has no place for it)
    };

    public static ParameterMetadata Read(string file, CodeBlock yaml)
    {
        var values = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        var lineOf = new Dictionary<string, int>(StringComparer.OrdinalIgnoreCase);
        string[] lines = yaml.Text.Split('\n');
        for (int i = 0; i < lines.Length; i++)
        {
            int line = yaml.Line + 1 + i;
            if (lines[i].Trim().Length == 0) continue;
            int colon = lines[i].IndexOf(':');
            string key = colon > 0 ? lines[i][..colon].Trim() : "";
            if (!Known.Contains(key)) throw new HelpSchemaException(file, line, $"'{lines[i].Trim()}' is not a platyPS parameter key");
            if (!values.TryAdd(key, lines[i][(colon + 1)..].Trim())) throw new HelpSchemaException(file, line, $"'{key}' appears twice");
            lineOf[key] = line;
        }

        string Value(string key) => values.TryGetValue(key, out string? v) ? v : "";
        int Line(string key) => lineOf.TryGetValue(key, out int l) ? l : yaml.Line;
        bool Flag(string key)
        {
            string v = Value(key);
            if (v.Length == 0 || v.Equals("False", StringComparison.OrdinalIgnoreCase)) return false;
            if (v.Equals("True", StringComparison.OrdinalIgnoreCase)) return true;
            throw new HelpSchemaException(file, Line(key), $"'{key}: {v}' must be True or False");
        }

        string type = Value("Type");
        if (type.Length == 0) throw new HelpSchemaException(file, yaml.Line, "the yaml block has no 'Type'");
        string position = Value("Position");
        if (position.Length == 0) position = "Named";
        if (!position.Equals("Named", StringComparison.OrdinalIgnoreCase) && !int.TryParse(position, out _))
            throw new HelpSchemaException(file, Line("Position"), $"'Position: {position}' must be Named or a number");
        string pipeline = Value("Accept pipeline input");
        if (pipeline.Length == 0) pipeline = "False";
        if (!pipeline.StartsWith("True", StringComparison.OrdinalIgnoreCase) && !pipeline.Equals("False", StringComparison.OrdinalIgnoreCase))
            throw new HelpSchemaException(file, Line("Accept pipeline input"), $"'Accept pipeline input: {pipeline}' must be False or True (ByValue, ByPropertyName)");
        var sets = List(Value("Parameter Sets"));
        if (sets.Count == 0) sets.Add(ParameterMetadata.AllSets);
        if (sets.Count > 1 && sets.Contains(ParameterMetadata.AllSets))
            throw new HelpSchemaException(file, Line("Parameter Sets"), "'Parameter Sets' lists (All) beside named sets");
        string defaultValue = Value("Default value");

        return new ParameterMetadata(
            Type: type,
            ParameterSets: sets,
            Aliases: List(Value("Aliases")),
            AcceptedValues: List(Value("Accepted values")),
            Required: Flag("Required"),
            Position: position,
            DefaultValue: defaultValue.Length == 0 ? null : defaultValue,
            PipelineInput: pipeline,
            Globbing: Flag("Accept wildcard characters"));
    }

    private static List<string> List(string value) =>
        value.Split(',').Select(s => s.Trim()).Where(s => s.Length > 0).ToList();
}
