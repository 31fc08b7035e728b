using System.Globalization;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>
/// Reads figures off the calculator's sheet by their labels: a label beside its value, or a row of a titled table in
/// the column its header names. Where a label sits does not matter; what is found does: a label missing or found
/// twice (CalculatorLabelMissing), an Excel error in its cell (CalculatorCellError), or no number there
/// (CalculatorValueInvalid), each named with the label and the cell.
/// </summary>
public sealed class CalculatorSheet
{
    private readonly SheetCells _cells;

    public CalculatorSheet(SheetCells cells) => _cells = cells;

    public string Name => _cells.Name;

    /// <summary>The one cell that reads <paramref name="label"/>.</summary>
    public CachedCell Label(string label)
    {
        var found = _cells.Find(label);
        if (found.Count == 0)
            throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
                $"The calculator's sheet '{Name}' has no cell that reads '{label}': is this the Exchange 2013 Server Role Requirements Calculator, saved after it calculated?", label);
        if (found.Count > 1)
            throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
                $"The calculator's sheet '{Name}' reads '{label}' in {found.Count} cells ({string.Join(", ", found.Select(c => c.Reference))}): the import cannot tell which one holds the figure.", label);
        return found[0];
    }

    /// <summary>The number beside <paramref name="label"/> (the nearest value to its right).</summary>
    public double Number(string label)
    {
        var at = Label(label);
        return NumberIn(_cells.RightOf(at), label, at);
    }

    /// <summary>The text beside <paramref name="label"/>, or null when that cell is empty.</summary>
    public string? Text(string label)
    {
        var at = Label(label);
        var value = _cells.RightOf(at);
        if (value is { Kind: CellKind.Error })
            throw CellError(label, value);
        return value?.Text.Trim();
    }

    /// <summary>The number in row <paramref name="row"/> of the table titled <paramref name="table"/>, in its column <paramref name="column"/>.</summary>
    public double TableNumber(string table, string row, string column)
    {
        var (title, header) = Table(table, column);
        // The table's rows follow its title row, with their labels in the title's column, up to the first row without one.
        for (int r = title.Row + 1; ; r++)
        {
            var label = _cells.At(r, title.Column);
            if (label is null || label.Kind != CellKind.Text || label.Text.Trim().Length == 0) break;
            if (SheetCells.Normalize(label.Text) == SheetCells.Normalize(row))
                return NumberIn(_cells.At(r, header.Column), row, label, $" in the column '{header.Text.Trim()}' of the table '{table}'");
        }
        throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
            $"The table '{table}' ('{Name}'!{title.Reference}) has no row '{row}'.", row);
    }

    /// <summary>The title cell of the table <paramref name="table"/> whose header row has <paramref name="column"/>, and that header's cell.</summary>
    private (CachedCell Title, CachedCell Header) Table(string table, string column)
    {
        var titles = _cells.Find(table);
        if (titles.Count == 0)
            throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
                $"The calculator's sheet '{Name}' has no table titled '{table}': is this the Exchange 2013 Server Role Requirements Calculator?", table);
        var matches = new List<(CachedCell, CachedCell)>();
        foreach (var title in titles)
        {
            var header = _cells.RowAfter(title.Row, title.Column)
                .FirstOrDefault(c => c.Kind == CellKind.Text && SheetCells.Normalize(c.Text) == SheetCells.Normalize(column));
            if (header is not null) matches.Add((title, header));
        }
        if (matches.Count == 1) return matches[0];
        if (matches.Count == 0)
            throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
                $"The table '{table}' ({string.Join(", ", titles.Select(t => $"'{Name}'!{t.Reference}"))}) has no column '{column}'.", column);
        throw EngineException.Refused(ErrorCodes.CalculatorLabelMissing,
            $"The calculator's sheet '{Name}' has {matches.Count} tables titled '{table}' with a column '{column}' ({string.Join(", ", matches.Select(m => m.Item1.Reference))}): the import cannot tell which one holds the figures.", table);
    }

    private double NumberIn(CachedCell? value, string label, CachedCell at, string where = "")
    {
        if (value is null)
            throw EngineException.Refused(ErrorCodes.CalculatorValueInvalid,
                $"The calculator's '{label}' ('{Name}'!{at.Reference}){where} has no value beside it: open the workbook in Excel, let it calculate, and save it.", label);
        if (value.Kind == CellKind.Error) throw CellError(label, value, where);
        if (value.Kind != CellKind.Number || value.Number is not double number || !double.IsFinite(number))
            throw EngineException.Refused(ErrorCodes.CalculatorValueInvalid,
                $"The calculator's '{label}'{where} is {value.Shown} in {value.Where}, not a number: the design leaves this figure empty, so no profile can be built from it.", value.Where);
        return number;
    }

    private static EngineException CellError(string label, CachedCell value, string where = "") =>
        EngineException.Refused(ErrorCodes.CalculatorCellError,
            $"The calculator's '{label}'{where} is the Excel error {value.Text} in {value.Where}: correct the inputs it depends on in Excel, let it calculate, and save the workbook.", value.Where);

    /// <summary>A whole number read as a double: <paramref name="value"/> when it is whole, else a refusal naming the label.</summary>
    public static int Whole(double value, string label, int minimum, int maximum, string why)
    {
        if (value != Math.Floor(value) || value < minimum || value > maximum)
            throw EngineException.Refused(ErrorCodes.CalculatorValueInvalid,
                string.Format(CultureInfo.InvariantCulture, "The calculator's '{0}' is {1}: it must be a whole number from {2} to {3} ({4}).", label, value, minimum, maximum, why), label);
        return (int)value;
    }

    /// <summary>A figure the design must give above zero.</summary>
    public static double Positive(double value, string label)
    {
        if (!(value > 0))
            throw EngineException.Refused(ErrorCodes.CalculatorValueInvalid,
                string.Format(CultureInfo.InvariantCulture, "The calculator's '{0}' is {1}: the design must give it above zero for a server to be tested against it.", label, value), label);
        return value;
    }
}
