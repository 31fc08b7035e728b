using System.Globalization;
using System.Text;
using ExchStorageTest.Engine.Calculator;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Jetstress;

/// <summary>
/// JetstressCmd /g /calculator &lt;workbook&gt; [/servers Servers.csv]: the sizing calculator's design as Jetstress
/// configurations (docs/calculator.md), read by the same import as New-MailboxProfile -CalculatorPath. Each server of the
/// Servers.csv gets &lt;server&gt;/JetstressConfig.xml — the name Jetstress automation runs with /c — with the
/// calculator's mailboxes, IOPS per mailbox (its I/O overhead included), mailbox size and copies, and one instance a
/// database at the server's own mount point; without a Servers.csv one JetstressConfig.xml in the current folder,
/// its instances in DB1..DBn there (or /dbpath's). The other switches go into every file as plain /g puts them. Every
/// file is checked before the first is written, so a refusal (a bad workbook, a file /g did not write) writes nothing.
/// The configuration has no element for the calculator's targets: a run of it is judged as Jetstress judges it.
/// </summary>
internal static class JetstressCalculator
{
    public static int Generate(JetstressCommandLine line, string workingDirectory, JetstressConsole console)
    {
        string workbook = JetstressRequest.Resolve(line.Calculator!, workingDirectory);
        string? servers = line.Servers is null ? null : JetstressRequest.Resolve(line.Servers, workingDirectory);
        if (servers is null && Path.Combine(Path.GetDirectoryName(workbook) ?? workingDirectory, ServersCsv.FileName) is var beside && File.Exists(beside))
            servers = beside;
        var import = CalculatorImport.Read(workbook, servers);
        var profile = import.Profiles[0];

        var files = new List<(string Path, JetstressConfigDraft Draft)>();
        if (import.Servers.Count == 0)
            files.Add((Path.Combine(workingDirectory, JetstressCmd.GeneratedConfigName), Draft(line, profile, Defaults(workingDirectory, profile.DatabaseCount))));
        foreach (var server in import.Servers)
        {
            if (server.Name.IndexOfAny(Path.GetInvalidFileNameChars()) >= 0 || server.Name is "." or "..")
                throw EngineException.Refused(ErrorCodes.CalculatorLayoutInvalid, $"The server '{server.Name}' of '{servers}' is not a folder name, which /g writes its configuration into.", server.Name);
            files.Add((Path.Combine(workingDirectory, server.Name, JetstressCmd.GeneratedConfigName), Draft(line, profile, server.Databases.Select(server.DatabasePath).ToList())));
        }
        foreach (var (path, _) in files) JetstressCmd.RefuseForeign(path);
        if (line.DatabasePaths.Count > 0 && line.DatabasePaths.Count != profile.DatabaseCount)
            throw EngineException.Refused(ErrorCodes.JetstressArgumentInvalid,
                $"{line.DatabasePaths.Count} /dbpath for the calculator's {profile.DatabaseCount} databases per server: give one a database, or none (the calculator's own folders).", "/dbpath");

        foreach (string warning in import.Warnings) console.Say("Warning: " + warning);
        foreach (var (path, draft) in files)
        {
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            File.WriteAllText(path, JetstressConfigWriter.Render(draft), new UTF8Encoding(false));
            console.Say($"Wrote {path}.");
        }
        return EngineExit.Ran;
    }

    /// <summary>The calculator's profile in a /g template: its figures, the databases' folders (logs beside each), and the switches.</summary>
    private static JetstressConfigDraft Draft(JetstressCommandLine line, MailboxProfile profile, IReadOnlyList<string> databases)
    {
        var draft = JetstressCmd.Draft(line);
        draft.Description = profile.Description;
        draft.MailboxCount = profile.MailboxCount;
        draft.MailboxIops = profile.IopsPerMailbox;
        draft.MailboxQuota = profile.MailboxSizeMB;
        draft.DatabaseCopyCount = profile.CopiesPerDatabase;
        if (line.DatabasePaths.Count > 0) JetstressCmd.AddInstances(draft, line);
        else foreach (string database in databases) draft.Instances.Add(new JetstressInstance(database, database));
        return draft;
    }

    /// <summary>Without a Servers.csv: DB1..DBn in the current folder, as plain /g puts its one instance in DB1.</summary>
    private static List<string> Defaults(string workingDirectory, int databases) =>
        Enumerable.Range(1, databases).Select(i => Path.Combine(workingDirectory, "DB" + i.ToString(CultureInfo.InvariantCulture))).ToList();
}
