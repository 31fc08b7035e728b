using System.Xml.Linq;

namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// Writes commands' help as MAML, element for element as platyPS's New-ExternalHelp does (its
/// MamlRenderer): command:details with the synopsis, the description, command:syntax built from the
/// parameters' sets (platyPS ignores the SYNTAX blocks), command:parameters, input and return types,
/// the notes as maml:alertSet, command:examples and command:relatedLinks.
/// </summary>
public static class MamlWriter
{
    private static readonly XNamespace Msh = "http://msh";
    private static readonly XNamespace Maml = "http://schemas.microsoft.com/maml/2004/10";
    private static readonly XNamespace Command = "http://schemas.microsoft.com/maml/dev/command/2004/10";
    private static readonly XNamespace Dev = "http://schemas.microsoft.com/maml/dev/2004/10";
    private static readonly XNamespace MsHelp = "http://msdn.microsoft.com/mshelp";

    public static XDocument Write(IEnumerable<CommandHelp> commands) =>
        new(new XDeclaration("1.0", "utf-8", null),
            new XElement(Msh + "helpItems", new XAttribute("schema", "maml"), commands.Select(CommandElement)));

    private static XElement CommandElement(CommandHelp command)
    {
        string verb = command.Name.Split('-')[0];
        string noun = command.Name[Math.Min(verb.Length + 1, command.Name.Length)..];
        return new XElement(Command + "command",
            new XAttribute(XNamespace.Xmlns + "maml", Maml),
            new XAttribute(XNamespace.Xmlns + "command", Command),
            new XAttribute(XNamespace.Xmlns + "dev", Dev),
            new XAttribute(XNamespace.Xmlns + "MSHelp", MsHelp),
            new XElement(Command + "details",
                new XElement(Command + "name", command.Name),
                new XElement(Command + "verb", verb),
                new XElement(Command + "noun", noun),
                new XElement(Maml + "description", Paragraphs(command.Synopsis))),
            new XElement(Maml + "description", Paragraphs(command.Description)),
            new XElement(Command + "syntax", SyntaxItems(command)),
            new XElement(Command + "parameters", command.Parameters.Select(p => Parameter(p, p.Metadata[0], inSyntax: false))),
            new XElement(Command + "inputTypes", command.Inputs.Select(t => TypeElement("inputType", t))),
            new XElement(Command + "returnValues", command.Outputs.Select(t => TypeElement("returnValue", t))),
            new XElement(Maml + "alertSet", new XElement(Maml + "alert", Paragraphs(command.Notes))),
            new XElement(Command + "examples", command.Examples.Select(Example)),
            new XElement(Command + "relatedLinks", Links(command)));
    }

    /// <summary>
    /// One syntax item per parameter set, in the order the sets first appear among the parameters;
    /// a set lists its own parameters and those in every set. With no named set there is one item.
    /// </summary>
    private static IEnumerable<XElement> SyntaxItems(CommandHelp command)
    {
        var sets = new List<string>();
        foreach (ParameterHelp p in command.Parameters)
            foreach (ParameterMetadata m in p.Metadata)
                foreach (string set in m.ParameterSets)
                    if (set != ParameterMetadata.AllSets && !sets.Contains(set, StringComparer.OrdinalIgnoreCase)) sets.Add(set);

        if (sets.Count == 0)
        {
            yield return SyntaxItem(command, command.Parameters.Select(p => (p, p.Metadata[0])));
            yield break;
        }
        foreach (string set in sets)
        {
            var members = new List<(ParameterHelp, ParameterMetadata)>();
            foreach (ParameterHelp p in command.Parameters)
            {
                ParameterMetadata? m = p.Metadata.FirstOrDefault(m => m.ParameterSets.Contains(set, StringComparer.OrdinalIgnoreCase))
                    ?? p.Metadata.FirstOrDefault(m => m.InAllSets);
                if (m != null) members.Add((p, m));
            }
            yield return SyntaxItem(command, members);
        }
    }

