using System.Globalization;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>What a cell holds as Excel last saved it.</summary>
public enum CellKind
{
    Number,
    Text,
    Boolean,
    /// <summary>An Excel error value: #VALUE!, #DIV/0!, #REF!, #N/A ...</summary>
    Error,
}

/// <summary>One cell's cached value (the result Excel saved with the formula; no formula is ever evaluated here).</summary>
public sealed record CachedCell(string Sheet, int Row, int Column, CellKind Kind, string Text, double? Number)
{
    /// <summary>The cell as Excel names it: B101.</summary>
    public string Reference => ColumnName(Column) + Row.ToString(CultureInfo.InvariantCulture);

    /// <summary>The cell with its sheet, as messages name it: 'Role Requirements'!C101.</summary>
    public string Where => $"'{Sheet}'!{Reference}";

    /// <summary>The value as a message shows it.</summary>
    public string Shown => Kind == CellKind.Text ? $"'{Text}'" : Text;

    public static string ColumnName(int column)
    {
        string name = "";
        for (int c = column; c > 0; c = (c - 1) / 26) name = (char)('A' + (c - 1) % 26) + name;
        return name;
    }

    /// <summary>The column number of a cell reference's letters (B101 gives 2), or 0 when it has none.</summary>
    public static int ColumnNumber(string reference)
    {
        int column = 0;
        foreach (char ch in reference)
        {
            if (ch is >= 'A' and <= 'Z') column = column * 26 + (ch - 'A' + 1);
            else if (ch is >= 'a' and <= 'z') column = column * 26 + (ch - 'a' + 1);
            else break;
        }
        return column;
    }
}

/// <summary>
/// The cached values of one worksheet, found by their labels. Labels are matched tolerantly about where they sit and
/// how they are spaced (the calculator writes "Log Write Transfers/s /Server" beside "DB Read Transfers/s / Server"):
/// whitespace is ignored and case too. Everything else is strict: the callers name the label and the cell when what they
/// find is missing, repeated, an error or not a number.
/// </summary>
public sealed class SheetCells
{
    private readonly Dictionary<(int Row, int Column), CachedCell> _cells = new();
    private readonly Dictionary<string, List<CachedCell>> _byLabel = new(StringComparer.Ordinal);
    private readonly SortedDictionary<int, List<CachedCell>> _rows = new();

    public SheetCells(string name, IEnumerable<CachedCell> cells)
    {
        Name = name;
        foreach (var cell in cells)
        {
            _cells[(cell.Row, cell.Column)] = cell;
            if (!_rows.TryGetValue(cell.Row, out var row)) _rows[cell.Row] = row = new List<CachedCell>();
            row.Add(cell);
            if (cell.Kind == CellKind.Text)
            {
                string key = Normalize(cell.Text);
                if (key.Length == 0) continue;
                if (!_byLabel.TryGetValue(key, out var same)) _byLabel[key] = same = new List<CachedCell>();
                same.Add(cell);
            }
        }
        foreach (var row in _rows.Values) row.Sort((a, b) => a.Column.CompareTo(b.Column));
    }

    public string Name { get; }

    public IEnumerable<CachedCell> Cells => _cells.Values;

    /// <summary>Every text cell that reads <paramref name="label"/> (whitespace and case ignored), in sheet order.</summary>
    public IReadOnlyList<CachedCell> Find(string label) =>
        _byLabel.TryGetValue(Normalize(label), out var found)
            ? found.OrderBy(c => c.Row).ThenBy(c => c.Column).ToList()
            : Array.Empty<CachedCell>();

    public CachedCell? At(int row, int column) => _cells.TryGetValue((row, column), out var cell) ? cell : null;

    /// <summary>The nearest cell holding a value to the right of <paramref name="cell"/>, on its row.</summary>
    public CachedCell? RightOf(CachedCell cell)
    {
        if (!_rows.TryGetValue(cell.Row, out var row)) return null;
        foreach (var c in row)
            if (c.Column > cell.Column && !(c.Kind == CellKind.Text && c.Text.Trim().Length == 0)) return c;
        return null;
    }

    /// <summary>The cells of <paramref name="row"/> to the right of <paramref name="column"/>, left to right.</summary>
    public IEnumerable<CachedCell> RowAfter(int row, int column) =>
        _rows.TryGetValue(row, out var cells) ? cells.Where(c => c.Column > column) : Enumerable.Empty<CachedCell>();

    /// <summary>A label as compared: no whitespace, no case.</summary>
    public static string Normalize(string text)
    {
        var chars = new System.Text.StringBuilder(text.Length);
        foreach (char ch in text)
            if (!char.IsWhiteSpace(ch)) chars.Append(char.ToLowerInvariant(ch));
        return chars.ToString();
    }
}
