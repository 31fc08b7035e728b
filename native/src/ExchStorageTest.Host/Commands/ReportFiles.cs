using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Host.Commands;

/// <summary>The reports every run writes next to its results file, and the format names the module passes.</summary>
internal static class ReportFiles
{
    /// <summary>What a run writes by default: everything but the standalone ESRP HTML page.</summary>
    public const ReportFormats RunDefault = ReportFormats.Text | ReportFormats.Html | ReportFormats.Xml | ReportFormats.Csv | ReportFormats.PdhCsv | ReportFormats.Esrp;

    public static IReadOnlyList<string> WriteDefault(TestResults results)
    {
        if (results.SavedPath is null) return Array.Empty<string>();
        return Write(results, Path.GetDirectoryName(results.SavedPath)!, RunDefault);
    }

    /// <summary>Writes reports named after the results file (same stem), so they sort beside it.</summary>
    public static IReadOnlyList<string> Write(TestResults results, string folder, ReportFormats formats, EsrpMetadata? metadata = null)
    {
        string? stem = results.SavedPath is null ? null : Path.GetFileNameWithoutExtension(results.SavedPath);
        return ReportWriter.Write(results, folder, formats, metadata is null ? null : new ReportOptions { EsrpMetadata = metadata }, baseName: stem);
    }

    public static ReportFormats Parse(IEnumerable<string> names)
    {
        var formats = ReportFormats.None;
        foreach (var n in names)
        {
            if (!Enum.TryParse<ReportFormats>(n, ignoreCase: true, out var f) || f == ReportFormats.None || n.Contains(','))
                throw EngineException.InvalidArgument("UnknownReportFormat",
                    $"Unknown report format '{n}': use Html, Xml, Csv, Text, PdhCsv, Esrp, EsrpHtml or All.");
            formats |= f;
        }
        return formats;
    }
}
