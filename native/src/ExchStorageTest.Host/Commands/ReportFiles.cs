using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Host.Commands;

/// <summary>The reports every run writes next to its results file.</summary>
internal static class ReportFiles
{
    public static IReadOnlyList<string> WriteDefault(TestResults results)
    {
        if (results.SavedPath is null) return Array.Empty<string>();
        return Array.Empty<string>();
    }
}
