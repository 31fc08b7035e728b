using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>The reports every run writes next to its results file, and the format names the module passes.</summary>
internal static class ReportFiles
{
    /// <summary>What a run writes by default: everything but the standalone ESRP HTML page.</summary>
    public const ReportFormats RunDefault = ReportFormats.Text | ReportFormats.Html | ReportFormats.Xml | ReportFormats.Csv | ReportFormats.PdhCsv | ReportFormats.Esrp;

    /// <summary>
    /// The files a run of <paramref name="plan"/> writes besides its databases and logs, for the plan (-WhatIf): the
    /// results file and the default reports beside it, named by the start time (so the plan names the time's parts),
    /// and the run lock file of each folder it locks (removed when the run ends).
    /// </summary>
    public static IEnumerable<(string Kind, string Path)> Planned(Engine.Planning.TestPlan plan)
    {
        string stem = ResultsFile.StemPattern(plan.ReportName);
        yield return (EventFields.Plan.Output.ResultsKind, Path.Combine(plan.OutputPath, stem + ".json"));
        foreach (ReportFormats format in Enum.GetValues<ReportFormats>())
            if (format != ReportFormats.All && System.Numerics.BitOperations.IsPow2((int)format) && RunDefault.HasFlag(format))
                yield return (ReportWriter.Kind(format), Path.Combine(plan.OutputPath, ReportWriter.FileName(stem, format)));
        foreach (string folder in plan.LockFolders)
            yield return (EventFields.Plan.Output.LockKind, Path.Combine(folder, Engine.Storage.RunLock.FileName));
    }

    /// <summary>
    /// The reports beside the results file. A report that cannot be written (full disk) is an
    /// error event, not a crash: the run's results and the result event are not lost over it.
    /// Returns false when some report could not be written.
    /// </summary>
    public static bool WriteDefault(TestResults results, EventWriter events, out IReadOnlyList<ReportFile> written)
    {
        written = Array.Empty<ReportFile>();
        if (results.SavedPath is null) return results.SaveError is null;
        try
        {
            written = Write(results, Path.GetDirectoryName(results.SavedPath)!, RunDefault);
            return true;
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
        {
            events.Error(ErrorCodes.ReportWriteFailed,
                $"Could not write the reports beside '{results.SavedPath}': {ex.Message} The results file holds everything measured; render the reports later with the report command.", results.SavedPath);
            return false;
        }
    }

    /// <summary>Writes reports named after the results file (same stem), so they sort beside it.</summary>
    public static IReadOnlyList<ReportFile> Write(TestResults results, string folder, ReportFormats formats, EsrpMetadata? metadata = null) =>
        ReportWriter.WriteFiles(results, folder, formats, Options(results, folder, formats, metadata), baseName: Stem(results));

    /// <summary>
    /// The options a run's reports are rendered with in <paramref name="folder"/> (beside the results file when null): the
    /// report command's console text uses them too, so it says what the files it writes say (the Performance Log above all).
    /// </summary>
    public static ReportOptions Options(TestResults results, string? folder, ReportFormats formats, EsrpMetadata? metadata = null) =>
        ReportWriter.Resolve(results, folder ?? Path.GetDirectoryName(results.SavedPath) ?? ".", formats,
            metadata is null ? null : new ReportOptions { EsrpMetadata = metadata }, Stem(results) ?? ReportWriter.BaseName(results));

    private static string? Stem(TestResults results) => results.SavedPath is null ? null : Path.GetFileNameWithoutExtension(results.SavedPath);

    /// <summary>A <c>reports</c> array: each file with its kind (<see cref="ReportKinds"/>).</summary>
    public static void WriteKinds(System.Text.Json.Utf8JsonWriter w, string name, IEnumerable<ReportFile> files)
    {
        w.WriteStartArray(name);
        foreach (var f in files)
        {
            w.WriteStartObject();
            w.WriteString(EventFields.ReportFile.Kind, f.Kind);
            w.WriteString(EventFields.ReportFile.Path, f.Path);
            w.WriteEndObject();
        }
        w.WriteEndArray();
    }

    public static ReportFormats Parse(IEnumerable<string> names)
    {
        var formats = ReportFormats.None;
        foreach (var n in names)
        {
            if (!Enum.TryParse<ReportFormats>(n, ignoreCase: true, out var f) || f == ReportFormats.None || n.Contains(','))
                throw EngineException.Refused(ErrorCodes.UnknownReportFormat,
                    $"Unknown report format '{n}': use Html, Xml, Csv, Text, PdhCsv, Esrp, EsrpHtml or All.");
            formats |= f;
        }
        return formats;
    }
}