    private static XElement SyntaxItem(CommandHelp command, IEnumerable<(ParameterHelp Help, ParameterMetadata Metadata)> parameters) =>
        new(Command + "syntaxItem",
            new XElement(Maml + "name", command.Name),
            parameters.Select(p => Parameter(p.Help, p.Metadata, inSyntax: true)));

    private static XElement Parameter(ParameterHelp parameter, ParameterMetadata m, bool inSyntax)
    {
        string type = m.IsSwitch ? "SwitchParameter" : m.Type;
        return new XElement(Command + "parameter",
            new XAttribute("required", Bool(m.Required)),
            new XAttribute("variableLength", "true"),
            new XAttribute("globbing", Bool(m.Globbing)),
            new XAttribute("pipelineInput", m.PipelineInput),
            new XAttribute("position", m.Position.ToLowerInvariant()),
            new XAttribute("aliases", m.Aliases.Count > 0 ? string.Join(", ", m.Aliases) : "none"),
            new XElement(Maml + "name", parameter.Name),
            new XElement(Maml + "description", Paragraphs(parameter.Description)),
            inSyntax && m.AcceptedValues.Count > 0
                ? new XElement(Command + "parameterValueGroup", m.AcceptedValues.Select(v =>
                    new XElement(Command + "parameterValue", new XAttribute("required", "false"), new XAttribute("variableLength", "false"), v)))
                : null,
            // As platyPS: a switch shows no value in the syntax.
            inSyntax && m.IsSwitch
                ? null
                : new XElement(Command + "parameterValue", new XAttribute("required", Bool(!m.IsSwitch)), new XAttribute("variableLength", "false"), type),
            new XElement(Dev + "type", new XElement(Maml + "name", type), new XElement(Maml + "uri")),
            new XElement(Dev + "defaultValue", m.IsSwitch && (m.DefaultValue is null or "None") ? "False" : m.DefaultValue ?? "None"));
    }

    private static XElement TypeElement(string element, TypeHelp type) =>
        new(Command + element,
            new XElement(Dev + "type", new XElement(Maml + "name", type.Name)),
            new XElement(Maml + "description", Paragraphs(type.Description)));

    private static XElement Example(ExampleHelp example) =>
        new(Command + "example",
            new XElement(Maml + "title", PadTitle(example.Title)),
            new XElement(Dev + "code", string.Join("\n\n", example.Code)),
            new XElement(Dev + "remarks", Paragraphs(example.Remarks)));

    private static IEnumerable<XElement> Links(CommandHelp command)
    {
        if (command.OnlineVersion != null) yield return Link("Online Version:", command.OnlineVersion);
        // Relative links (other pages in docs/) keep their text; only an absolute URI is a maml:uri,
        // as platyPS does (Get-Help -Online needs a real address).
        foreach (LinkHelp link in command.Links)
            yield return Link(link.Text, Uri.TryCreate(link.Uri, UriKind.Absolute, out _) ? link.Uri : "");
    }

    private static XElement Link(string text, string uri) =>
        new(Maml + "navigationLink", new XElement(Maml + "linkText", text), new XElement(Maml + "uri", uri));

    /// <summary>One maml:para per line of text (a paragraph is one line; a code block in a text section keeps its lines).</summary>
    private static IEnumerable<XElement> Paragraphs(IEnumerable<string> texts) =>
        texts.SelectMany(t => t.Split('\n')).Select(line => new XElement(Maml + "para", line));

    /// <summary>platyPS pads example titles with dashes to 64 characters, the look of Microsoft's own help.</summary>
    private static string PadTitle(string title)
    {
        if (string.IsNullOrWhiteSpace(title) || title.Length >= 62) return title;
        string dashes = new('-', (64 - title.Length - 2) / 2);
        return $"{dashes} {title} {dashes}";
    }

    private static string Bool(bool value) => value ? "true" : "false";
}
