using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>The renderings <see cref="ReportWriter"/> can save.</summary>
[Flags]
public enum ReportFormats
{
    None = 0,
    Text = 1,
    Html = 2,
    Xml = 4,
    Csv = 8,
    PdhCsv = 16,
    Esrp = 32,
    EsrpHtml = 64,
    All = Text | Html | Xml | Csv | PdhCsv | Esrp | EsrpHtml,
}

/// <summary>
/// Saves the renderings of one results document into a folder (normally next to its results JSON)
/// under stable names derived from the results: "&lt;TestType&gt;_yyyy_MM_dd_HH_mm_ss" of the UTC
/// start, plus ".txt", ".html", ".xml", ".timeseries.csv", ".perfmon.csv", ".esrp.txt", ".esrp.html". Each file
/// claims a unique name and is written through a temporary file (<see cref="OutputFile"/>): readers
/// never see half a report and no existing file is replaced. The only I/O in Reports.
/// </summary>
public static class ReportWriter
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    public static string BaseName(TestResults results) =>
        $"{results.TestType}_{DateTime.SpecifyKind(results.Timeline.TestStartUtc, DateTimeKind.Utc).ToString("yyyy_MM_dd_HH_mm_ss", JetFormat.Culture)}";

    /// <summary>The file name each format is saved under.</summary>
    public static string FileName(string baseName, ReportFormats format) => format switch
    {
        ReportFormats.Text => baseName + ".txt",
        ReportFormats.Html => baseName + ".html",
        ReportFormats.Xml => baseName + ".xml",
        ReportFormats.Csv => baseName + ".timeseries.csv",
        ReportFormats.PdhCsv => baseName + ".perfmon.csv",
        ReportFormats.Esrp => baseName + ".esrp.txt",
        ReportFormats.EsrpHtml => baseName + ".esrp.html",
        _ => throw new ArgumentOutOfRangeException(nameof(format), format, "One single format is needed."),
    };

    /// <summary>Writes the requested formats and returns the full paths written, in format order.</summary>
    public static IReadOnlyList<string> Write(TestResults results, string folder, ReportFormats formats = ReportFormats.All,
        ReportOptions? options = null, string? baseName = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        Directory.CreateDirectory(folder);
        string name = baseName ?? BaseName(results);
        var o = options ?? ReportOptions.Default;
        if (formats.HasFlag(ReportFormats.PdhCsv) && o.PerformanceLogName is null)
            o = o with { PerformanceLogName = FileName(name, ReportFormats.PdhCsv) };

        var written = new List<string>();
        foreach (var format in new[] { ReportFormats.Text, ReportFormats.Html, ReportFormats.Xml, ReportFormats.Csv, ReportFormats.PdhCsv, ReportFormats.Esrp, ReportFormats.EsrpHtml })
        {
            if (!formats.HasFlag(format)) continue;
            string content = format switch
            {
                ReportFormats.Text => TextFileLines.Native(TextReport.Render(results, o)),
                ReportFormats.Html => HtmlReport.Render(results, o),
                ReportFormats.Xml => XmlReport.Render(results, o),
                ReportFormats.Csv => CsvReport.Render(results),
                ReportFormats.PdhCsv => PdhCsvLog.Render(results, o.TimeZone),
                ReportFormats.Esrp => TextFileLines.Native(EsrpSummary.From(new[] { results }, supplied: o.EsrpMetadata?.Values).RenderText()),
                _ => EsrpHtml(results, o.EsrpMetadata, written.Find(w => w.EndsWith(FileName("", ReportFormats.Html), StringComparison.Ordinal))),
            };
            // A name already taken (a user's file, an earlier rendering) is never replaced: the next free one is used.
            written.Add(OutputFile.WriteNew(folder, name, FileName("", format), stream =>
            {
                using var writer = new StreamWriter(stream, Utf8, 1 << 16, leaveOpen: true);
                writer.Write(content);
            }));
        }
        return written;
    }

    /// <summary>The one-run ESRP page, linking the run's HTML report when it was just written beside it.</summary>
    private static string EsrpHtml(TestResults results, EsrpMetadata? metadata, string? htmlReport)
    {
        var suite = EsrpSuite.From(new[] { results });
        return EsrpDocument.RenderHtml(suite, EsrpSummary.From(suite, metadata?.Values), metadata?.Title, _ => htmlReport is null ? null : Path.GetFileName(htmlReport));
    }
}
