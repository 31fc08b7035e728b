using System.Text.RegularExpressions;

namespace ExchStorageTest.PowerShell.Tests.Help;

/// <summary>
/// A docs/&lt;Command&gt;.md page read the plain way, line by line, to check what Get-Help shows against
/// what the page says. Deliberately not the help compiler's reader: a bug there must not be repeated
/// here, or the help and the page could agree with each other while both are wrong.
/// </summary>
public sealed partial class DocsPage
{
    private readonly Dictionary<string, List<string>> _sections = new(StringComparer.OrdinalIgnoreCase);

    private DocsPage(string path)
    {
        Path = path;
        string[] lines = File.ReadAllLines(path);
        List<string>? current = null;
        bool inFence = false;
        int start = 0;
        if (lines.Length > 0 && lines[0] == "---")
        {
            for (start = 1; start < lines.Length && lines[start] != "---"; start++)
            {
                int colon = lines[start].IndexOf(':');
                if (colon > 0) FrontMatter[lines[start][..colon].Trim()] = lines[start][(colon + 1)..].Trim();
            }
            start++;
        }
        for (int i = start; i < lines.Length; i++)
        {
            string line = lines[i];
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal)) inFence = !inFence;
            if (!inFence && line.StartsWith("## ", StringComparison.Ordinal))
            {
                _sections[line[3..].Trim()] = current = new List<string>();
                continue;
            }
            current?.Add(line);
        }
    }

    public string Path { get; }

    public Dictionary<string, string> FrontMatter { get; } = new(StringComparer.OrdinalIgnoreCase);

    public static string DocsFolder => System.IO.Path.Combine(PowerShellSession.RepoRoot, "docs");

    public static string PathOf(string command) => System.IO.Path.Combine(DocsFolder, command + ".md");

    public static DocsPage Load(string command) => new(PathOf(command));

    public string Synopsis => Prose(Section("SYNOPSIS"));

    public string Description => Prose(Section("DESCRIPTION"));

    /// <summary>"### -Name" entries of PARAMETERS: the prose before the first code fence, and every yaml block.</summary>
    public IReadOnlyList<DocsParameter> Parameters =>
        Entries(Section("PARAMETERS"))
            .Where(e => e.Title.StartsWith('-'))
            .Select(e => new DocsParameter(e.Title[1..], Prose(e.Lines.TakeWhile(l => !l.TrimStart().StartsWith("```", StringComparison.Ordinal))), YamlBlocks(e.Lines)))
            .ToList();

    /// <summary>"### Title" entries of EXAMPLES: the code of their fences and the prose outside them.</summary>
    public IReadOnlyList<DocsExample> Examples =>
        Entries(Section("EXAMPLES"))
            .Select(e => new DocsExample(e.Title, string.Join("\n\n", Fences(e.Lines).Select(f => string.Join("\n", f.Lines))), Prose(e.Lines)))
            .ToList();

    private List<string> Section(string name) =>
        _sections.TryGetValue(name, out var lines) ? lines : throw new InvalidOperationException($"{Path} has no '## {name}' section");

    private static IEnumerable<(string Title, List<string> Lines)> Entries(List<string> section)
    {
        string? title = null;
        var lines = new List<string>();
        bool inFence = false;
        foreach (string line in section)
        {
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal)) inFence = !inFence;
            if (!inFence && line.StartsWith("### ", StringComparison.Ordinal))
            {
                if (title != null) yield return (title, lines);
                title = line[4..].Trim();
                lines = new List<string>();
                continue;
            }
            lines.Add(line);
        }
        if (title != null) yield return (title, lines);
    }

    private static IEnumerable<(string Info, List<string> Lines)> Fences(IEnumerable<string> lines)
    {
        List<string>? fence = null;
        string info = "";
        foreach (string line in lines)
        {
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal))
            {
                if (fence == null) { fence = new List<string>(); info = line.Trim().Trim('`').Trim(); }
                else { yield return (info, fence); fence = null; }
                continue;
            }
            fence?.Add(line);
        }
    }

    private static List<Dictionary<string, string>> YamlBlocks(IEnumerable<string> lines) =>
        Fences(lines).Where(f => f.Info == "yaml")
            .Select(f => f.Lines.Where(l => l.Contains(':'))
                .ToDictionary(l => l[..l.IndexOf(':')].Trim(), l => l[(l.IndexOf(':') + 1)..].Trim(), StringComparer.OrdinalIgnoreCase))
            .ToList();

    /// <summary>The text outside code fences, links reduced to their text, whitespace collapsed.</summary>
    private static string Prose(IEnumerable<string> lines)
    {
        var prose = new List<string>();
        bool inFence = false;
        foreach (string line in lines)
        {
            if (line.TrimStart().StartsWith("```", StringComparison.Ordinal)) { inFence = !inFence; continue; }
            if (!inFence) prose.Add(line);
        }
        return Normalize(Link().Replace(string.Join(" ", prose), "$1"));
    }

    /// <summary>Whitespace runs as one space, trimmed: how both sides are compared.</summary>
    public static string Normalize(string? text) => Whitespace().Replace(text ?? "", " ").Trim();

    [GeneratedRegex(@"\[([^\]]*)\]\([^)]*\)")]
    private static partial Regex Link();

    [GeneratedRegex(@"\s+")]
    private static partial Regex Whitespace();
}

public sealed record DocsParameter(string Name, string Description, IReadOnlyList<Dictionary<string, string>> Yaml);

public sealed record DocsExample(string Title, string Code, string Remarks);
