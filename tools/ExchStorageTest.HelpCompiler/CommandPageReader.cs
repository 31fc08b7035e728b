using ExchStorageTest.HelpCompiler.Markdown;

namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// Reads a command page in the platyPS schema (2.0.0): front matter, "# Command-Name", then the
/// "## " sections SYNOPSIS, SYNTAX, DESCRIPTION, EXAMPLES, PARAMETERS, INPUTS, OUTPUTS, NOTES and
/// RELATED LINKS. Anything the schema does not allow is an error naming the file and line, so a
/// page that Get-Help would show wrongly fails the build instead.
/// </summary>
public static class CommandPageReader
{
    public const string ExternalHelpFileKey = "external help file";

    private static readonly string[] RequiredSections = { "SYNOPSIS", "SYNTAX", "DESCRIPTION", "EXAMPLES", "PARAMETERS" };

    public static bool IsCommandPage(MarkdownDocument page) => page.FrontMatter.ContainsKey(ExternalHelpFileKey);

    public static CommandHelp Read(MarkdownDocument page)
    {
        string file = page.Path;
        page.FrontMatter.TryGetValue("schema", out string? schema);
        if (schema != "2.0.0") throw new HelpSchemaException(file, 1, $"front matter 'schema' is '{schema}', expected '2.0.0'");
        string helpFile = page.FrontMatter[ExternalHelpFileKey];
        if (helpFile.Length == 0 || helpFile.IndexOfAny(Path.GetInvalidFileNameChars()) >= 0)
            throw new HelpSchemaException(file, 1, $"front matter '{ExternalHelpFileKey}' is '{helpFile}', not a file name");

        var blocks = page.Blocks;
        if (blocks.Count == 0 || blocks[0] is not Heading { Level: 1 } title)
            throw new HelpSchemaException(file, blocks.Count == 0 ? 1 : blocks[0].Line, "the page must start with '# <Command-Name>'");
        string expected = Path.GetFileNameWithoutExtension(file);
        if (!string.Equals(title.Text, expected, StringComparison.Ordinal))
            throw new HelpSchemaException(file, title.Line, $"the page is about '{title.Text}' but its file is named '{expected}.md'");

        // Get-Help -Online opens the page's address, which the cmdlet's HelpUri also gives: both come from HelpLinks,
        // so a page leaves "online version" empty or gives that same address.
        string address = Commands.HelpLinks.Page(title.Text);
        page.FrontMatter.TryGetValue("online version", out string? online);
        if (!string.IsNullOrEmpty(online) && !string.Equals(online, address, StringComparison.Ordinal))
            throw new HelpSchemaException(file, 1, $"front matter 'online version' is '{online}', but the command's help address is '{address}' (HelpLinks): leave it empty");
        var help = new CommandHelp { Name = title.Text, ExternalHelpFile = helpFile, OnlineVersion = address };
        var seen = new Dictionary<string, int>(StringComparer.Ordinal); // section -> line
        int i = 1;
        while (i < blocks.Count)
        {
            if (blocks[i] is not Heading { Level: 2 } section)
                throw new HelpSchemaException(file, blocks[i].Line, "expected a '## ' section heading");
            int end = i + 1;
            while (end < blocks.Count && blocks[end] is not Heading { Level: <= 2 }) end++;
            if (end < blocks.Count && blocks[end] is Heading { Level: 1 } h1)
                throw new HelpSchemaException(file, h1.Line, "a command page has one '# ' heading");
            string name = section.Text.ToUpperInvariant();
            if (!seen.TryAdd(name, section.Line)) throw new HelpSchemaException(file, section.Line, $"section '{section.Text}' appears twice");
            var body = blocks.Skip(i + 1).Take(end - i - 1).ToList();
            switch (name)
            {
                case "SYNOPSIS": help.Synopsis.AddRange(Texts(file, body, section.Text)); break;
                case "DESCRIPTION": help.Description.AddRange(Texts(file, body, section.Text)); break;
                case "NOTES": help.Notes.AddRange(Texts(file, body, section.Text)); break;
                case "SYNTAX": CheckSyntax(file, body); break;
                case "EXAMPLES": help.Examples.AddRange(Examples(file, body)); break;
                case "PARAMETERS": help.Parameters.AddRange(Parameters(file, body)); break;
                case "INPUTS": help.Inputs.AddRange(Types(file, body)); break;
                case "OUTPUTS": help.Outputs.AddRange(Types(file, body)); break;
                case "RELATED LINKS": help.Links.AddRange(Links(file, body)); break;
                default: throw new HelpSchemaException(file, section.Line, $"unknown section '{section.Text}' (platyPS schema 2.0.0)");
            }
            i = end;
        }
        foreach (string required in RequiredSections)
            if (!seen.ContainsKey(required)) throw new HelpSchemaException(file, title.Line, $"the page has no '## {required}' section");
        if (help.Synopsis.Count == 0) throw new HelpSchemaException(file, seen["SYNOPSIS"], "SYNOPSIS is empty (Get-Help would show the syntax in its place)");
        return help;
    }

