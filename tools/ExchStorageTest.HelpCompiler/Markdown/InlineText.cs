using System.Text.RegularExpressions;

namespace ExchStorageTest.HelpCompiler.Markdown;

/// <summary>
/// A paragraph as help text: its lines joined into one line (the help viewer wraps to the console
/// width, so the page's line breaks mean nothing there) and links reduced to their text, as platyPS
/// does. Everything else stays as written: code spans, emphasis, and backslashes, which in these pages
/// are paths (\\server\share, C:\Logs), never markdown escapes.
/// </summary>
public static partial class InlineText
{
    public static string Of(Paragraph paragraph) =>
        Link().Replace(string.Join(" ", paragraph.Lines.Select(l => l.Trim()).Where(l => l.Length > 0)), m => m.Groups["text"].Value);

    /// <summary>The links of a paragraph (RELATED LINKS): [text](uri), in order.</summary>
    public static IEnumerable<(string Text, string Uri)> Links(Paragraph paragraph) =>
        Link().Matches(string.Join(" ", paragraph.Lines)).Select(m => (m.Groups["text"].Value, m.Groups["uri"].Value));

    /// <summary>True when the paragraph is nothing but links (RELATED LINKS accepts nothing else).</summary>
    public static bool IsOnlyLinks(Paragraph paragraph) =>
        Link().Replace(string.Join(" ", paragraph.Lines), "").Trim().Length == 0;

    [GeneratedRegex(@"(?<!!)\[(?<text>[^\]]*)\]\((?<uri>[^)\s]*)\)")]
    private static partial Regex Link();
}
