using ExchStorageTest.Engine.Tests.Support;
using System.Text.RegularExpressions;

namespace ExchStorageTest.Engine.Tests.Contract;

/// <summary>
/// One catalogue of ErrorIds: the about topic and docs/protocol.md list exactly the contract's codes
/// (<see cref="ErrorCodes.All"/>), so a code added, renamed or removed in the contract fails here until both
/// documents say so, and a code listed in them that the contract lacks fails too. UPDATE_GOLDEN=1 rewrites the two
/// lists from the catalogue (review the diff before committing).
/// </summary>
public class ErrorCatalogueTests
{
    private static readonly Regex Heading = new("^[A-Z][A-Z0-9 ,'-]+$", RegexOptions.Multiline);

    [Fact]
    public void Every_code_is_defined_once_with_a_known_section_and_category()
    {
        var codes = ErrorCodes.All;
        Assert.Empty(codes.GroupBy(c => c.Code, StringComparer.OrdinalIgnoreCase).Where(g => g.Count() > 1).Select(g => g.Key));
        Assert.All(codes, c => Assert.Contains(c.Group, ErrorGroups.Order));
        var categories = typeof(ErrorCategories).GetFields().Select(f => (string)f.GetValue(null)!).ToHashSet();
        Assert.All(codes, c => Assert.Contains(c.Category, categories));
        Assert.All(codes, c => Assert.Matches("^[A-Z][A-Za-z]+$", c.Code));
    }

    [Fact]
    public void The_about_topic_lists_every_code_of_the_catalogue_and_no_other()
    {
        string path = Docs("about_ExchStorageTest.md");
        string text = File.ReadAllText(path).ReplaceLineEndings("\n");
        int start = text.IndexOf("\n" + ErrorCatalogueText.AboutHeading + "\n", StringComparison.Ordinal) + 1;
        Assert.True(start > 0, $"{path} has no {ErrorCatalogueText.AboutHeading} section.");
        Match next = Heading.Match(text, start + ErrorCatalogueText.AboutHeading.Length + 1);
        Assert.True(next.Success, $"{path}: no heading after {ErrorCatalogueText.AboutHeading}.");
        // The section ends with the blank line before the next heading.
        int end = next.Index - 1;
        Check(path, text, start, end, ErrorCatalogueText.About(), new Regex("^        ([A-Z][A-Za-z]+)", RegexOptions.Multiline));
    }

    [Fact]
    public void The_protocol_lists_every_code_the_engine_raises_and_no_other()
    {
        string path = Docs("protocol.md");
        string text = File.ReadAllText(path).ReplaceLineEndings("\n");
        int start = text.IndexOf(ErrorCatalogueText.ProtocolStart, StringComparison.Ordinal);
        int end = text.IndexOf(ErrorCatalogueText.ProtocolEnd, StringComparison.Ordinal);
        Assert.True(start >= 0 && end > start, $"{path} has no error-code list between its markers.");
        Check(path, text, start, end + ErrorCatalogueText.ProtocolEnd.Length, ErrorCatalogueText.Protocol(), new Regex("`([A-Z][A-Za-z]+)`"));
    }

    /// <summary>The documents' codes are exactly the catalogue's: named first, so a failure says which code is missing or extra.</summary>
    private static void Check(string path, string text, int start, int end, string expected, Regex codeNames)
    {
        string actual = text[start..end];
        if (Environment.GetEnvironmentVariable("UPDATE_GOLDEN") == "1" && actual != expected)
        {
            File.WriteAllText(path, text[..start] + expected + text[end..]);
            return;
        }
        var listed = codeNames.Matches(actual).Select(m => m.Groups[1].Value).ToHashSet(StringComparer.Ordinal);
        var wanted = codeNames.Matches(expected).Select(m => m.Groups[1].Value).ToHashSet(StringComparer.Ordinal);
        Assert.True(wanted.SetEquals(listed),
            $"{path}: missing {string.Join(", ", wanted.Except(listed))}; not in the catalogue {string.Join(", ", listed.Except(wanted))}. Run the engine tests with UPDATE_GOLDEN=1 and review the diff.");
        Assert.True(expected == actual, $"{path}: the list differs from the catalogue's wording or layout. Run the engine tests with UPDATE_GOLDEN=1 and review the diff.");
    }

    private static string Docs(string name) => RepoFiles.Path(Path.Combine("docs", name));
}
