using DocumentFormat.OpenXml;
using DocumentFormat.OpenXml.Packaging;
using DocumentFormat.OpenXml.Spreadsheet;
using ExchStorageTest.Engine.Calculator;

namespace ExchStorageTest.Engine.Tests.Calculator;

/// <summary>An Excel error value in a built workbook's cell (#VALUE!, #DIV/0! ...).</summary>
public sealed record ExcelError(string Text);

/// <summary>
/// Builds calculator workbooks with the Open XML SDK, holding the labels and cached values of the Exchange 2013 Server
/// Role Requirements Calculator 7.6 example (ExchangeDsc's "E2013Calcv7.6 - Example.xlsm") at the cells that workbook
/// holds them: 2500 mailboxes and 40 databases per server, 402 database and 88.44 log IOPS, 40 MB/s of maintenance.
/// Tests change, move or remove cells to make every other kind of workbook. Strings go through the shared-string
/// table and values sit beside formulas' results as Excel saves them (a cached value, no formula to evaluate).
/// </summary>
public sealed class CalculatorWorkbookFile
{
    public Dictionary<string, object?> Input { get; } = new()
    {
        ["B1"] = "Exchange 2013 Server Role Requirements Calculator",
        ["B2"] = "Author: Ross Smith IV, David Mosier",
        ["G2"] = "Version: 7.6",
    };

    public Dictionary<string, object?> Role { get; } = new()
    {
        ["B7"] = "Role Requirements Calculations Pane",
        // Labels the import must not be confused by: the same words elsewhere, and a second table of the copies' title.
        ["B30"] = "IOPS Profile / Mailbox", ["C30"] = 0.134, ["H30"] = "IOPS Profile / Mailbox", ["I30"] = 0.0,
        ["H61"] = "Database Copy Instance Configuration", ["I61"] = "Value",
        ["H62"] = "Number of HA DB Copy Instances in PDC", ["I62"] = 2.0,
        ["H76"] = "Peak IOPS", ["I76"] = 402.0,
        ["H77"] = "Peak IOPS / Server", ["I77"] = 402.0,
        ["H78"] = "DB Read Transfers/s / Server", ["I78"] = 241.2,
        ["H79"] = "DB Write Transfers/s / Server", ["I79"] = 160.8,
        ["H80"] = "Log Write Transfers/s /Server", ["I80"] = 80.4,
        ["H81"] = "Log Read Transfers/s /Server", ["I81"] = 8.04,
        ["H90"] = "Total Number of Active Mailbox Servers / DAG", ["I90"] = 4.0,
        ["H91"] = "Total Number of Mailbox Servers / DAG", ["I91"] = 4.0,
        ["B96"] = "Total DAGs in the Environment", ["C96"] = 2.0,
        ["B101"] = "Calculated Total Number of Mailboxes / Server", ["C101"] = 2500.0,
        ["B102"] = "Total Number of Database Copies per Server", ["C102"] = 40.0,
        ["B108"] = "Dedicated Disaster Recovery Mailbox Servers in Secondary Datacenter", ["C108"] = "No",
        ["B109"] = "Lagged Database Copies Hosted on Dedicated Servers", ["C109"] = "No",
        ["B237"] = "Database Copy Instance Configuration", ["C237"] = "/ Datacenter 1", ["D237"] = "/ Datacenter 2", ["E237"] = "Total",
        ["B238"] = "Number of HA Database Copy Instances / DAG", ["C238"] = 2.0, ["D238"] = 1.0, ["E238"] = 3.0,
        ["B239"] = "Number of Lagged Database Copy Instances / DAG", ["C239"] = 0.0, ["D239"] = 1.0, ["E239"] = 1.0,
        ["B240"] = "Total Number of Database Copy Instances", ["C240"] = 2.0, ["D240"] = 2.0, ["E240"] = 4.0,
        ["B244"] = "Recommended Number of Mailboxes / Database", ["C244"] = 62.5,
        ["B245"] = "Available Database Cache / Mailbox", ["C245"] = 16.384,
        ["B272"] = "Disk Space Requirements", ["C272"] = "/ Database", ["D272"] = " / Server", ["E272"] = "/ DAG", ["F272"] = "/ Environment",
        ["B273"] = "Transport Database Space Required", ["C273"] = "--", ["D273"] = 643.73016357421875,
        ["B274"] = "Database Space Required", ["C274"] = 664.6728515625, ["D274"] = 26586.9140625, ["E274"] = 106347.65625, ["F274"] = 212695.3125,
        ["B275"] = "Log Space Required", ["C275"] = 23.736572265625, ["D275"] = 949.462890625,
        ["B280"] = "Host IO and Throughput Requirements", ["C280"] = "/ Database", ["D280"] = " / Server", ["E280"] = "/ DAG", ["F280"] = "/ Environment",
        ["B281"] = "Total Database Required IOPS", ["C281"] = 10.05, ["D281"] = 402.0, ["E281"] = 1608.0, ["F281"] = 3216.0,
        ["B282"] = "Total Log Required IOPS", ["C282"] = 2.211, ["D282"] = 88.44, ["E282"] = 353.76, ["F282"] = 707.52,
        ["B283"] = "Database Read I/O Percentage", ["C283"] = 0.6, ["D283"] = "--", ["E283"] = "--", ["F283"] = "--",
        ["B284"] = "Background Database Maintenance Throughput Requirements", ["C284"] = 1.0, ["D284"] = 40.0, ["E284"] = 160.0, ["F284"] = 320.0,
    };

