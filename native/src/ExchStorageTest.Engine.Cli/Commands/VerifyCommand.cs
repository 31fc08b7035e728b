using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "verify": the standalone checksum pass over a database set (the eseutil /K equivalent) that
/// Test-DatabaseChecksum runs. Paths are .edb files (their Logs folder beside them is checked too)
/// or folders, searched for databases and log folders.
/// </summary>
internal sealed class VerifyCommand : IEngineCommand
{
    public string Name => EngineCommands.Verify;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Paths.Count == 0)
            throw EngineException.Refused(ErrorCodes.PathsMissing, "The verify command needs at least one database file or folder in 'paths'.");
        var (databases, logFolders) = Resolve(request.Paths);
        if (databases.Count == 0 && logFolders.Count == 0)
            throw EngineException.Refused(ErrorCodes.DatabaseMissing, $"No database files or log folders were found under: {string.Join(", ", request.Paths)}.", request.Paths[0]);
        ChecksumVerifier.RefuseForeign(databases, logFolders);
        return cancel =>
        {
            Write(events, ChecksumVerifier.Verify(databases, logFolders, events, cancel));
            return EngineExit.Ran;
        };
    }

    private static void Write(EventWriter events, ChecksumResult result)
    {
        events.Emit(EventTypes.Verify, w =>
        {
            w.WriteString(EventFields.Verify.Result, result.BadPages == 0 && result.BadLogs == 0 ? Verdicts.Pass : Verdicts.Fail);
            w.WriteNumber(EventFields.Verify.PagesChecked, result.PagesChecked);
            w.WriteNumber(EventFields.Verify.BadPages, result.BadPages);
            w.WriteNumber(EventFields.Verify.LogsChecked, result.LogsChecked);
            w.WriteNumber(EventFields.Verify.BadLogs, result.BadLogs);
            w.WriteNumber(EventFields.Verify.ElapsedSeconds, Math.Round(result.ElapsedSeconds, 3));
            w.WriteStartArray(EventFields.Verify.Files);
            foreach (var f in result.Files)
            {
                bool db = f.Kind == "Database";
                var problems = result.Problems.Where(p => p.StartsWith(f.Path, StringComparison.Ordinal)).ToList();
                w.WriteStartObject();
                w.WriteString(EventFields.Verify.File.Path, f.Path);
                w.WriteString(EventFields.Verify.File.Kind, f.Kind);
                if (db)
                {
                    w.WriteNumber(EventFields.Verify.PagesChecked, f.Checked);
                    w.WriteNumber(EventFields.Verify.BadPages, f.Bad);
                }
                else
                {
                    // One log generation per file; its blocks are what was checked inside it.
                    w.WriteNumber(EventFields.Verify.LogsChecked, 1);
                    w.WriteNumber(EventFields.Verify.BadLogs, f.Bad > 0 ? 1 : 0);
                    w.WriteNumber(EventFields.Verify.File.BlocksChecked, f.Checked);
                }
                w.WriteString(EventFields.Verify.Result, f.Bad == 0 ? Verdicts.Pass : Verdicts.Fail);
                w.WriteString(EventFields.Verify.File.Message, problems.Count == 0 ? "No errors." : string.Join(" ", problems.Take(5)) + (problems.Count > 5 ? $" (+{problems.Count - 5} more)" : ""));
                w.WriteEndObject();
            }
            w.WriteEndArray();
            w.WriteStartArray(EventFields.Verify.Problems);
            foreach (var p in result.Problems.Take(1000)) w.WriteStringValue(p);
            w.WriteEndArray();
        });
    }

    internal static (List<string> Databases, List<string> LogFolders) Resolve(IEnumerable<string> paths)
    {
        var dbs = new List<string>();
        var logs = new List<string>();
        foreach (var p in paths)
        {
            if (!ProfileRules.IsAbsolute(p))
                throw EngineException.Refused(ErrorCodes.PathNotAbsolute, $"The path '{p}' is relative: give a full path.", p);
            string full = Path.GetFullPath(p);
            if (File.Exists(full))
            {
                dbs.Add(full);
                string beside = Path.Combine(Path.GetDirectoryName(full)!, "Logs");
                if (Directory.Exists(beside)) logs.Add(beside);
            }
            else if (Directory.Exists(full))
            {
                // A sub-folder this process may not read holds nothing it could verify.
                var everywhere = new EnumerationOptions { RecurseSubdirectories = true, IgnoreInaccessible = true };
                dbs.AddRange(Directory.EnumerateFiles(full, "*.edb", everywhere).OrderBy(f => f, StringComparer.Ordinal));
                logs.AddRange(Directory.EnumerateDirectories(full, "*", everywhere).Prepend(full)
                    .Where(d => Directory.EnumerateFiles(d, "E00*.log", new EnumerationOptions { IgnoreInaccessible = true }).Any()).OrderBy(d => d, StringComparer.Ordinal));
            }
            else throw EngineException.Refused(ErrorCodes.PathNotFound, $"The file or folder '{p}' does not exist.", p);
        }
        return (dbs.Distinct().ToList(), logs.Distinct().ToList());
    }
}
