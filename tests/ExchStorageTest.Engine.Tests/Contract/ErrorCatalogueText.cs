using System.Text;

namespace ExchStorageTest.Engine.Tests.Contract;

/// <summary>
/// The catalogue of ErrorIds (<see cref="ErrorCodes.All"/>) as the two documents list it: the about topic's
/// ERRORID CATALOGUE section (every code, by section, with its category and meaning) and docs/protocol.md's
/// "Error codes" list (every code the engine raises). <see cref="ErrorCatalogueTests"/> holds the documents to it.
/// </summary>
internal static class ErrorCatalogueText
{
    public const string AboutHeading = "ERRORID CATALOGUE";
    public const string ProtocolStart = "<!-- error codes: the contract's catalogue (ErrorCodes); ErrorCatalogueTests holds this list to it, UPDATE_GOLDEN=1 rewrites it -->";
    public const string ProtocolEnd = "<!-- end of error codes -->";

    private const int AboutWidth = 96;
    private const int AboutMeaningColumn = 44;
    private const int ProtocolWidth = 100;

    /// <summary>The about topic's section, from its heading to the blank line before the next heading.</summary>
    public static string About()
    {
        var text = new StringBuilder();
        text.Append(AboutHeading).Append('\n');
        foreach (string line in Wrap("Every ErrorId starts with \"ExchStorageTest.\"; the FullyQualifiedErrorId adds \",<command>\". "
            + "The engine's codes are the ErrorIds: the same bad value gets the same ErrorId through a cmdlet and through an engine "
            + "request. A code's category follows it when it is not InvalidArgument. Match on ErrorIds, not on message text.", AboutWidth - 4))
            text.Append("    ").Append(line).Append('\n');
        foreach (var group in ErrorCodes.All.GroupBy(c => c.Group))
        {
            text.Append('\n').Append("    ").Append(group.Key).Append(":\n");
            foreach (ErrorCode code in group)
            {
                string left = "        " + code.Code + (code.Category == ErrorCategories.InvalidArgument ? "" : $" ({code.Category})");
                var meaning = Wrap(code.Meaning, AboutWidth - AboutMeaningColumn);
                if (left.Length + 1 > AboutMeaningColumn) text.Append(left).Append('\n');
                else meaning[0] = left.PadRight(AboutMeaningColumn) + meaning[0];
                for (int i = 0; i < meaning.Count; i++)
                    text.Append(i == 0 && left.Length + 1 <= AboutMeaningColumn ? meaning[i] : new string(' ', AboutMeaningColumn) + meaning[i]).Append('\n');
            }
        }
        return text.ToString();
    }

    /// <summary>docs/protocol.md's list, between its two markers (markers included).</summary>
    public static string Protocol()
    {
        var text = new StringBuilder();
        text.Append(ProtocolStart).Append('\n');
        foreach (var group in ErrorCodes.All.Where(c => c.RaisedBy.HasFlag(RaisedBy.Engine)).GroupBy(c => c.Group))
        {
            string line = group.Key + ": " + string.Join(", ", group.Select(c => $"`{c.Code}`")) + ".";
            foreach (string wrapped in Wrap(line, ProtocolWidth)) text.Append(wrapped).Append('\n');
            text.Append('\n');
        }
        text.Append(ProtocolEnd);
        return text.ToString();
    }

    private static List<string> Wrap(string text, int width)
    {
        var lines = new List<string>();
        var line = new StringBuilder();
        foreach (string word in text.Split(' ', StringSplitOptions.RemoveEmptyEntries))
        {
            if (line.Length > 0 && line.Length + 1 + word.Length > width)
            {
                lines.Add(line.ToString());
                line.Clear();
            }
            if (line.Length > 0) line.Append(' ');
            line.Append(word);
        }
        lines.Add(line.ToString());
        return lines;
    }
}