    /// <summary>Every Role Requirements cell moved by <paramref name="rows"/> and <paramref name="columns"/>: where a label sits must not matter.</summary>
    public CalculatorWorkbookFile Moved(int rows, int columns)
    {
        var moved = Role.ToDictionary(c => Shift(c.Key, rows, columns), c => c.Value);
        Role.Clear();
        foreach (var (k, v) in moved) Role[k] = v;
        return this;
    }

    /// <summary>The cell that reads <paramref name="label"/> (the first, in sheet order).</summary>
    public string CellOf(string label) =>
        Role.Where(c => c.Value is string s && SheetCells.Normalize(s) == SheetCells.Normalize(label))
            .Select(c => c.Key).OrderBy(k => Row(k)).ThenBy(k => CachedCell.ColumnNumber(k)).First();

    /// <summary>The cell beside <paramref name="label"/> (its value's cell).</summary>
    public string ValueOf(string label) => Shift(CellOf(label), 0, 1);

    /// <summary>Writes the workbook (.xlsm: a macro-enabled workbook, as the calculator is; .xlsx otherwise).</summary>
    public string Save(string path)
    {
        var type = path.EndsWith(".xlsm", StringComparison.OrdinalIgnoreCase) ? SpreadsheetDocumentType.MacroEnabledWorkbook : SpreadsheetDocumentType.Workbook;
        using var document = SpreadsheetDocument.Create(path, type);
        var workbook = document.AddWorkbookPart();
        workbook.Workbook = new DocumentFormat.OpenXml.Spreadsheet.Workbook();
        var sheets = workbook.Workbook.AppendChild(new Sheets());
        var strings = new List<string>();
        uint id = 1;
        foreach (var (name, cells) in new[] { ("Disclaimers", new Dictionary<string, object?> { ["A1"] = "Disclaimer" }), ("Input", Input), (CalculatorLabels.Sheet, Role) })
        {
            var part = workbook.AddNewPart<WorksheetPart>();
            part.Worksheet = new Worksheet(SheetData(cells, strings));
            sheets.Append(new Sheet { Id = workbook.GetIdOfPart(part), SheetId = id++, Name = name });
        }
        var table = workbook.AddNewPart<SharedStringTablePart>();
        table.SharedStringTable = new SharedStringTable(strings.Select(s => new SharedStringItem(new Text(s) { Space = SpaceProcessingModeValues.Preserve })));
        return path;
    }

    private static SheetData SheetData(Dictionary<string, object?> cells, List<string> strings)
    {
        var data = new SheetData();
        foreach (var row in cells.Where(c => c.Value is not null).GroupBy(c => Row(c.Key)).OrderBy(g => g.Key))
        {
            var r = new Row { RowIndex = (uint)row.Key };
            foreach (var (reference, value) in row.OrderBy(c => CachedCell.ColumnNumber(c.Key)))
            {
                var cell = new Cell { CellReference = reference };
                switch (value)
                {
                    case string text:
                        int index = strings.IndexOf(text);
                        if (index < 0) { strings.Add(text); index = strings.Count - 1; }
                        cell.DataType = CellValues.SharedString;
                        cell.CellValue = new CellValue(index.ToString(System.Globalization.CultureInfo.InvariantCulture));
                        break;
                    case ExcelError error:
                        cell.DataType = CellValues.Error;
                        cell.CellFormula = new CellFormula("1/0");
                        cell.CellValue = new CellValue(error.Text);
                        break;
                    case double number:
                        cell.CellFormula = new CellFormula("0+0");
                        cell.CellValue = new CellValue(number);
                        break;
                    default:
                        throw new ArgumentException($"A cell value of type {value!.GetType().Name} is not one this builder writes.");
                }
                r.Append(cell);
            }
            data.Append(r);
        }
        return data;
    }

    private static int Row(string reference) => int.Parse(new string(reference.SkipWhile(char.IsLetter).ToArray()), System.Globalization.CultureInfo.InvariantCulture);

    private static string Shift(string reference, int rows, int columns) =>
        CachedCell.ColumnName(CachedCell.ColumnNumber(reference) + columns) + (Row(reference) + rows).ToString(System.Globalization.CultureInfo.InvariantCulture);
}
