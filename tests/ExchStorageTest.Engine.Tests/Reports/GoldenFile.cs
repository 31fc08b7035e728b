using System.Runtime.CompilerServices;

namespace ExchStorageTest.Engine.Tests.Reports;

/// <summary>
/// Compares a rendering with its golden file under Reports/Golden in the source tree.
/// Set UPDATE_GOLDEN=1 to (re)write the golden files instead; review the diff before committing.
/// </summary>
internal static class GoldenFile
{
    /// <summary>The source-tree folder (so UPDATE_GOLDEN=1 edits the committed files); the copy next to the test assembly when the source path is not reachable (path-mapped CI builds).</summary>
    public static string Folder([CallerFilePath] string here = "")
    {
        string source = Path.Combine(Path.GetDirectoryName(here) ?? "", "Golden");
        return Directory.Exists(source) ? source : Path.Combine(AppContext.BaseDirectory, "Reports", "Golden");
    }

    public static void Check(string name, string actual)
    {
        string path = Path.Combine(Folder(), name);
        if (System.Environment.GetEnvironmentVariable("UPDATE_GOLDEN") == "1")
        {
            Directory.CreateDirectory(Folder());
            File.WriteAllText(path, actual);
            return;
        }
        Assert.True(File.Exists(path), $"Golden file {path} is missing; run the tests once with UPDATE_GOLDEN=1 and review it.");
        string expected = File.ReadAllText(path);
        if (expected == actual) return;
        // Point at the first difference: a whole-file Assert.Equal is unreadable for HTML.
        int i = 0;
        while (i < expected.Length && i < actual.Length && expected[i] == actual[i]) i++;
        int line = expected.Take(i).Count(c => c == '\n') + 1;
        string Around(string s) => s.Substring(Math.Max(0, i - 60), Math.Min(160, s.Length - Math.Max(0, i - 60)));
        Assert.Fail($"{name} differs from its golden file at line {line} (char {i}).\nexpected: ...{Around(expected)}...\nactual:   ...{Around(actual)}...\n(UPDATE_GOLDEN=1 regenerates.)");
    }
}
