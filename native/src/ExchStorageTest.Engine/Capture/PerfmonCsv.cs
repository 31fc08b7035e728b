using System.Globalization;
using System.Text;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Capture;

/// <summary>
/// A PerfMon log in the text forms <c>relog -f csv</c> and <c>relog -f tsv</c> write (docs/capture.md): a header row
/// whose first cell is <c>(PDH-CSV 4.0) (&lt;time zone name&gt;)(&lt;bias minutes&gt;)</c> (<c>PDH-TSV</c> for tab
/// separated) and whose other cells are counter paths <c>\\SERVER\Object(Instance)\Counter</c>; then one row per
/// sample, its first cell the local time, every cell quoted, a counter without a value in that sample written " ".
/// The time and the numbers follow the locale of the user who ran relog: en-US writes <c>11/02/2026 10:00:00.000</c>
/// and <c>1234.5</c>; de-DE writes <c>02.11.2026 10:00:00.000</c> and <c>1234,5</c> (inside the quotes, so the CSV
/// keeps its commas). The reader takes the locale from the first sample's date: slashes are en-US (month first),
/// dots are de-DE (day first, comma decimals). Any other shape is refused naming the row and the text.
/// </summary>
public static class PerfmonCsv
{
    private static readonly Regex Header = new(@"^\(PDH-(CSV|TSV) 4\.0\) \((.*)\)\((-?\d+)\)$", RegexOptions.CultureInvariant);
    private static readonly string[] UsTimes = { "MM/dd/yyyy HH:mm:ss.fff", "MM/dd/yyyy HH:mm:ss" };
    private static readonly string[] GermanTimes = { "dd.MM.yyyy HH:mm:ss.fff", "dd.MM.yyyy HH:mm:ss" };

    public static PerfmonLog Read(string path)
    {
        byte[] bytes;
        try { bytes = File.ReadAllBytes(path); }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException) { throw EngineException.Refused(ErrorCodes.CaptureNotFound, $"The capture '{path}' cannot be read: {e.Message}", path); }
        return Parse(Decode(bytes), path);
    }

    /// <summary>
    /// UTF-8 (with or without its byte order mark), else the ANSI code page relog writes with on a western Windows
    /// (read as Latin-1, which holds the same letters for the zone names: "Mitteleuropäische Zeit"). Only the
    /// zone name and counter names can hold such letters; the figures are ASCII either way.
    /// </summary>
    private static string Decode(byte[] bytes)
    {
        try { return new UTF8Encoding(false, throwOnInvalidBytes: true).GetString(bytes).TrimStart('\uFEFF'); }
        catch (DecoderFallbackException) { return Encoding.Latin1.GetString(bytes); }
    }

    public static PerfmonLog Parse(string text, string path)
    {
        var lines = text.Split('\n').Select(l => l.TrimEnd('\r')).ToList();
        while (lines.Count > 0 && lines[^1].Length == 0) lines.RemoveAt(lines.Count - 1);
        if (lines.Count == 0) throw NotPerfmon(path, "the file is empty");
        char separator = lines[0].StartsWith("\"(PDH-TSV", StringComparison.Ordinal) ? '\t' : ',';
        var header = Cells(lines[0], separator);
        var match = Header.Match(header[0]);
        if (!match.Success)
            throw NotPerfmon(path, $"its first cell is '{Shorten(header[0])}', not '(PDH-CSV 4.0) (<time zone>)(<bias>)' as relog writes it");
        if ((match.Groups[1].Value == "TSV") != (separator == '\t'))
            throw NotPerfmon(path, $"its header says {match.Groups[1].Value} and its cells are separated by {(separator == '\t' ? "tabs" : "commas")}");
        var counters = new List<CounterPath>();
        for (int c = 1; c < header.Count; c++)
            counters.Add(CounterPath.Parse(header[c]) ?? throw NotPerfmon(path, $"its column {c + 1} is '{Shorten(header[c])}', not a counter path '\\\\server\\object(instance)\\counter'"));

        var times = new List<DateTime>();
        var values = new List<double[]>();
        bool german = false;
        for (int i = 1; i < lines.Count; i++)
        {
            int row = i + 1;
            var cells = Cells(lines[i], separator);
            if (cells.Count != header.Count)
                throw NotPerfmon(path, $"its row {row} has {cells.Count} cells and its header {header.Count}");
            if (i == 1) german = cells[0].Length > 2 && cells[0][2] == '.';
            if (!DateTime.TryParseExact(cells[0], german ? GermanTimes : UsTimes, CultureInfo.InvariantCulture, DateTimeStyles.None, out var time))
                throw EngineException.Refused(ErrorCodes.CaptureValueInvalid,
                    $"The capture '{path}' has the time '{cells[0]}' in row {row}: the reader knows relog's en-US form 'MM/dd/yyyy HH:mm:ss.fff' and its de-DE form 'dd.MM.yyyy HH:mm:ss.fff' ({(german ? "de-DE" : "en-US")}, from the first row's date).", path);
            var rowValues = new double[counters.Count];
            for (int c = 1; c < cells.Count; c++)
                rowValues[c - 1] = Number(cells[c], german, path, row, counters[c - 1]);
            times.Add(time);
            values.Add(rowValues);
        }
        return new PerfmonLog
        {
            File = path, TimeZone = match.Groups[2].Value, BiasMinutes = int.Parse(match.Groups[3].Value, CultureInfo.InvariantCulture),
            Locale = german ? "de-DE" : "en-US", Counters = counters, Times = times, Values = values,
        };
    }

    /// <summary>A cell's number: NaN for relog's blank " " (no value in that sample); en-US '.' or de-DE ',' decimals, no thousands separators (relog writes none).</summary>
    private static double Number(string cell, bool german, string path, int row, CounterPath counter)
    {
        string trimmed = cell.Trim();
        if (trimmed.Length == 0) return double.NaN;
        string invariant = german ? trimmed.Replace(',', '.') : trimmed;
        if ((german ? trimmed.Contains('.') : trimmed.Contains(',')) ||
            !double.TryParse(invariant, NumberStyles.Float, CultureInfo.InvariantCulture, out double value) || double.IsNaN(value) || double.IsInfinity(value))
            throw EngineException.Refused(ErrorCodes.CaptureValueInvalid,
                $"The capture '{path}' has '{cell}' in row {row}, column '{counter}': not a number as relog writes it in {(german ? "de-DE (comma decimals, as its dd.MM.yyyy dates say)" : "en-US (point decimals, as its MM/dd/yyyy dates say)")}.", path);
        return value;
    }

    /// <summary>One line's cells: each quoted (a quote inside doubled), separated by <paramref name="separator"/>.</summary>
    internal static List<string> Cells(string line, char separator)
    {
        var cells = new List<string>();
        var cell = new StringBuilder();
        bool quoted = false;
        for (int i = 0; i < line.Length; i++)
        {
            char c = line[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < line.Length && line[i + 1] == '"') { cell.Append('"'); i++; }
                else if (c == '"') quoted = false;
                else cell.Append(c);
            }
            else if (c == '"') quoted = true;
            else if (c == separator) { cells.Add(cell.ToString()); cell.Clear(); }
            else cell.Append(c);
        }
        cells.Add(cell.ToString());
        return cells;
    }

    private static EngineException NotPerfmon(string path, string why) =>
        EngineException.Refused(ErrorCodes.CaptureNotPerfmon, $"The capture '{path}' is not a PerfMon log as relog writes it (relog <log>.blg -f csv -o <log>.csv): {why}.", path);

    private static string Shorten(string text) => text.Length <= 80 ? text : text.Substring(0, 80) + "...";
}
