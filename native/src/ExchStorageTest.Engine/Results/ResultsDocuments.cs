using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Results;

/// <summary>
/// The one answer to "which results documents does this path stand for?": a file is itself; a folder stands for
/// every results document in its tree (a run folder per host, a suite folder per test, a share of runs), told
/// from other JSON there (profiles, run.json, start files, suite.json) by the schema name every results document
/// carries near its top. The report command, the validation (dsc) check and so every cmdlet use it.
/// </summary>
public static class ResultsDocuments
{
    // Only the head is read: results files are megabytes, and the schema is their first member.
    private const int HeadChars = 4096;

    /// <summary>A sub-folder this process may not read holds nothing it could render: it is skipped, not fatal.</summary>
    private static readonly EnumerationOptions EveryFolder = new() { RecurseSubdirectories = true, IgnoreInaccessible = true };

    /// <summary>True when <paramref name="file"/> is (by its head) an ExchStorageTest results document.</summary>
    public static bool IsResultsDocument(string file)
    {
        try
        {
            using var reader = new StreamReader(file);
            var head = new char[HeadChars];
            int read = reader.ReadBlock(head, 0, head.Length);
            return new string(head, 0, read).Contains(TestResults.SchemaName, StringComparison.Ordinal);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }

    /// <summary>Every results document in the tree under <paramref name="folder"/>, sorted.</summary>
    public static IEnumerable<string> In(string folder) =>
        Directory.EnumerateFiles(folder, "*.json", EveryFolder).Where(IsResultsDocument).OrderBy(f => f, StringComparer.Ordinal);

    /// <summary>
    /// The results files of <paramref name="paths"/>: files as given (Found = false), folders by their results
    /// documents (Found = true). Refused (ResultsNotFound) when a path is missing or a folder holds none.
    /// </summary>
    public static List<(string Path, bool Found)> Resolve(IReadOnlyList<string> paths)
    {
        if (paths.Count == 0) throw EngineException.Refused(ErrorCodes.PathsMissing, "At least one results file or folder is needed in 'paths'.");
        var files = new List<(string Path, bool Found)>();
        foreach (var p in paths)
        {
            if (!ProfileRules.IsAbsolute(p))
                throw EngineException.Refused(ErrorCodes.PathNotAbsolute, $"The path '{p}' is relative: give a full path.", p);
            string full = Path.GetFullPath(p);
            if (File.Exists(full)) files.Add((full, false));
            else if (Directory.Exists(full))
            {
                var found = In(full).ToList();
                if (found.Count == 0)
                    throw EngineException.Refused(ErrorCodes.ResultsNotFound, $"The folder '{p}' holds no ExchStorageTest results files (JSON with schema '{TestResults.SchemaName}').", p);
                files.AddRange(found.Select(f => (f, true)));
            }
            else throw EngineException.Refused(ErrorCodes.ResultsNotFound, $"The results file or folder '{p}' does not exist.", p);
        }
        // One file named twice (on Windows also in another case) is one run, not two hosts.
        return files.DistinctBy(f => f.Path, Planning.PathNames.Comparer).ToList();
    }

    /// <summary>
    /// Loads the results of <paramref name="paths"/>, before anything is written. A file named explicitly must
    /// load (else the request is refused); a file found in a folder that cannot be read is skipped with a warning
    /// naming it, so one damaged file does not hide the rest of the folder.
    /// </summary>
    public static List<TestResults> Load(IReadOnlyList<string> paths, EventWriter events)
    {
        var results = new List<TestResults>();
        try
        {
            foreach (var (file, found) in Resolve(paths))
            {
                try { results.Add(ResultsFile.Load(file)); }
                catch (EngineException ex) when (found)
                {
                    events.Log(EventFields.Log.Warning, $"Skipped '{file}': {ex.Code}: {ex.Message}");
                }
            }
            if (results.Count == 0)
                throw new EngineException(ErrorCodes.ResultsNotFound, $"No readable ExchStorageTest results file was found in: {string.Join(", ", paths)}.", paths[0]);
        }
        catch (EngineException ex)
        {
            throw ex.AsRefusal();
        }
        return results;
    }

    /// <summary>
    /// The newest results (by end of test) under <paramref name="folder"/> for a profile (by name) and, when given,
    /// a test type; null when there are none. Documents that do not load (foreign, newer) are not ours to judge.
    /// </summary>
    public static TestResults? Newest(string? folder, string profileName, TestType? testType)
    {
        if (string.IsNullOrWhiteSpace(folder) || !Directory.Exists(folder)) return null;
        TestResults? newest = null;
        foreach (string file in In(folder))
        {
            TestResults results;
            try
            {
                results = ResultsFile.Load(file);
            }
            catch (EngineException)
            {
                continue;
            }
            if (!string.Equals(results.Profile.Name, profileName, StringComparison.OrdinalIgnoreCase)) continue;
            if (testType is TestType wanted && results.TestType != wanted) continue;
            if (newest is null || results.Timeline.TestEndUtc > newest.Timeline.TestEndUtc) newest = results;
        }
        return newest;
    }
}
