namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The codes of the sizing calculator's import (the engine's calculator command behind New-MailboxProfile
    /// -CalculatorPath, docs/calculator.md) and of the per-server layouts it gives a profile. Every one is raised before
    /// anything is written, and names the file, the sheet, the label or the cell it is about.
    /// </summary>
    public static partial class ErrorCodes
    {
        public static readonly ErrorCode CalculatorNotFound = Add("CalculatorNotFound", ErrorCategories.ObjectNotFound, RaisedBy.Engine, ErrorGroups.Calculator, "the calculator workbook or its Servers.csv does not exist");
        public static readonly ErrorCode CalculatorNotWorkbook = Add("CalculatorNotWorkbook", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "the -CalculatorPath file is not an Excel workbook (.xlsm or .xlsx: an Office Open XML package with a workbook part)");
        public static readonly ErrorCode CalculatorVersionUnsupported = Add("CalculatorVersionUnsupported", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "the workbook is not the Exchange Server Role Requirements Calculator, or another calculator or version than the engine reads (the title and version found, and their cells, are named)");
        public static readonly ErrorCode CalculatorLabelMissing = Add("CalculatorLabelMissing", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "a label the import reads is not on the calculator's sheet, or is there more than once (the label and the cells are named)");
        public static readonly ErrorCode CalculatorCellError = Add("CalculatorCellError", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "the cell beside a label holds an Excel error such as #VALUE! or #DIV/0! (the label, the cell and the error are named: fix the input in Excel and save)");
        public static readonly ErrorCode CalculatorValueInvalid = Add("CalculatorValueInvalid", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "the cell beside a label holds no number, text such as '--', or a number no profile can take (the label, the cell and the value are named)");
        public static readonly ErrorCode CalculatorLayoutInvalid = Add("CalculatorLayoutInvalid", ErrorCategories.InvalidData, RaisedBy.Engine, ErrorGroups.Calculator, "the Servers.csv export is not one (no VersionNumber row, a column missing), is of another calculator version than the workbook, names a server twice, or gives a server another number of databases than the calculator's databases per server");
        public static readonly ErrorCode ServerLayoutInvalid = Add("ServerLayoutInvalid", Arg, RaisedBy.Both, ErrorGroups.Profile, "a profile's Servers entry without a name, or two entries with one name");
        public static readonly ErrorCode ServerLayoutNotFound = Add("ServerLayoutNotFound", Arg, RaisedBy.Engine, ErrorGroups.Profile, "the profile holds per-server databases (Servers) and the host's machine name is none of those servers");
    }
}
