using System.Globalization;
using System.IO.Packaging;
using DocumentFormat.OpenXml;
using DocumentFormat.OpenXml.Packaging;
using DocumentFormat.OpenXml.Spreadsheet;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Calculator;

/// <summary>
/// An Excel workbook (.xlsx, .xlsm) opened read-only with the Open XML SDK: its sheet names and the cached values of
/// the sheets asked for. Nothing is evaluated and no macro runs (the SDK reads the package's XML; the VBA project is a
/// part nobody opens), and the file is shared for reading and writing, so a workbook open in Excel can be read.
/// </summary>
public sealed class Workbook : IDisposable
{
    private readonly FileStream _file;
    private readonly SpreadsheetDocument _document;
    private readonly WorkbookPart _workbook;
    private readonly string[] _strings;

    private Workbook(string path, FileStream file, SpreadsheetDocument document, WorkbookPart workbook)
    {
        Path = path;
        _file = file;
        _document = document;
        _workbook = workbook;
        _strings = SharedStrings(workbook);
        SheetNames = workbook.Workbook.Sheets?.Elements<Sheet>().Select(s => s.Name?.Value ?? "").ToList() ?? new List<string>();
    }

    public string Path { get; }

    /// <summary>The workbook's sheets, hidden ones too, in workbook order.</summary>
    public IReadOnlyList<string> SheetNames { get; }

    /// <summary>Opens <paramref name="path"/>, or refuses: CalculatorNotFound when it does not exist, CalculatorNotWorkbook when it is not a workbook.</summary>
    public static Workbook Open(string path)
    {
        if (!File.Exists(path))
            throw EngineException.Refused(ErrorCodes.CalculatorNotFound,
                Directory.Exists(path) ? $"The calculator workbook '{path}' is a folder: give the workbook file (.xlsm or .xlsx)." : $"The calculator workbook '{path}' does not exist.", path);
        FileStream? file = null;
        try
        {
            file = new FileStream(path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
            var document = SpreadsheetDocument.Open(file, isEditable: false, new OpenSettings { AutoSave = false });
            var workbook = document.WorkbookPart ?? throw new InvalidDataException("the package has no workbook part");
            if (workbook.Workbook is null) throw new InvalidDataException("the workbook part is empty");
            return new Workbook(path, file, document, workbook);
        }
        catch (Exception ex) when (ex is OpenXmlPackageException or InvalidDataException or FileFormatException or IOException or UnauthorizedAccessException
                                       or InvalidOperationException or System.Xml.XmlException or ArgumentException)
        {
            file?.Dispose();
            throw EngineException.Refused(ErrorCodes.CalculatorNotWorkbook,
                $"'{path}' is not an Excel workbook the engine can read ({ex.Message.TrimEnd('.')}): give the calculator's .xlsm (or a copy saved as .xlsx).", path);
        }
    }

    /// <summary>The cached values of the sheet named <paramref name="name"/> (case ignored), or null when the workbook has none.</summary>
    public SheetCells? Sheet(string name)
    {
        var sheet = _workbook.Workbook.Sheets?.Elements<Sheet>()
            .FirstOrDefault(s => string.Equals(s.Name?.Value?.Trim(), name, StringComparison.OrdinalIgnoreCase));
        if (sheet?.Id?.Value is not string id) return null;
        if (_workbook.GetPartById(id) is not WorksheetPart part) return null;
        string sheetName = sheet.Name!.Value!;
        var cells = new List<CachedCell>();
        // A forward-only read of the sheet's XML: the calculator's sheets hold tens of thousands of cells.
        using (var reader = OpenXmlReader.Create(part))
        {
            int rowNumber = 0;
            while (reader.Read())
            {
                if (!reader.IsStartElement) continue;
                if (reader.ElementType == typeof(Row))
                {
                    var index = reader.Attributes.FirstOrDefault(a => a.LocalName == "r").Value;
                    rowNumber = int.TryParse(index, NumberStyles.Integer, CultureInfo.InvariantCulture, out int r) ? r : rowNumber + 1;
                }
                else if (reader.ElementType == typeof(Cell))
                {
                    var cell = (Cell)reader.LoadCurrentElement()!;
                    if (Read(sheetName, rowNumber, cell) is CachedCell cached) cells.Add(cached);
                }
            }
        }
        return new SheetCells(sheetName, cells);
    }

    private CachedCell? Read(string sheet, int row, Cell cell)
    {
        string reference = cell.CellReference?.Value ?? "";
        int column = CachedCell.ColumnNumber(reference);
        if (column == 0) return null;
        var type = cell.DataType?.Value;
        string? raw = cell.CellValue?.Text;
        if (type == CellValues.InlineString)
            return new CachedCell(sheet, row, column, CellKind.Text, cell.InlineString?.InnerText ?? "", null);
        if (raw is null) return null;
        if (type == CellValues.SharedString)
        {
            string text = int.TryParse(raw, NumberStyles.Integer, CultureInfo.InvariantCulture, out int i) && i >= 0 && i < _strings.Length ? _strings[i] : "";
            return new CachedCell(sheet, row, column, CellKind.Text, text, null);
        }
        if (type == CellValues.String) return new CachedCell(sheet, row, column, CellKind.Text, raw, null);
        if (type == CellValues.Error) return new CachedCell(sheet, row, column, CellKind.Error, raw, null);
        if (type == CellValues.Boolean) return new CachedCell(sheet, row, column, CellKind.Boolean, raw == "1" ? "TRUE" : "FALSE", null);
        return double.TryParse(raw, NumberStyles.Float, CultureInfo.InvariantCulture, out double number)
            ? new CachedCell(sheet, row, column, CellKind.Number, raw, number)
            : new CachedCell(sheet, row, column, CellKind.Text, raw, null);
    }

    /// <summary>The shared strings, each as its text runs read (phonetic guides left out).</summary>
    private static string[] SharedStrings(WorkbookPart workbook)
    {
        var table = workbook.SharedStringTablePart?.SharedStringTable;
        if (table is null) return Array.Empty<string>();
        var strings = new List<string>();
        foreach (var item in table.Elements<SharedStringItem>())
        {
            if (item.Text is { } plain) strings.Add(plain.Text);
            else strings.Add(string.Concat(item.Elements<Run>().Select(r => r.Text?.Text ?? "")));
        }
        return strings.ToArray();
    }

    public void Dispose()
    {
        _document.Dispose();
        _file.Dispose();
    }
}
