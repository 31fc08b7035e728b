using System.Globalization;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>
/// What a calculator workbook designs for one mailbox server: its figures (<see cref="CalculatorTargets"/>), the copies
/// of each database, and what the import could not take over (in <see cref="Warnings"/>). Read from cached values by
/// their labels; a workbook of another calculator or version is refused before any figure is read.
/// </summary>
public sealed class CalculatorDesign
{
    /// <summary>
    /// The calculators this engine reads: the product year and the major version whose layout it was verified against
    /// (the Exchange 2013 calculator 7.6 that ExchangeDsc ships). Another version may move or rename labels; it is
    /// refused by name rather than read by guesswork, and supporting it is a line here once a workbook of it was read.
    /// </summary>
    public static readonly IReadOnlyList<(string Product, int Major)> Supported = new[] { ("Exchange 2013", 7) };

    private static readonly Regex TitlePattern = new(@"^(?<product>Exchange\s+\d{4})\s+" + CalculatorLabels.TitleSuffix + "$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);
    private static readonly Regex VersionPattern = new(@"^" + CalculatorLabels.VersionPrefix + @"\s*(?<version>(?<major>\d+)(\.\d+)*)$", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);

    public CalculatorTargets Targets { get; init; } = new();
    /// <summary>"Total Number of Database Copy Instances" (HA and lagged): the profile's copies per database.</summary>
    public int CopiesPerDatabase { get; init; }
    public IReadOnlyList<string> Warnings { get; init; } = Array.Empty<string>();

    /// <summary>Reads the design of the workbook at <paramref name="path"/>.</summary>
    public static CalculatorDesign Read(string path)
    {
        using var workbook = Workbook.Open(path);
        return Read(workbook, System.IO.Path.GetFileName(path));
    }

    public static CalculatorDesign Read(Workbook workbook, string fileName)
    {
        var (product, version) = Identify(workbook);
        var cells = workbook.Sheet(CalculatorLabels.Sheet)
            ?? throw EngineException.Refused(ErrorCodes.CalculatorVersionUnsupported,
                $"'{fileName}' says it is the {product} {CalculatorLabels.TitleSuffix} {version}, but has no sheet '{CalculatorLabels.Sheet}' (it has {string.Join(", ", workbook.SheetNames.Select(n => $"'{n}'"))}).", fileName);
        var sheet = new CalculatorSheet(cells);
        var warnings = new List<string>();

        double mailboxes = CalculatorSheet.Positive(sheet.Number(CalculatorLabels.MailboxesPerServer), CalculatorLabels.MailboxesPerServer);
        int databases = CalculatorSheet.Whole(sheet.Number(CalculatorLabels.DatabasesPerServer), CalculatorLabels.DatabasesPerServer,
            (int)ProfileRules.DatabaseCount.Minimum, (int)ProfileRules.DatabaseCount.Maximum, "the engine simulates 1 to 256 databases per host");
        var targets = new CalculatorTargets
        {
            Calculator = $"{product} {CalculatorLabels.TitleSuffix}",
            Version = version,
            Workbook = fileName,
            Role = "Mailbox server (DAG member)",
            MailboxesPerServer = (int)Math.Round(mailboxes, MidpointRounding.AwayFromZero),
            DatabasesPerServer = databases,
            DatabaseSizeGB = CalculatorSheet.Positive(sheet.TableNumber(CalculatorLabels.DiskSpaceTable, CalculatorLabels.DatabaseSpace, CalculatorLabels.PerDatabase), CalculatorLabels.DatabaseSpace),
            ServersPerDag = CalculatorSheet.Whole(sheet.Number(CalculatorLabels.ServersPerDag), CalculatorLabels.ServersPerDag, 1, 16, "a DAG holds 1 to 16 servers"),
            Dags = CalculatorSheet.Whole(sheet.Number(CalculatorLabels.Dags), CalculatorLabels.Dags, 1, 100_000, "the environment's DAGs"),
            DatabaseIops = CalculatorSheet.Positive(sheet.TableNumber(CalculatorLabels.HostIoTable, CalculatorLabels.DatabaseIops, CalculatorLabels.PerServer), CalculatorLabels.DatabaseIops),
            LogIops = CalculatorSheet.Positive(sheet.TableNumber(CalculatorLabels.HostIoTable, CalculatorLabels.LogIops, CalculatorLabels.PerServer), CalculatorLabels.LogIops),
            DatabaseReadShare = sheet.TableNumber(CalculatorLabels.HostIoTable, CalculatorLabels.DatabaseReadPercentage, CalculatorLabels.PerDatabase),
            MaintenanceMBPerSecond = CalculatorSheet.Positive(sheet.TableNumber(CalculatorLabels.HostIoTable, CalculatorLabels.MaintenanceThroughput, CalculatorLabels.PerServer), CalculatorLabels.MaintenanceThroughput),
            DatabaseReadsPerSecond = sheet.Number(CalculatorLabels.DatabaseReadsPerSecond),
            DatabaseWritesPerSecond = sheet.Number(CalculatorLabels.DatabaseWritesPerSecond),
            LogWritesPerSecond = sheet.Number(CalculatorLabels.LogWritesPerSecond),
            LogReadsPerSecond = sheet.Number(CalculatorLabels.LogReadsPerSecond),
            DatabaseCachePerMailboxMB = sheet.Number(CalculatorLabels.DatabaseCachePerMailbox),
        };
        if (targets.DatabaseReadShare is < 0 or > 1)
            throw EngineException.Refused(ErrorCodes.CalculatorValueInvalid,
                string.Format(CultureInfo.InvariantCulture, "The calculator's '{0}' is {1}: a share of the database I/O from 0 to 1 was expected.", CalculatorLabels.DatabaseReadPercentage, targets.DatabaseReadShare),
                CalculatorLabels.DatabaseReadPercentage);
        if (mailboxes != Math.Floor(mailboxes))
            warnings.Add(string.Format(CultureInfo.InvariantCulture,
                "The calculator's '{0}' is {1}; the profile simulates {2} mailboxes at {3} database IOPS, the calculator's.", CalculatorLabels.MailboxesPerServer, mailboxes, targets.MailboxesPerServer, targets.DatabaseIops));
        int copies = CalculatorSheet.Whole(sheet.TableNumber(CalculatorLabels.CopyInstanceTable, CalculatorLabels.CopyInstances, CalculatorLabels.Total), CalculatorLabels.CopyInstances,
            (int)ProfileRules.CopiesPerDatabase.Minimum, (int)ProfileRules.CopiesPerDatabase.Maximum, "a DAG holds 1 to 16 copies of a database");
        if (IsYes(sheet.Text(CalculatorLabels.DedicatedLaggedCopyServers)))
            warnings.Add("The design hosts its lagged copies on dedicated servers: the sheet's per-server figures, and this profile, are the DAG members'; the lagged-copy servers are not profiled.");
        if (IsYes(sheet.Text(CalculatorLabels.DedicatedDisasterRecoveryServers)))
            warnings.Add("The design has dedicated disaster-recovery servers in the secondary datacenter: the sheet's per-server figures, and this profile, are the DAG members'; the disaster-recovery servers are not profiled.");
        return new CalculatorDesign { Targets = targets, CopiesPerDatabase = copies, Warnings = warnings };
    }

    /// <summary>The calculator's title and version (sheet Input), refused unless <see cref="Supported"/> names them.</summary>
    private static (string Product, string Version) Identify(Workbook workbook)
    {
        string fileName = System.IO.Path.GetFileName(workbook.Path);
        var input = workbook.Sheet(CalculatorLabels.InputSheet)
            ?? throw EngineException.Refused(ErrorCodes.CalculatorVersionUnsupported,
                $"'{fileName}' is a workbook, but not the Exchange {CalculatorLabels.TitleSuffix}: it has no sheet '{CalculatorLabels.InputSheet}' (it has {string.Join(", ", workbook.SheetNames.Select(n => $"'{n}'"))}).", fileName);
        var title = input.Cells.Where(c => c.Kind == CellKind.Text).Select(c => (Cell: c, Match: TitlePattern.Match(Collapse(c.Text)))).FirstOrDefault(t => t.Match.Success);
        if (title.Cell is null)
            throw EngineException.Refused(ErrorCodes.CalculatorVersionUnsupported,
                $"'{fileName}' is a workbook, but its sheet '{input.Name}' names no 'Exchange <year> {CalculatorLabels.TitleSuffix}': it is not the sizing calculator this import reads.", fileName);
        var versionCell = input.Cells.Where(c => c.Kind == CellKind.Text).Select(c => (Cell: c, Match: VersionPattern.Match(Collapse(c.Text)))).FirstOrDefault(t => t.Match.Success);
        if (versionCell.Cell is null)
            throw EngineException.Refused(ErrorCodes.CalculatorVersionUnsupported,
                $"'{fileName}' is the {Collapse(title.Cell.Text)} ({title.Cell.Where}), but no cell of '{input.Name}' states its version ('{CalculatorLabels.VersionPrefix} 7.6'): the import reads known versions only.", fileName);
        string product = Collapse(title.Match.Groups["product"].Value);
        string version = versionCell.Match.Groups["version"].Value;
        int major = int.Parse(versionCell.Match.Groups["major"].Value, CultureInfo.InvariantCulture);
        if (!Supported.Any(s => string.Equals(s.Product, product, StringComparison.OrdinalIgnoreCase) && s.Major == major))
            throw EngineException.Refused(ErrorCodes.CalculatorVersionUnsupported,
                $"'{fileName}' is the {product} {CalculatorLabels.TitleSuffix} version {version} ({title.Cell.Where}, {versionCell.Cell.Where}); this engine reads " +
                $"{string.Join(" and ", Supported.Select(s => $"the {s.Product} calculator version {s.Major}.x"))}, whose labels it was verified against.", version);
        return (product, version);
    }

    private static bool IsYes(string? text) => string.Equals(text, "Yes", StringComparison.OrdinalIgnoreCase);

    private static string Collapse(string text) => Regex.Replace(text.Trim(), @"\s+", " ");
}