    /// <summary>Paragraphs, one text each; a code block inside a text section keeps its lines.</summary>
    private static List<string> Texts(string file, List<Block> body, string section)
    {
        var texts = new List<string>();
        foreach (Block block in body)
        {
            switch (block)
            {
                case Paragraph p: texts.Add(InlineText.Of(p)); break;
                case CodeBlock c: texts.Add(c.Text); break;
                default: throw new HelpSchemaException(file, block.Line, $"{section} holds text only, not a heading");
            }
        }
        return texts;
    }

    /// <summary>platyPS ignores the SYNTAX blocks (the syntax comes from the parameters' sets); only their shape is checked.</summary>
    private static void CheckSyntax(string file, List<Block> body)
    {
        foreach (Block block in body)
            if (block is not (Heading { Level: 3 } or CodeBlock))
                throw new HelpSchemaException(file, block.Line, "SYNTAX holds '### <ParameterSet>' headings and code blocks only");
    }

    private static IEnumerable<ExampleHelp> Examples(string file, List<Block> body)
    {
        foreach (var (heading, content) in Subsections(file, body, "EXAMPLES"))
        {
            var code = new List<string>();
            var remarks = new List<string>();
            foreach (Block block in content)
            {
                if (block is CodeBlock c) code.Add(c.Text);
                else if (block is Paragraph p) remarks.Add(InlineText.Of(p));
                else throw new HelpSchemaException(file, block.Line, "an example holds code blocks and paragraphs only");
            }
            if (code.Count == 0) throw new HelpSchemaException(file, heading.Line, $"example '{heading.Text}' has no code block");
            yield return new ExampleHelp(heading.Text, code, remarks);
        }
    }

    private static IEnumerable<ParameterHelp> Parameters(string file, List<Block> body)
    {
        var names = new HashSet<string>(StringComparer.OrdinalIgnoreCase);
        foreach (var (heading, content) in Subsections(file, body, "PARAMETERS"))
        {
            // The common parameters are documented by PowerShell itself (about_CommonParameters).
            if (heading.Text is "CommonParameters" or "WorkflowCommonParameters") continue;
            if (!heading.Text.StartsWith('-') || heading.Text.Length < 2 || heading.Text.Contains(' '))
                throw new HelpSchemaException(file, heading.Line, $"parameter heading '### {heading.Text}' is not '### -<Name>'");
            string name = heading.Text[1..];
            if (!names.Add(name)) throw new HelpSchemaException(file, heading.Line, $"parameter -{name} is documented twice");
            var description = new List<string>();
            var metadata = new List<ParameterMetadata>();
            foreach (Block block in content)
            {
                if (block is Paragraph p && metadata.Count == 0) description.Add(InlineText.Of(p));
                else if (block is CodeBlock { Info: "yaml" } yaml) metadata.Add(ParameterYaml.Read(file, yaml));
                else throw new HelpSchemaException(file, block.Line, $"parameter -{name}: expected its description, then its ```yaml blocks");
            }
            if (metadata.Count == 0) throw new HelpSchemaException(file, heading.Line, $"parameter -{name} has no ```yaml block");
            if (description.Count == 0) throw new HelpSchemaException(file, heading.Line, $"parameter -{name} has no description");
            yield return new ParameterHelp(name, description, metadata);
        }
    }

    private static IEnumerable<TypeHelp> Types(string file, List<Block> body)
    {
        foreach (var (heading, content) in Subsections(file, body, "INPUTS/OUTPUTS"))
            yield return new TypeHelp(heading.Text, Texts(file, content, heading.Text));
    }

    private static IEnumerable<LinkHelp> Links(string file, List<Block> body)
    {
        foreach (Block block in body)
        {
            if (block is not Paragraph p || !InlineText.IsOnlyLinks(p))
                throw new HelpSchemaException(file, block.Line, "RELATED LINKS holds [text](uri) links only");
            foreach (var (text, uri) in InlineText.Links(p)) yield return new LinkHelp(text, uri);
        }
    }

    /// <summary>The "### " subsections of a section, each with its blocks; nothing may precede the first.</summary>
    private static IEnumerable<(Heading Heading, List<Block> Content)> Subsections(string file, List<Block> body, string section)
    {
        Heading? current = null;
        var content = new List<Block>();
        foreach (Block block in body)
        {
            if (block is Heading { Level: 3 } h)
            {
                if (current != null) yield return (current, content);
                current = h;
                content = new List<Block>();
            }
            else if (current == null || block is Heading)
                throw new HelpSchemaException(file, block.Line, $"{section} holds '### ' entries only");
            else content.Add(block);
        }
        if (current != null) yield return (current, content);
    }
}
