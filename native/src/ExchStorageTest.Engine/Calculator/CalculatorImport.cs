using System.Globalization;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>
/// A calculator workbook (and its Servers.csv, when there is one) made into mailbox profiles: one per server role the
/// workbook designs (the servers of a DAG are alike), each carrying the calculator's figures as its
/// <see cref="MailboxProfile.Calculator"/> targets. Without a Servers.csv the profiles have no paths: the caller gives them.
/// </summary>
public sealed class CalculatorImport
{
    public IReadOnlyList<MailboxProfile> Profiles { get; init; } = Array.Empty<MailboxProfile>();
    /// <summary>Each server of the Servers.csv with its databases' paths and volumes (empty without one).</summary>
    public IReadOnlyList<CalculatorServer> Servers { get; init; } = Array.Empty<CalculatorServer>();
    /// <summary>The Servers.csv read, or null.</summary>
    public string? ServersCsvPath { get; init; }
    public IReadOnlyList<string> Warnings { get; init; } = Array.Empty<string>();

    /// <summary>Reads <paramref name="workbookPath"/> and, when given, <paramref name="serversCsvPath"/>; writes nothing.</summary>
    public static CalculatorImport Read(string workbookPath, string? serversCsvPath)
    {
        var design = CalculatorDesign.Read(workbookPath);
        var servers = serversCsvPath is null ? Array.Empty<CalculatorServer>() : ServersCsv.Read(serversCsvPath, design.Targets);
        return Build(design, servers, serversCsvPath, Path.GetFileNameWithoutExtension(workbookPath));
    }

    public static CalculatorImport Build(CalculatorDesign design, IReadOnlyList<CalculatorServer> servers, string? serversCsvPath, string workbookName)
    {
        var t = design.Targets;
        t.Servers = servers.Select(s => s.Name).ToArray();
        var warnings = design.Warnings.ToList();
        var profile = new MailboxProfile
        {
            Name = ProfileName(workbookName),
            Description = Describe(t),
            MailboxCount = t.MailboxesPerServer,
            // The calculator's database IOPS already hold its I/O overhead (402 = 2500 x 0.134 x 1.2): the test aims at exactly them.
            IopsPerMailbox = t.DatabaseIops / t.MailboxesPerServer,
            HeadroomPercent = 0,
            // Its database size is mailboxes per database x mailbox size on disk (664.67 GB = 62.5 x 10,890 MB): the profile sizes each database so.
            MailboxSizeMB = Math.Max(1, (long)Math.Round(t.DatabaseSizeGB * 1024 * t.DatabasesPerServer / t.MailboxesPerServer, MidpointRounding.AwayFromZero)),
            DatabaseCount = t.DatabasesPerServer,
            CopiesPerDatabase = design.CopiesPerDatabase,
            Calculator = t,
        };
        if (servers.Count > 0)
        {
            var layouts = servers.Select(s => new ServerLayout { Name = s.Name, DatabasePaths = s.Databases.Select(s.DatabasePath).ToArray() }).ToArray();
            profile.DatabasePaths = layouts[0].DatabasePaths;
            // Servers holding the same databases need nothing per server: every host, whatever its name, tests that layout.
            bool alike = layouts.All(l => l.DatabasePaths.SequenceEqual(layouts[0].DatabasePaths, StringComparer.OrdinalIgnoreCase));
            profile.Servers = alike ? Array.Empty<ServerLayout>() : layouts;
            foreach (var s in servers.Where(s => s.LogIsolation))
                warnings.Add($"Servers.csv isolates the logs of '{s.Name}' on volumes of their own (DbLogIsolation 1), which it does not name: the profile keeps each database's logs in its folder; give the log volumes with -LogPath to test them.");
        }
        if (ProfileRules.Check(profile.DatabasePaths.Length == 0 ? WithPlaceholderPath(profile) : profile) is Violation broken)
            throw EngineException.Refused(broken.Code, $"The calculator's design gives a profile the engine cannot test: {broken.Message}", broken.Target);
        return new CalculatorImport { Profiles = new[] { profile }, Servers = servers, ServersCsvPath = serversCsvPath, Warnings = warnings };
    }

    /// <summary>The profile's rules but its paths, which the caller gives when there is no Servers.csv.</summary>
    private static MailboxProfile WithPlaceholderPath(MailboxProfile p)
    {
        var copy = new MailboxProfile
        {
            Name = p.Name, Description = p.Description, MailboxCount = p.MailboxCount, IopsPerMailbox = p.IopsPerMailbox, HeadroomPercent = p.HeadroomPercent,
            MailboxSizeMB = p.MailboxSizeMB, DatabaseCount = p.DatabaseCount, CopiesPerDatabase = p.CopiesPerDatabase, DatabasePaths = new[] { "/" },
        };
        return copy;
    }

    /// <summary>The workbook's name as a profile name (letters, digits, space, '.', '_', '-'; 64 at most), or "Calculator".</summary>
    public static string ProfileName(string workbookName)
    {
        string name = Regex.Replace(workbookName, "[^A-Za-z0-9 ._-]", "-").Trim();
        if (name.Length > ProfileRules.NameMaxLength) name = name.Substring(0, ProfileRules.NameMaxLength).TrimEnd();
        return name.Length > 0 && char.IsAsciiLetterOrDigit(name[0]) && ProfileRules.CheckName(name) is null ? name : "Calculator";
    }

    private static string Describe(CalculatorTargets t) => string.Format(CultureInfo.InvariantCulture,
        "{0} {1} ({2}), {3}: {4} mailboxes on {5} database copies per server, {6:0.###} database IOPS and {7:0.###} log IOPS per server; {8} servers per DAG, {9} DAG(s).",
        t.Calculator, t.Version, t.Workbook, t.Role, t.MailboxesPerServer, t.DatabasesPerServer, t.DatabaseIops, t.LogIops, t.ServersPerDag, t.Dags);
}
