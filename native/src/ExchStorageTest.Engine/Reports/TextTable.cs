using System.Text;

namespace ExchStorageTest.Engine.Reports;

/// <summary>A console table: first column left-aligned, the rest right-aligned, widths fitted to content.</summary>
internal sealed class TextTable
{
    private readonly string[] _headers;
    private readonly List<string[]> _rows = new();

    public TextTable(params string[] headers) => _headers = headers;

    public TextTable Add(params string[] cells)
    {
        _rows.Add(cells);
        return this;
    }

    public void WriteTo(StringBuilder sb, string indent = "  ")
    {
        int n = _headers.Length;
        var width = new int[n];
        for (int c = 0; c < n; c++)
            width[c] = Math.Max(_headers[c].Length, _rows.Count == 0 ? 0 : _rows.Max(r => c < r.Length ? r[c].Length : 0));
        Line(sb, indent, _headers, width);
        sb.Append(indent).Append(new string('-', width.Sum() + 2 * (n - 1))).Append('\n');
        foreach (var r in _rows) Line(sb, indent, r, width);
    }

    private static void Line(StringBuilder sb, string indent, string[] cells, int[] width)
    {
        sb.Append(indent);
        for (int c = 0; c < width.Length; c++)
        {
            string cell = c < cells.Length ? cells[c] : "";
            if (c > 0) sb.Append("  ");
            sb.Append(c == 0 ? cell.PadRight(width[c]) : cell.PadLeft(width[c]));
        }
        // No trailing spaces: golden files and diffs stay clean.
        int end = sb.Length;
        while (end > 0 && sb[end - 1] == ' ') end--;
        sb.Length = end;
        sb.Append('\n');
    }
}
