using System.Collections;
using System.Management.Automation;

namespace ExchStorageTest.PowerShell.Tests.Help;

/// <summary>
/// Help as a user sees it: Get-Help on every command the module exports (whatever Get-Command returns,
/// so a command ported later is covered on arrival) shows what docs/&lt;Command&gt;.md says, and every
/// parameter the command has is documented there.
/// </summary>
public class HelpTests : IClassFixture<SessionFixture>
{
    private const string HelpFile = "ExchStorageTest.dll-Help.xml";

    private readonly PowerShellSession _ps;

    public HelpTests(SessionFixture fixture) => _ps = fixture.Session;

    private List<CmdletInfo> Commands()
    {
        var commands = _ps.Run("Get-Command -Module ExchStorageTest").Output.Select(o => (CmdletInfo)o.BaseObject).ToList();
        Assert.NotEmpty(commands);
        return commands;
    }

    /// <summary>The parameters a page must document: all but the common ones (-Verbose ...), which PowerShell documents.</summary>
    private static IEnumerable<ParameterMetadata> DocumentedParameters(CmdletInfo command) =>
        command.Parameters.Values.Where(p => !Cmdlet.CommonParameters.Contains(p.Name));

    [Fact]
    public void Every_command_has_a_docs_page_documenting_exactly_its_parameters()
    {
        var problems = new List<string>();
        foreach (CmdletInfo command in Commands())
        {
            if (!File.Exists(DocsPage.PathOf(command.Name)))
            {
                problems.Add($"{command.Name}: docs/{command.Name}.md is missing");
                continue;
            }
            var documented = DocsPage.Load(command.Name).Parameters.Select(p => p.Name).ToList();
            var actual = DocumentedParameters(command).Select(p => p.Name).ToList();
            problems.AddRange(actual.Except(documented, StringComparer.Ordinal).Select(p => $"{command.Name}: -{p} has no '### -{p}' in docs/{command.Name}.md"));
            problems.AddRange(documented.Except(actual, StringComparer.Ordinal).Select(p => $"{command.Name}: docs/{command.Name}.md documents -{p}, which the command does not have"));
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    /// <summary>
    /// Each parameter's yaml block states its type, aliases, sets, whether it is mandatory in each,
    /// position and pipeline binding as the command declares them: Get-Help's syntax and parameter
    /// details are built from these blocks, so a wrong block is wrong help.
    /// </summary>
    [Fact]
    public void Docs_parameter_metadata_matches_the_command()
    {
        var problems = new List<string>();
        foreach (CmdletInfo command in Commands())
        {
            if (!File.Exists(DocsPage.PathOf(command.Name))) continue; // the test above names it
            var docs = DocsPage.Load(command.Name).Parameters.ToDictionary(p => p.Name, StringComparer.Ordinal);
            foreach (ParameterMetadata parameter in DocumentedParameters(command))
            {
                if (!docs.TryGetValue(parameter.Name, out DocsParameter? doc)) continue;
                string where = $"{command.Name} -{parameter.Name}";
                if (doc.Yaml.Count == 0) { problems.Add($"{where}: no yaml block"); continue; }
                foreach (var yaml in doc.Yaml)
                {
                    if (yaml.GetValueOrDefault("Type") != parameter.ParameterType.Name)
                        problems.Add($"{where}: Type is '{yaml.GetValueOrDefault("Type")}', the command's is '{parameter.ParameterType.Name}'");
                    var aliases = List(yaml.GetValueOrDefault("Aliases"));
                    if (!aliases.OrderBy(a => a).SequenceEqual(parameter.Aliases.OrderBy(a => a)))
                        problems.Add($"{where}: Aliases are '{string.Join(", ", aliases)}', the command's are '{string.Join(", ", parameter.Aliases)}'");
                }
                foreach (var (set, metadata) in parameter.ParameterSets)
                {
                    string setName = set == ParameterAttribute.AllParameterSets ? "(All)" : set;
                    var yaml = doc.Yaml.FirstOrDefault(y => List(y.GetValueOrDefault("Parameter Sets")).Contains(setName))
                        ?? doc.Yaml.FirstOrDefault(y => List(y.GetValueOrDefault("Parameter Sets")).SequenceEqual(new[] { "(All)" }));
                    if (yaml == null) { problems.Add($"{where}: set {setName} is in no yaml block's 'Parameter Sets'"); continue; }
                    string required = metadata.IsMandatory ? "True" : "False";
                    if (!string.Equals(yaml.GetValueOrDefault("Required"), required, StringComparison.OrdinalIgnoreCase))
                        problems.Add($"{where}: Required is '{yaml.GetValueOrDefault("Required")}' for set {setName}, the command says {required}");
                    string position = metadata.Position == int.MinValue ? "Named" : metadata.Position.ToString();
                    if (!string.Equals(yaml.GetValueOrDefault("Position"), position, StringComparison.OrdinalIgnoreCase))
                        problems.Add($"{where}: Position is '{yaml.GetValueOrDefault("Position")}' for set {setName}, the command says {position}");
                    string pipeline = yaml.GetValueOrDefault("Accept pipeline input") ?? "";
                    if (pipeline.Contains("ByValue") != metadata.ValueFromPipeline || pipeline.Contains("ByPropertyName") != metadata.ValueFromPipelineByPropertyName)
                        problems.Add($"{where}: 'Accept pipeline input: {pipeline}' for set {setName}, the command says ByValue={metadata.ValueFromPipeline}, ByPropertyName={metadata.ValueFromPipelineByPropertyName}");
                }
                var documentedSets = doc.Yaml.SelectMany(y => List(y.GetValueOrDefault("Parameter Sets"))).Where(s => s != "(All)");
                foreach (string extra in documentedSets.Where(s => !parameter.ParameterSets.ContainsKey(s)))
                    problems.Add($"{where}: docs list set {extra}, which the parameter is not in");
            }
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public void Get_Help_Full_shows_the_docs_synopsis_description_parameters_and_examples()
    {
        var problems = new List<string>();
        foreach (CmdletInfo command in Commands())
        {
            if (!File.Exists(DocsPage.PathOf(command.Name))) { problems.Add($"{command.Name}: no docs page"); continue; }
            DocsPage docs = DocsPage.Load(command.Name);
            Hashtable help = GetHelp(command.Name);

            // Help generated from the command's metadata (no MAML found) has the syntax as its synopsis.
            if (!((object[])help["TypeNames"]!).Contains("MamlCommandHelpInfo"))
                problems.Add($"{command.Name}: Get-Help did not come from the MAML file ({string.Join(", ", (object[])help["TypeNames"]!)})");
            Compare(problems, $"{command.Name} synopsis", docs.Synopsis, (string)help["Synopsis"]!);
            Compare(problems, $"{command.Name} description", docs.Description, (string)help["Description"]!);

            var helpParameters = Tables(help["Parameters"])
                .ToDictionary(p => (string)p["Name"]!, p => (string)p["Description"]!, StringComparer.OrdinalIgnoreCase);
            var docsParameters = docs.Parameters.ToDictionary(p => p.Name, p => p.Description, StringComparer.OrdinalIgnoreCase);
            foreach (ParameterMetadata parameter in DocumentedParameters(command))
            {
                if (!helpParameters.TryGetValue(parameter.Name, out string? shown)) { problems.Add($"{command.Name}: Get-Help -Full does not show -{parameter.Name}"); continue; }
                if (string.IsNullOrWhiteSpace(shown)) problems.Add($"{command.Name}: Get-Help -Full shows -{parameter.Name} without a description");
                if (docsParameters.TryGetValue(parameter.Name, out string? written)) Compare(problems, $"{command.Name} -{parameter.Name}", written, shown);
            }

            var helpExamples = Tables(help["Examples"]).ToList();
            if (docs.Examples.Count == 0) problems.Add($"{command.Name}: docs/{command.Name}.md has no example");
            if (helpExamples.Count != docs.Examples.Count)
                problems.Add($"{command.Name}: Get-Help shows {helpExamples.Count} examples, the page has {docs.Examples.Count}");
            foreach (var (written, shown) in docs.Examples.Zip(helpExamples))
            {
                Compare(problems, $"{command.Name} example title", written.Title, ((string)shown["Title"]!).Trim('-', ' '));
                string shownCode = ((string)shown["Code"]!).Replace("\r\n", "\n").Trim();
                if (shownCode != written.Code.Trim()) problems.Add($"{command.Name} '{written.Title}' code:\n  page: {written.Code.Trim()}\n  help: {shownCode}");
                Compare(problems, $"{command.Name} '{written.Title}' remarks", written.Remarks, (string)shown["Remarks"]!);
            }
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    /// <summary>The syntax Get-Help prints is the command's: one entry per parameter set, with that set's parameters.</summary>
    [Fact]
    public void Get_Help_syntax_lists_the_commands_parameter_sets()
    {
        var problems = new List<string>();
        foreach (CmdletInfo command in Commands())
        {
            var shown = ((object[])GetHelp(command.Name)["Syntax"]!).Select(s => Sorted(((string)s).Split(' ', StringSplitOptions.RemoveEmptyEntries))).ToList();
            var actual = command.ParameterSets.Select(s => Sorted(s.Parameters.Select(p => p.Name).Where(n => !Cmdlet.CommonParameters.Contains(n)))).ToList();
            foreach (string set in actual.Where(a => !shown.Contains(a))) problems.Add($"{command.Name}: Get-Help shows no syntax for the set [{set}]");
            foreach (string set in shown.Where(s => !actual.Contains(s))) problems.Add($"{command.Name}: Get-Help shows a syntax [{set}] that is no parameter set of the command");
        }
        Assert.True(problems.Count == 0, string.Join("\n", problems));
    }

    [Fact]
    public void Get_Help_about_ExchStorageTest_shows_the_docs_about_page()
    {
        var result = _ps.Run("Get-Help -Name about_ExchStorageTest");
        Assert.Null(result.Error);
        string shown = Assert.IsType<string>(Assert.Single(result.Output).BaseObject);
        Assert.StartsWith("TOPIC", shown.TrimStart('\uFEFF'));

        // The page: its heading is the topic, "## " headings print in capitals, fences only frame text.
        var lines = File.ReadAllLines(Path.Combine(DocsPage.DocsFolder, "about_ExchStorageTest.md"));
        int body = Array.IndexOf(lines, "# about_ExchStorageTest");
        Assert.True(body > 0, "docs/about_ExchStorageTest.md has no '# about_ExchStorageTest' heading");
        var expected = lines.Skip(body + 1).Where(l => !l.TrimStart().StartsWith("```", StringComparison.Ordinal))
            .Select(l => l.StartsWith("## ", StringComparison.Ordinal) ? l[3..].ToUpperInvariant() : l);
        Assert.Equal(DocsPage.Normalize("TOPIC about_ExchStorageTest " + string.Join(" ", expected)), DocsPage.Normalize(shown.TrimStart('\uFEFF')));
    }

    /// <summary>
    /// Windows PowerShell 5.1 looks for a module cmdlet's help file only under the module base (the
    /// repository root, the manifest's folder) and its culture folders; PowerShell 7 also looks beside
    /// the DLL. About topics are found only under the module base. So both files are in &lt;root&gt;/en-US,
    /// and this engine must have read the MAML from there (CmdletInfo.HelpFile becomes the path it loaded).
    /// </summary>
    [Fact]
    public void Help_files_are_where_both_PowerShell_editions_look()
    {
        string moduleBase = (string)_ps.Run("(Get-Module ExchStorageTest).ModuleBase").Single().BaseObject;
        Assert.Equal(Path.GetFullPath(PowerShellSession.RepoRoot).TrimEnd('/', '\\'), Path.GetFullPath(moduleBase).TrimEnd('/', '\\'));
        string expected = Path.Combine(moduleBase, "en-US", HelpFile);
        Assert.True(File.Exists(expected), $"{HelpFile} is not in {moduleBase}/en-US");
        Assert.True(File.Exists(Path.Combine(moduleBase, "en-US", "about_ExchStorageTest.help.txt")), $"about_ExchStorageTest.help.txt is not in {moduleBase}/en-US");
        foreach (CmdletInfo command in Commands())
        {
            Assert.Equal(HelpFile, DocsPage.Load(command.Name).FrontMatter.GetValueOrDefault("external help file"));
            Assert.Equal(HelpFile, Path.GetFileName(command.HelpFile));
        }
        // The engine loads a help file once per session and writes the path it loaded into the
        // HelpFile of the command that caused the load; the others keep the bare name.
        var loaded = _ps.Run("Get-Command -Module ExchStorageTest | ForEach-Object { $null = Get-Help -Name $_.Name; (Get-Command -Name $_.Name).HelpFile }")
            .Output.Select(o => (string)o.BaseObject).Where(Path.IsPathRooted).Distinct().ToList();
        Assert.Equal(new[] { Path.GetFullPath(expected) }, loaded.Select(Path.GetFullPath));
    }

    /// <summary>What Get-Help -Full returns, flattened in the session to texts (help objects are property bags).</summary>
    private Hashtable GetHelp(string command)
    {
        const string script = """
            $h = Get-Help -Name $args[0] -Full
            $texts = { param($items) (@($items) | Where-Object { $null -ne $_ } | ForEach-Object { $_.Text }) -join "`n" }
            @{
                TypeNames   = @($h.PSObject.TypeNames)
                Synopsis    = [string]$h.Synopsis
                Description = & $texts $h.description
                Parameters  = @($h.parameters.parameter | ForEach-Object { @{ Name = [string]$_.name; Description = & $texts $_.description } })
                Examples    = @($h.examples.example | ForEach-Object { @{ Title = [string]$_.title; Code = [string]$_.code; Remarks = & $texts $_.remarks } })
                Syntax      = @($h.syntax.syntaxItem | ForEach-Object { @($_.parameter | ForEach-Object { [string]$_.name }) -join ' ' })
            }
            """;
        var result = _ps.Run(script, command);
        Assert.Null(result.Error);
        return (Hashtable)result.Single().BaseObject;
    }

    private static void Compare(List<string> problems, string what, string written, string shown)
    {
        if (DocsPage.Normalize(written) != DocsPage.Normalize(shown))
            problems.Add($"{what}:\n  page: {DocsPage.Normalize(written)}\n  help: {DocsPage.Normalize(shown)}");
    }

    /// <summary>The hashtables of an array a script returned (PowerShell may or may not wrap each in a PSObject).</summary>
    private static IEnumerable<Hashtable> Tables(object? array) =>
        ((object[])array!).Select(o => (Hashtable)(o is PSObject p ? p.BaseObject : o));

    private static List<string> List(string? value) =>
        (value ?? "").Split(',').Select(s => s.Trim()).Where(s => s.Length > 0).ToList();

    private static string Sorted(IEnumerable<string> names) => string.Join(" ", names.OrderBy(n => n, StringComparer.OrdinalIgnoreCase));
}
