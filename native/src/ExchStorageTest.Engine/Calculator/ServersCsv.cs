using System.Globalization;
using System.Text;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>One server of the calculator's Servers.csv: its databases in DbMap order, where they are mounted, and how many share a volume.</summary>
public sealed record CalculatorServer(string Name, string DatabasesRootFolder, string VolumesRootFolder, int DatabasesPerVolume, bool LogIsolation, IReadOnlyList<string> Databases)
{
    /// <summary>The database's folder: its mount point under DatabasesRootFolder, named as the calculator's scripts mount it.</summary>
    public string DatabasePath(string database)
    {
        char separator = DatabasesRootFolder.Contains('\\') ? '\\' : '/';
        return DatabasesRootFolder.TrimEnd('\\', '/') + separator + database;
    }

    /// <summary>The 1-based volume the database shares with the DbPerVolume databases around it (DbMap order, as the calculator's mount-point scripts lay them).</summary>
    public int Volume(int databaseIndex) => databaseIndex / DatabasesPerVolume + 1;
}

/// <summary>
/// The calculator's Servers.csv export (sheet "Storage Design", "Export DAG Scripts"): a header row (ServerName,
/// StartDrive, DbPerVolume, AutoReseedVolumes, DbLogIsolation, VolumesRootFolder, DatabasesRootFolder, DbMap), a row
/// <c>VersionNumber,&lt;script version&gt;,&lt;calculator version&gt;</c>, then one row per server. Its layout is all
/// it holds (no IOPS): each server's databases and their mount points. Refused as CalculatorLayoutInvalid when it is
/// not that export, or when it disagrees with the workbook.
/// </summary>
public static class ServersCsv
{
    public const string FileName = "Servers.csv";

    private static readonly string[] Required = { "ServerName", "DbPerVolume", "DatabasesRootFolder", "DbMap" };

    /// <summary>The servers of the export at <paramref name="path"/>, checked against <paramref name="targets"/> (its version and databases per server).</summary>
    public static IReadOnlyList<CalculatorServer> Read(string path, CalculatorTargets targets)
    {
        if (!File.Exists(path))
            throw EngineException.Refused(ErrorCodes.CalculatorNotFound, $"The calculator's server export '{path}' does not exist.", path);
        string text;
        try
        {
            text = File.ReadAllText(path, Encoding.UTF8);
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            throw EngineException.Refused(ErrorCodes.CalculatorLayoutInvalid, $"The calculator's server export '{path}' cannot be read: {ex.Message}", path);
        }
        return Parse(text, path, targets);
    }

    public static IReadOnlyList<CalculatorServer> Parse(string text, string path, CalculatorTargets targets)
    {
        var rows = CsvRows(text).Where(r => r.Count > 1 || (r.Count == 1 && r[0].Trim().Length > 0)).ToList();
        if (rows.Count == 0) throw Invalid(path, "it is empty");
        var header = rows[0].Select(h => h.Trim()).ToList();
        foreach (string column in Required)
            if (!header.Contains(column, StringComparer.OrdinalIgnoreCase))
                throw Invalid(path, $"its first row has no column '{column}' (it has {string.Join(", ", header)}): export Servers.csv from the calculator's Storage Design sheet");
        int Column(string name) => header.FindIndex(h => string.Equals(h, name, StringComparison.OrdinalIgnoreCase));
        string Cell(List<string> row, string name) => Column(name) is int i and >= 0 && i < row.Count ? row[i].Trim() : "";

        if (rows.Count < 2 || !string.Equals(rows[1][0].Trim(), "VersionNumber", StringComparison.OrdinalIgnoreCase))
            throw Invalid(path, "its second row is not the calculator's 'VersionNumber' row");
        string version = rows[1].Count > 2 ? rows[1][2].Trim() : "";
        if (!string.Equals(version, targets.Version, StringComparison.OrdinalIgnoreCase))
            throw Invalid(path, $"it was exported by calculator version '{version}', the workbook is version {targets.Version}: export it again from this workbook");

        var servers = new List<CalculatorServer>();
        for (int r = 2; r < rows.Count; r++)
        {
            var row = rows[r];
            string name = Cell(row, "ServerName");
            int line = r + 1;
            if (name.Length == 0) throw Invalid(path, $"row {line} names no server");
            if (servers.Any(s => string.Equals(s.Name, name, StringComparison.OrdinalIgnoreCase))) throw Invalid(path, $"it names the server '{name}' twice");
            if (!int.TryParse(Cell(row, "DbPerVolume"), NumberStyles.Integer, CultureInfo.InvariantCulture, out int perVolume) || perVolume < 1)
                throw Invalid(path, $"the server '{name}' has DbPerVolume '{Cell(row, "DbPerVolume")}', not a whole number of 1 or more");
            string root = Cell(row, "DatabasesRootFolder");
            if (!ProfileRules.IsAbsolute(root)) throw Invalid(path, $"the server '{name}' has DatabasesRootFolder '{root}', not an absolute folder");
            var databases = Cell(row, "DbMap").Split(',').Select(d => d.Trim()).Where(d => d.Length > 0).ToList();
            if (databases.Count != targets.DatabasesPerServer)
                throw Invalid(path, $"the server '{name}' holds {databases.Count} databases in its DbMap, the workbook's '{CalculatorLabels.DatabasesPerServer}' is {targets.DatabasesPerServer}: export both from one design");
            string? bad = databases.FirstOrDefault(d => d.IndexOfAny(Path.GetInvalidFileNameChars()) >= 0 || d.Contains('\\') || d.Contains(':'));
            if (bad is not null) throw Invalid(path, $"the server '{name}' has the database '{bad}' in its DbMap, which is not a folder name");
            if (databases.Distinct(StringComparer.OrdinalIgnoreCase).Count() != databases.Count)
                throw Invalid(path, $"the server '{name}' holds one database twice in its DbMap");
            servers.Add(new CalculatorServer(name, root, Cell(row, "VolumesRootFolder"), perVolume, Cell(row, "DbLogIsolation") == "1", databases));
        }
        if (servers.Count == 0) throw Invalid(path, "it names no server");
        return servers;
    }

    private static EngineException Invalid(string path, string why) =>
        EngineException.Refused(ErrorCodes.CalculatorLayoutInvalid, $"'{path}' is not a usable calculator Servers.csv: {why}.", path);

    /// <summary>RFC 4180 rows: quoted fields may hold commas, doubled quotes and line breaks.</summary>
    private static IEnumerable<List<string>> CsvRows(string text)
    {
        var row = new List<string>();
        var field = new StringBuilder();
        bool quoted = false;
        for (int i = 0; i < text.Length; i++)
        {
            char ch = text[i];
            if (quoted)
            {
                if (ch == '"' && i + 1 < text.Length && text[i + 1] == '"') { field.Append('"'); i++; }
                else if (ch == '"') quoted = false;
                else field.Append(ch);
            }
            else if (ch == '"') quoted = true;
            else if (ch == ',') { row.Add(field.ToString()); field.Clear(); }
            else if (ch == '\n' || ch == '\r')
            {
                if (ch == '\r' && i + 1 < text.Length && text[i + 1] == '\n') i++;
                row.Add(field.ToString());
                field.Clear();
                yield return row;
                row = new List<string>();
            }
            else if (ch != '\uFEFF' || i > 0) field.Append(ch);
        }
        if (field.Length > 0 || row.Count > 0)
        {
            row.Add(field.ToString());
            yield return row;
        }
    }
}
