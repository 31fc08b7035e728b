namespace ExchStorageTest.HelpCompiler.Markdown;

/// <summary>One block of a markdown page; <see cref="Line"/> is 1-based, for error messages.</summary>
public abstract record Block(int Line);

public sealed record Heading(int Line, int Level, string Text) : Block(Line);

/// <summary>Consecutive non-blank lines, as written (inline markup is resolved by <see cref="InlineText"/>).</summary>
public sealed record Paragraph(int Line, IReadOnlyList<string> Lines) : Block(Line);

/// <summary>A fenced code block: the info string (e.g. "yaml", "powershell", or empty) and its lines joined by "\n".</summary>
public sealed record CodeBlock(int Line, string Info, string Text) : Block(Line);

/// <summary>
/// The block structure of a platyPS page: YAML front matter, ATX headings, paragraphs and fenced code
/// blocks. That is all the platyPS schema uses; anything else (lists, tables) stays paragraph text.
/// </summary>
public sealed class MarkdownDocument
{
    private MarkdownDocument(string path, IReadOnlyDictionary<string, string> frontMatter, IReadOnlyList<Block> blocks)
    {
        Path = path;
        FrontMatter = frontMatter;
        Blocks = blocks;
    }

    public string Path { get; }

    /// <summary>The "key: value" lines between the opening and closing "---" (keys case-insensitive).</summary>
    public IReadOnlyDictionary<string, string> FrontMatter { get; }

    public IReadOnlyList<Block> Blocks { get; }

    public static MarkdownDocument Load(string path) => Parse(path, File.ReadAllText(path));

    public static MarkdownDocument Parse(string path, string text)
    {
        string[] lines = text.TrimStart('\uFEFF').Replace("\r\n", "\n").Split('\n');
        int i = 0;
        var frontMatter = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase);
        if (lines.Length > 0 && lines[0].TrimEnd() == "---")
        {
            for (i = 1; i < lines.Length && lines[i].TrimEnd() != "---"; i++)
            {
                int colon = lines[i].IndexOf(':');
                if (colon <= 0)
                {
                    if (lines[i].Trim().Length == 0) continue;
                    throw new HelpSchemaException(path, i + 1, $"front matter line '{lines[i]}' is not 'key: value'");
                }
                frontMatter[lines[i][..colon].Trim()] = lines[i][(colon + 1)..].Trim();
            }
            if (i == lines.Length) throw new HelpSchemaException(path, 1, "the front matter has no closing '---'");
            i++;
        }

        var blocks = new List<Block>();
        var paragraph = new List<string>();
        int paragraphLine = 0;
        void EndParagraph()
        {
            if (paragraph.Count > 0) blocks.Add(new Paragraph(paragraphLine, paragraph.ToArray()));
            paragraph.Clear();
        }

        for (; i < lines.Length; i++)
        {
            string line = lines[i];
            string trimmed = line.TrimStart();
            if (trimmed.Length == 0)
            {
                EndParagraph();
                continue;
            }
            if (trimmed.StartsWith("```", StringComparison.Ordinal) || trimmed.StartsWith("~~~", StringComparison.Ordinal))
            {
                EndParagraph();
                int start = i;
                char fenceChar = trimmed[0];
                int fenceLength = trimmed.Length - trimmed.TrimStart(fenceChar).Length;
                string info = trimmed[fenceLength..].Trim();
                var code = new List<string>();
                for (i++; i < lines.Length && !IsClosingFence(lines[i], fenceChar, fenceLength); i++) code.Add(lines[i]);
                if (i == lines.Length) throw new HelpSchemaException(path, start + 1, "the code block has no closing fence");
                blocks.Add(new CodeBlock(start + 1, info, string.Join("\n", code)));
                continue;
            }
            int level = trimmed.Length - trimmed.TrimStart('#').Length;
            if (level is >= 1 and <= 6 && (trimmed.Length == level || trimmed[level] == ' '))
            {
                EndParagraph();
                blocks.Add(new Heading(i + 1, level, trimmed[level..].Trim().TrimEnd('#').Trim()));
                continue;
            }
            if (paragraph.Count == 0) paragraphLine = i + 1;
            paragraph.Add(line.Trim());
        }
        EndParagraph();
        return new MarkdownDocument(path, frontMatter, blocks);
    }

    private static bool IsClosingFence(string line, char fenceChar, int fenceLength)
    {
        string trimmed = line.Trim();
        return trimmed.Length >= fenceLength && trimmed.Trim(fenceChar).Length == 0;
    }
}
