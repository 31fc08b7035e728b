using System.Xml.Linq;
using ExchStorageTest.HelpCompiler;

namespace ExchStorageTest.HelpCompiler.Tests;

/// <summary>
/// The help compiler on pages written for each rule: MAML shaped as platyPS writes it (one syntax item
/// per parameter set, per-set mandatory flags, switches without a value in the syntax), and a page
/// outside the schema failing with its file and line before any help file is written.
/// </summary>
public class HelpCompilerTests
{
    private static readonly XNamespace Maml = "http://schemas.microsoft.com/maml/2004/10";
    private static readonly XNamespace Command = "http://schemas.microsoft.com/maml/dev/command/2004/10";
    private static readonly XNamespace Dev = "http://schemas.microsoft.com/maml/dev/2004/10";

    private const string Page = """
        ---
        external help file: Sample.dll-Help.xml
        Module Name: Sample
        online version:
        schema: 2.0.0
        ---

        # Get-Sample

        ## SYNOPSIS
        Gets a sample.

        ## SYNTAX

        ### Explicit
        ```
        Get-Sample -Path <String> [-Kind <String>] [-Force]
        ```

        ## DESCRIPTION
        First paragraph,
        on two lines.

        Second paragraph with a [link](https://example.invalid/x) in it.

        ## EXAMPLES

        ### Example 1
        ```powershell
        Get-Sample -Path C:\Data
        ```

        Reads C:\Data and \\server\share as written.

        ## PARAMETERS

        ### -Path
        Where the sample is.

        ```yaml
        Type: String
        Parameter Sets: Explicit
        Aliases: FullName

        Required: True
        Position: 0
        Default value: None
        Accept pipeline input: True (ByPropertyName)
        Accept wildcard characters: False
        ```

        ```yaml
        Type: String
        Parameter Sets: Import
        Aliases: FullName

        Required: False
        Position: Named
        Default value: None
        Accept pipeline input: False
        Accept wildcard characters: False
        ```

        ### -File
        The file to import.

        ```yaml
        Type: String
        Parameter Sets: Import
        Aliases:

        Required: True
        Position: Named
        Default value: None
        Accept pipeline input: False
        Accept wildcard characters: False
        ```

        ### -Kind
        The kind.

        ```yaml
        Type: String
        Parameter Sets: (All)
        Aliases:
        Accepted values: Small, Large

        Required: False
        Position: Named
        Default value: Small
        Accept pipeline input: False
        Accept wildcard characters: False
        ```

        ### -Force
        Overwrites.

        ```yaml
        Type: SwitchParameter
        Parameter Sets: (All)
        Aliases:

        Required: False
        Position: Named
        Default value: None
        Accept pipeline input: False
        Accept wildcard characters: False
        ```

        ### CommonParameters
        This cmdlet supports the common parameters.

        ## INPUTS

        ### System.String

        ## OUTPUTS

        ### Sample.Result
        The sample.

        ## NOTES
        A note.

        ## RELATED LINKS

        [about_Sample](about_Sample.md)

        [Online](https://example.invalid/sample)
        """;

    private static (DocsFolder Docs, string Output) Compile(params (string Name, string Text)[] pages)
    {
        var docs = new DocsFolder();
        foreach (var (name, text) in pages) File.WriteAllText(docs.Combine(name), text);
        string output = docs.Combine("out");
        HelpBuild.Compile(docs.Path, output);
        return (docs, output);
    }

