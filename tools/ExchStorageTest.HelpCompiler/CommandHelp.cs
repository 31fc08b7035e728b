namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// One command's help as a platyPS page (schema 2.0.0) states it. Texts are paragraphs, each one
/// line; code keeps its lines.
/// </summary>
public sealed class CommandHelp
{
    public required string Name { get; init; }

    /// <summary>The MAML file the page belongs to (front matter "external help file").</summary>
    public required string ExternalHelpFile { get; init; }

    /// <summary>The command's online help address (HelpLinks, as its HelpUri): the first related link, "Online Version:".</summary>
    public string? OnlineVersion { get; init; }

    public List<string> Synopsis { get; } = new();
    public List<string> Description { get; } = new();
    public List<ParameterHelp> Parameters { get; } = new();
    public List<ExampleHelp> Examples { get; } = new();
    public List<TypeHelp> Inputs { get; } = new();
    public List<TypeHelp> Outputs { get; } = new();
    public List<string> Notes { get; } = new();
    public List<LinkHelp> Links { get; } = new();
}

/// <summary>A parameter: its description and one metadata block per distinct set of attributes (platyPS
/// writes several yaml blocks when, say, a parameter is mandatory in one set and optional in another).</summary>
public sealed record ParameterHelp(string Name, IReadOnlyList<string> Description, IReadOnlyList<ParameterMetadata> Metadata);

/// <summary>A parameter's yaml block.</summary>
public sealed record ParameterMetadata(
    string Type,
    IReadOnlyList<string> ParameterSets,
    IReadOnlyList<string> Aliases,
    IReadOnlyList<string> AcceptedValues,
    bool Required,
    string Position,
    string? DefaultValue,
    string PipelineInput,
    bool Globbing)
{
    /// <summary>The platyPS name of the set every parameter set includes.</summary>
    public const string AllSets = "(All)";

    public bool IsSwitch => Type is "SwitchParameter" or "System.Management.Automation.SwitchParameter" or "switch";

    public bool InAllSets => ParameterSets.Count == 1 && ParameterSets[0] == AllSets;
}

public sealed record ExampleHelp(string Title, IReadOnlyList<string> Code, IReadOnlyList<string> Remarks);

public sealed record TypeHelp(string Name, IReadOnlyList<string> Description);

public sealed record LinkHelp(string Text, string Uri);
