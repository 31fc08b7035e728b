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
/// under the results file's stem, which is Jetstress's "&lt;Type&gt;_&lt;y&gt;_&lt;M&gt;_&lt;d&gt;_&lt;H&gt;_&lt;m&gt;_&lt;s&gt;"
/// (<see cref="ResultsFile.Stem"/>), plus ".txt", ".html", ".xml", ".timeseries.csv", ".perfmon.csv", ".esrp.txt".
/// The one-run ESRP page is "Esrp_&lt;stem&gt;.html": Jetstress automation takes the newest "&lt;Type&gt;*.html" of a
/// folder for the test report (ExchangeDsc's ExchJetstress, docs/jetstress.md), so no other page may start with
/// the test type. Each file claims a unique name and is written through a temporary file (<see cref="OutputFile"/>):
/// readers never see half a report and no existing file is replaced. The only I/O in Reports.
/// </summary>
public static class ReportWriter
{
    private static readonly UTF8Encoding Utf8 = new(encoderShouldEmitUTF8Identifier: false);

    /// <summary>The stem of reports whose results were never saved: the results' own, from their local start time.</summary>
    public static string BaseName(TestResults results) =>
        ResultsFile.Stem(results.ReportName, DateTime.SpecifyKind(results.Timeline.TestStartUtc, DateTimeKind.Utc).ToLocalTime());

    /// <summary>What the one-run ESRP page's name starts with, so that it never starts with the test type.</summary>
    public const string EsrpPagePrefix = "Esrp_";

    /// <summary>The prefix and extension of each format's file: the name is prefix + stem + extension.</summary>
    public static (string Prefix, string Extension) Naming(ReportFormats format) => format switch
    {
        ReportFormats.Text => ("", ".txt"),
        ReportFormats.Html => ("", ".html"),
        ReportFormats.Xml => ("", ".xml"),
        ReportFormats.Csv => ("", ".timeseries.csv"),
        ReportFormats.PdhCsv => ("", ".perfmon.csv"),
        ReportFormats.Esrp => ("", ".esrp.txt"),
        ReportFormats.EsrpHtml => (EsrpPagePrefix, ".html"),
        _ => throw new ArgumentOutOfRangeException(nameof(format), format, "One single format is needed."),
    };

    /// <summary>The file name each format is saved under.</summary>
    public static string FileName(string baseName, ReportFormats format)
    {
        var (prefix, extension) = Naming(format);
        return prefix + baseName + extension;
    }

    /// <summary>The formats in the order they are written.</summary>
    private static readonly ReportFormats[] Order = { ReportFormats.Text, ReportFormats.Html, ReportFormats.Xml, ReportFormats.Csv, ReportFormats.PdhCsv, ReportFormats.Esrp, ReportFormats.EsrpHtml };

    /// <summary>The kind of a run's rendering (<see cref="ReportKinds"/>: the format's name).</summary>
    public static string Kind(ReportFormats format) => format.ToString();

    /// <summary>
    /// The kind of a file this writer named (<see cref="FileName"/>) for a run, from its name alone; null for any other
    /// file. For the files a run wrote earlier beside its results file, which the report command finds by their stem.
    /// </summary>
    public static string? KindOf(string fileName, string baseName) =>
        Order.Where(f => string.Equals(fileName, FileName(baseName, f), StringComparison.Ordinal)).Select(Kind).FirstOrDefault();

    /// <summary>Writes the requested formats and returns the full paths written, in format order.</summary>
    public static IReadOnlyList<string> Write(TestResults results, string folder, ReportFormats formats = ReportFormats.All,
        ReportOptions? options = null, string? baseName = null) =>
        WriteFiles(results, folder, formats, options, baseName).Select(f => f.Path).ToList();

    /// <summary>Writes the requested formats and returns the files written with their kinds, in format order.</summary>
    public static IReadOnlyList<ReportFile> WriteFiles(TestResults results, string folder, ReportFormats formats = ReportFormats.All,
        ReportOptions? options = null, string? baseName = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        Directory.CreateDirectory(folder);
        string name = baseName ?? BaseName(results);
        var o = Resolve(results, folder, formats, options, name);

        var written = new List<ReportFile>();
        foreach (var format in Order)
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
                _ => EsrpHtml(results, o.EsrpMetadata, written.Find(w => w.Kind == ReportKinds.Html)?.Path),
            };
            var (prefix, extension) = Naming(format);
            // A name already taken (a user's file, an earlier rendering) is never replaced: the next free one is used.
            written.Add(new ReportFile(Kind(format), OutputFile.WriteNew(folder, prefix + name, extension, stream =>
            {
                using var writer = new StreamWriter(stream, Utf8, 1 << 16, leaveOpen: true);
                writer.Write(content);
            })));
        }
        return written;
    }

    /// <summary>
    /// The options the renderings in <paramref name="folder"/> are written with: the Performance Log is the PerfMon log
    /// written with them, else the run's own (<see cref="RunPerformanceLog"/>). The report command renders its console
    /// text with the same, so the text and the file it writes say the same.
    /// </summary>
    public static ReportOptions Resolve(TestResults results, string folder, ReportFormats formats, ReportOptions? options, string baseName)
    {
        var o = options ?? ReportOptions.Default;
        if (o.PerformanceLogName is not null) return o;
        return o with { PerformanceLogName = formats.HasFlag(ReportFormats.PdhCsv) ? FileName(baseName, ReportFormats.PdhCsv) : RunPerformanceLog(results, folder) };
    }

    /// <summary>
    /// The PerfMon log the run itself wrote beside its results file (a report rendered again later, without PdhCsv,
    /// names it rather than saying none was written): its file name when the report goes to the same folder, else its
    /// full path; null when the results were never saved or the log is not there.
    /// </summary>
    private static string? RunPerformanceLog(TestResults results, string folder)
    {
        if (results.SavedPath is not { Length: > 0 } saved) return null;
        string resultsFolder = Path.GetDirectoryName(Path.GetFullPath(saved)) ?? "";
        string log = Path.Combine(resultsFolder, FileName(Path.GetFileNameWithoutExtension(saved), ReportFormats.PdhCsv));
        if (!File.Exists(log)) return null;
        bool sameFolder = string.Equals(Path.GetFullPath(folder).TrimEnd(Path.DirectorySeparatorChar), resultsFolder.TrimEnd(Path.DirectorySeparatorChar),
            OperatingSystem.IsWindows() ? StringComparison.OrdinalIgnoreCase : StringComparison.Ordinal);
        return sameFolder ? Path.GetFileName(log) : log;
    }

    /// <summary>The one-run ESRP page, linking the run's HTML report when it was just written beside it.</summary>
    private static string EsrpHtml(TestResults results, EsrpMetadata? metadata, string? htmlReport)
    {
        var suite = EsrpSuite.From(new[] { results });
        return EsrpDocument.RenderHtml(suite, EsrpSummary.From(suite, metadata?.Values), metadata?.Title, _ => htmlReport is null ? null : Path.GetFileName(htmlReport));
    }
}