    [Fact]
    public void A_command_page_becomes_platyPS_shaped_MAML()
    {
        var (docs, output) = Compile(("Get-Sample.md", Page), ("protocol.md", "# Not help\n\nText.\n"));
        using var _ = docs;
        Assert.Equal(new[] { "Sample.dll-Help.xml" }, Directory.GetFiles(output).Select(Path.GetFileName));
        XElement command = Assert.Single(XDocument.Load(Path.Combine(output, "Sample.dll-Help.xml")).Root!.Elements(Command + "command"));

        XElement details = command.Element(Command + "details")!;
        Assert.Equal(new[] { "Get-Sample", "Get", "Sample" }, new[] { "name", "verb", "noun" }.Select(n => details.Element(Command + n)!.Value));
        Assert.Equal("Gets a sample.", details.Element(Maml + "description")!.Element(Maml + "para")!.Value);
        Assert.Equal(new[] { "First paragraph, on two lines.", "Second paragraph with a link in it." },
            command.Element(Maml + "description")!.Elements(Maml + "para").Select(p => p.Value));

        // One syntax item per set, in order of appearance; (All) parameters join every set.
        var items = command.Element(Command + "syntax")!.Elements(Command + "syntaxItem").ToList();
        Assert.Equal(2, items.Count);
        XElement Param(XElement item, string name) => item.Elements(Command + "parameter").Single(p => p.Element(Maml + "name")!.Value == name);
        Assert.Equal(new[] { "Path", "Kind", "Force" }, items[0].Elements(Command + "parameter").Select(p => p.Element(Maml + "name")!.Value));
        Assert.Equal(new[] { "Path", "File", "Kind", "Force" }, items[1].Elements(Command + "parameter").Select(p => p.Element(Maml + "name")!.Value));
        Assert.Equal("true", (string?)Param(items[0], "Path").Attribute("required"));
        Assert.Equal("0", (string?)Param(items[0], "Path").Attribute("position"));
        Assert.Equal("True (ByPropertyName)", (string?)Param(items[0], "Path").Attribute("pipelineInput"));
        Assert.Equal("false", (string?)Param(items[1], "Path").Attribute("required"));
        Assert.Equal("named", (string?)Param(items[1], "Path").Attribute("position"));
        Assert.Equal("FullName", (string?)Param(items[1], "Path").Attribute("aliases"));
        Assert.Equal("none", (string?)Param(items[1], "File").Attribute("aliases"));
        Assert.Equal(new[] { "Small", "Large" }, Param(items[0], "Kind").Element(Command + "parameterValueGroup")!.Elements().Select(v => v.Value));
        Assert.Null(Param(items[0], "Force").Element(Command + "parameterValue"));

        // The parameters section: the first yaml block of each, switches with their value type, defaults.
        var parameters = command.Element(Command + "parameters")!.Elements(Command + "parameter").ToList();
        Assert.Equal(new[] { "Path", "File", "Kind", "Force" }, parameters.Select(p => p.Element(Maml + "name")!.Value));
        Assert.Equal("true", (string?)parameters[0].Attribute("required"));
        Assert.Equal("Where the sample is.", parameters[0].Element(Maml + "description")!.Value);
        Assert.Equal("SwitchParameter", parameters[3].Element(Command + "parameterValue")!.Value);
        Assert.Equal("false", (string?)parameters[3].Element(Command + "parameterValue")!.Attribute("required"));
        Assert.Equal("False", parameters[3].Element(Dev + "defaultValue")!.Value);
        Assert.Equal("Small", parameters[2].Element(Dev + "defaultValue")!.Value);

        XElement example = command.Element(Command + "examples")!.Elements(Command + "example").Single();
        Assert.Equal("-------------------------- Example 1 --------------------------", example.Element(Maml + "title")!.Value);
        Assert.Equal(@"Get-Sample -Path C:\Data", example.Element(Dev + "code")!.Value);
        Assert.Equal(@"Reads C:\Data and \\server\share as written.", example.Element(Dev + "remarks")!.Value);

        Assert.Equal("System.String", command.Element(Command + "inputTypes")!.Descendants(Maml + "name").Single().Value);
        Assert.Equal("The sample.", command.Element(Command + "returnValues")!.Element(Command + "returnValue")!.Element(Maml + "description")!.Value);
        Assert.Equal("A note.", command.Element(Maml + "alertSet")!.Value);
        // The command's online page first (the address its HelpUri gives, ExchStorageTest.Commands.HelpLinks), as platyPS
        // writes "Online Version:"; then the page's links: a page-relative one keeps its text, only an absolute URI is a
        // maml:uri (Get-Help -Online needs one).
        var links = command.Element(Command + "relatedLinks")!.Elements(Maml + "navigationLink")
            .Select(l => (l.Element(Maml + "linkText")!.Value, l.Element(Maml + "uri")!.Value)).ToList();
        Assert.Equal(new[] { ("Online Version:", "https://example.invalid/ExchStorageTest/docs/Get-Sample.md"), ("about_Sample", ""), ("Online", "https://example.invalid/sample") }, links);
    }

