using System.Text;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The report files of several results together: of the hosts of one run (Aggregate_&lt;time&gt;: the merged text, the
/// deployment's ESRP tables, its capacity page when the hosts searched together), of a suite's tests
/// (EsrpSubmission_&lt;time&gt;: the ESRP document), or of separate runs compared (Comparison_&lt;time&gt;: text and page,
/// never ESRP tables, which would add the runs up as one deployment). They go to the output folder, else to the folder
/// that holds every results file (a suite's folder, a run's shared results folder).
/// </summary>
public static class AggregateReports
{
    /// <summary>
    /// Writes the files of the hosts of one run (<paramref name="merged"/>, one) or of a suite's tests; a run whose hosts
    /// searched for capacity together gets its HTML page (Aggregate_&lt;time&gt;.capacity.html).
    /// </summary>
    public static IReadOnlyList<ReportFile> Write(string? outputPath, IReadOnlyList<TestResults> results, ReportFormats formats, string text,
        EsrpSuite suite, EsrpSummary esrp, EsrpMetadata? metadata, IReadOnlyList<string> runReports, IReadOnlyList<MergedResults> merged)
    {
        string folder = string.IsNullOrWhiteSpace(outputPath) ? CommonFolder(results) : Path.GetFullPath(outputPath);
        // Named as every file of ours is (ResultsFile.Stem): the kind, then the local time, unpadded.
        var now = DateTime.Now;
        string aggregate = ResultsFile.Stem("Aggregate", now);
        // The ESRP files of a suite's tests are the submission's; of hosts of one run, their aggregate's.
        bool submission = suite.IsSubmission;
        string esrpName = submission ? ResultsFile.Stem("EsrpSubmission", now) : aggregate;
        var written = new List<ReportFile>
        {
            new(ReportKinds.AggregateText, WriteText(folder, $"{aggregate}.txt", TextFileLines.Native(text))),
            new(submission ? ReportKinds.SubmissionEsrp : ReportKinds.AggregateEsrp, WriteText(folder, $"{esrpName}.esrp.txt", TextFileLines.Native(EsrpDocument.RenderText(suite, esrp, metadata?.Title)))),
        };
        if (formats.HasFlag(ReportFormats.EsrpHtml) || (formats.HasFlag(ReportFormats.Html) && submission))
            written.Add(new(submission ? ReportKinds.SubmissionEsrpHtml : ReportKinds.AggregateEsrpHtml, WriteText(folder, $"{esrpName}.esrp.html",
                EsrpDocument.RenderHtml(suite, esrp, metadata?.Title, r => Href(folder, HtmlReportOf(r, runReports, outputPath))))));
        if (formats.HasFlag(ReportFormats.Html))
            foreach (var deployment in merged.Where(m => m.Capacity is not null))
                written.Add(new(ReportKinds.CapacityHtml, WriteText(folder, $"{aggregate}.capacity.html", DeploymentCapacityHtml.Render(deployment))));
        return written;
    }

    /// <summary>Writes the comparison of separate runs: its text (Comparison_&lt;time&gt;.txt) and, with Html, its page.</summary>
    public static IReadOnlyList<ReportFile> WriteComparison(string? outputPath, IReadOnlyList<TestResults> results, ReportFormats formats, string text, RunComparison comparison)
    {
        string folder = string.IsNullOrWhiteSpace(outputPath) ? CommonFolder(results) : Path.GetFullPath(outputPath);
        string stem = ResultsFile.Stem("Comparison", DateTime.Now);
        var written = new List<ReportFile> { new(ReportKinds.ComparisonText, WriteText(folder, $"{stem}.txt", TextFileLines.Native(text))) };
        if (formats.HasFlag(ReportFormats.Html))
            written.Add(new(ReportKinds.ComparisonHtml, WriteText(folder, $"{stem}.html", ComparisonHtml.Render(comparison))));
        return written;
    }

    /// <summary>
    /// The run's Jetstress-style HTML report: written by this request (into the output folder, or beside its results
    /// file: hosts of one run, each in a folder of its own, have reports of one name), else already beside its results file.
    /// </summary>
    private static string? HtmlReportOf(TestResults r, IReadOnlyList<string> runReports, string? outputPath)
    {
        if (r.SavedPath is null) return null;
        string name = Path.GetFileNameWithoutExtension(r.SavedPath) + ".html";
        string besideFolder = Path.GetDirectoryName(r.SavedPath)!;
        string writtenFolder = string.IsNullOrWhiteSpace(outputPath) ? besideFolder : Path.GetFullPath(outputPath);
        string? fresh = runReports.FirstOrDefault(f => Path.GetFileName(f) == name
            && string.Equals(Path.GetDirectoryName(f), writtenFolder, StringComparison.Ordinal));
        if (fresh is not null) return fresh;
        string beside = Path.Combine(besideFolder, name);
        return File.Exists(beside) ? beside : null;
    }

    /// <summary>A relative link from the document's folder, each segment escaped (spaces, '#').</summary>
    private static string? Href(string folder, string? target) => target is null ? null
        : string.Join('/', Path.GetRelativePath(folder, target).Split(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar).Select(Uri.EscapeDataString));

    /// <summary>The deepest folder holding every results file.</summary>
    public static string CommonFolder(IReadOnlyList<TestResults> results)
    {
        // Compared as the OS names files: on Windows the shares' paths typed in two cases are one folder (PathNames).
        var folders = results.Where(r => r.SavedPath is not null).Select(r => Path.GetDirectoryName(r.SavedPath!)!).Distinct(Planning.PathNames.Comparer).ToList();
        if (folders.Count == 0) return Directory.GetCurrentDirectory();
        string common = folders[0];
        foreach (var f in folders.Skip(1))
            while (!(string.Equals(f, common, Planning.PathNames.Comparison) || f.StartsWith(common.TrimEnd(Path.DirectorySeparatorChar) + Path.DirectorySeparatorChar, Planning.PathNames.Comparison)))
                common = Path.GetDirectoryName(common) ?? common[..0];
        return common.Length == 0 ? folders[0] : common;
    }

    /// <summary>A new file of ours, never one already there (docs/files.md): a taken name gets the next free _2, _3.</summary>
    private static string WriteText(string folder, string name, string content)
    {
        Directory.CreateDirectory(folder);
        string ext = name.EndsWith(".esrp.txt", StringComparison.Ordinal) ? ".esrp.txt"
            : name.EndsWith(".esrp.html", StringComparison.Ordinal) ? ".esrp.html"
            : name.EndsWith(".capacity.html", StringComparison.Ordinal) ? ".capacity.html" : Path.GetExtension(name);
        return OutputFile.WriteNew(folder, name[..^ext.Length], ext, stream =>
        {
            using var writer = new StreamWriter(stream, new UTF8Encoding(false), 1 << 16, leaveOpen: true);
            writer.Write(content);
        });
    }
}
