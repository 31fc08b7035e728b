using System.Text;
using ExchStorageTest.HelpCompiler.Markdown;

namespace ExchStorageTest.HelpCompiler;

/// <summary>
/// An about page (docs/about_*.md) as the about_*.help.txt Get-Help prints: "TOPIC" and the topic
/// name from the "# about_Name" heading, "## " headings in capitals at the margin, paragraphs wrapped
/// at 80 columns and indented four spaces (platyPS's layout), and code blocks as preformatted text,
/// copied as written, so a page can keep a hand-laid-out help text in one block.
/// </summary>
public static class AboutTopicWriter
{
    private const int Width = 80;
    private const string Indent = "    ";

    public static bool IsAboutPage(string path) => Path.GetFileName(path).StartsWith("about_", StringComparison.OrdinalIgnoreCase);

    public static string FileName(string topic) => topic + ".help.txt";

    /// <summary>The topic name (the page's file name) and its text.</summary>
    public static (string Topic, string Text) Write(MarkdownDocument page)
    {
        string topic = Path.GetFileNameWithoutExtension(page.Path);
        var blocks = page.Blocks;
        if (blocks.Count == 0 || blocks[0] is not Heading { Level: 1 } title || !string.Equals(title.Text, topic, StringComparison.Ordinal))
            throw new HelpSchemaException(page.Path, blocks.Count == 0 ? 1 : blocks[0].Line, $"an about page starts with '# {topic}'");

        var text = new StringBuilder();
        text.Append("TOPIC\n").Append(Indent).Append(topic).Append("\n\n");
        foreach (Block block in blocks.Skip(1))
        {
            switch (block)
            {
                case Heading { Level: 1 } h:
                    throw new HelpSchemaException(page.Path, h.Line, "an about page has one '# ' heading");
                case Heading { Level: 2 } h:
                    text.Append(h.Text.ToUpperInvariant()).Append('\n');
                    break;
                case Heading h:
                    text.Append(Indent).Append(h.Text.ToUpperInvariant()).Append('\n');
                    break;
                case Paragraph p:
                    foreach (string line in Wrap(InlineText.Of(p), Width - Indent.Length)) text.Append(Indent).Append(line).Append('\n');
                    text.Append('\n');
                    break;
                case CodeBlock c:
                    text.Append(c.Text).Append("\n\n");
                    break;
            }
        }
        return (topic, text.ToString().TrimEnd('\n') + "\n");
    }

    private static IEnumerable<string> Wrap(string text, int width)
    {
        var line = new StringBuilder();
        foreach (string word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                yield return line.ToString();
                line.Clear();
            }
            if (line.Length > 0) line.Append(' ');
            line.Append(word);
        }
        if (line.Length > 0) yield return line.ToString();
    }
}