    [Theory]
    [InlineData("## SYNOPSIS\nGets a sample.", "## USAGE\nText.", 0, "unknown section 'USAGE'")]
    [InlineData("Type: String\n", "Type: String\nMandatory: True\n", 1, "'Mandatory: True' is not a platyPS parameter key")]
    [InlineData("Required: True\nPosition: 0", "Required: Yes\nPosition: 0", 0, "'Required: Yes' must be True or False")]
    [InlineData("Accept pipeline input: True (ByPropertyName)", "Accept pipeline input: Sometimes", 0, "'Accept pipeline input: Sometimes'")]
    [InlineData("# Get-Sample", "# Get-Other", 0, "the page is about 'Get-Other' but its file is named 'Get-Sample.md'")]
    [InlineData("schema: 2.0.0", "schema: 3.0.0", -4, "front matter 'schema' is '3.0.0', expected '2.0.0'")]
    [InlineData("## SYNOPSIS\nGets a sample.", "## SYNOPSIS", 0, "SYNOPSIS is empty")]
    [InlineData("### -File\nThe file to import.\n\n```yaml", "### -File\nThe file to import.\n\n```text", 3, "parameter -File: expected its description, then its ```yaml blocks")]
    [InlineData("### Example 1\n```powershell\nGet-Sample -Path C:\\Data\n```", "### Example 1\nNo code.", 0, "example 'Example 1' has no code block")]
    public void A_page_outside_the_schema_fails_with_its_file_and_line_and_nothing_is_written(string find, string replace, int lineOffset, string problem)
    {
        string page = Page.Replace("\r\n", "\n");
        Assert.Contains(find, page);
        string broken = page.Replace(find, replace);
        using var docs = new DocsFolder();
        File.WriteAllText(docs.Combine("Get-Sample.md"), broken);
        File.WriteAllText(docs.Combine("about_Sample.md"), "# about_Sample\n\nText.\n");

        var error = Assert.Throws<HelpSchemaException>(() => HelpBuild.Compile(docs.Path, docs.Combine("out")));
        Assert.Contains(problem, error.Message);
        Assert.Equal(docs.Combine("Get-Sample.md"), error.PagePath);
        // The line of the replaced text's first line, plus the offset to the line the problem is on
        // (front matter problems are reported on the page's first line).
        int expectedLine = broken[..broken.IndexOf(replace, StringComparison.Ordinal)].Count(c => c == '\n') + 1 + lineOffset;
        Assert.Equal(expectedLine, error.PageLine);
        Assert.Equal(new[] { "Get-Sample.md", "about_Sample.md" }, docs.Entries());
    }

    [Fact]
    public void An_about_page_becomes_help_text_with_the_topic_header_capital_headings_and_wrapped_paragraphs()
    {
        string words = string.Join(" ", Enumerable.Repeat("storage", 20));
        var (docs, output) = Compile(("about_Sample.md", $"---\nschema: 2.0.0\n---\n\n# about_Sample\n\n## Short description\n{words}\n\n```\n    kept   as written\n```\n"));
        using var _ = docs;
        string text = File.ReadAllText(Path.Combine(output, "about_Sample.help.txt"));
        Assert.Equal(
            "TOPIC\n    about_Sample\n\nSHORT DESCRIPTION\n"
            + "    " + string.Join(" ", Enumerable.Repeat("storage", 9)) + "\n"
            + "    " + string.Join(" ", Enumerable.Repeat("storage", 9)) + "\n"
            + "    storage storage\n\n"
            + "    kept   as written\n",
            text);
    }
}
