using System.Text;
using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Host.Commands;

/// <summary>
/// "report": renders one or more results files (or folders of them). Results of the same test type
/// that started within <see cref="SameRunWindow"/> of each other are hosts of one run and are
/// merged (rates summed, histograms merged); separate runs are compared side by side.
/// </summary>
internal static class ReportCommand
{
    public static readonly TimeSpan SameRunWindow = TimeSpan.FromMinutes(10);

    public static int Execute(EngineRequest request, EventWriter events)
    {
        var formats = ReportFiles.Parse(request.Formats);
        var results = LoadResults(request.Paths, events);
        var runs = GroupIntoRuns(results);

        var written = new List<string>();
        foreach (var r in results)
        {
            string folder = string.IsNullOrWhiteSpace(request.OutputPath) ? Path.GetDirectoryName(r.SavedPath)! : Path.GetFullPath(request.OutputPath);
            if (formats != ReportFormats.None) written.AddRange(ReportFiles.Write(r, folder, formats));
        }

        var text = new StringBuilder();
        var merged = runs.Where(run => run.Count > 1).Select(ResultsMerge.Merge).ToList();
        if (results.Count == 1) text.Append(TextReport.Render(results[0]));
        foreach (var m in merged) text.Append(TextReport.Render(m)).Append('\n');
        RunComparison? comparison = runs.Count > 1 ? RunComparison.Compare(runs.Select(r => (IReadOnlyList<TestResults>)r).ToList()) : null;
        if (comparison is not null) text.Append('\n').Append(comparison.RenderText());
        var esrp = EsrpSummary.From(results);
        if (results.Count > 1 && formats != ReportFormats.None)
        {
            string folder = string.IsNullOrWhiteSpace(request.OutputPath) ? Path.GetDirectoryName(results[0].SavedPath)! : Path.GetFullPath(request.OutputPath);
            written.Add(WriteText(folder, $"Aggregate_{DateTime.UtcNow:yyyy_MM_dd_HH_mm_ss}.txt", text.ToString()));
            written.Add(WriteText(folder, $"Aggregate_{DateTime.UtcNow:yyyy_MM_dd_HH_mm_ss}.esrp.txt", esrp.RenderText()));
        }

        events.Emit("report", w =>
        {
            w.WriteStartArray("testIds");
            foreach (var r in results) w.WriteStringValue(r.TestId);
            w.WriteEndArray();
            w.WriteString("result", results.All(r => r.Verdict.Result == "Pass") ? "Pass" : "Fail");
            w.WriteNumber("runs", runs.Count);
            w.WriteNumber("hosts", runs.Max(r => r.Count));
            w.WriteString("text", text.ToString());
            w.WriteStartArray("files");
            foreach (var f in written) w.WriteStringValue(f);
            w.WriteEndArray();
            w.WriteStartArray("instances");
            foreach (var r in results)
            {
                var counters = InstanceCounters.From(r);
                foreach (var row in counters.Transactional) WriteRow(w, r, row, "Transactional");
                foreach (var row in counters.Total) WriteRow(w, r, row, "Total");
            }
            w.WriteEndArray();
            w.WritePropertyName("esrp");
            JsonSerializer.Serialize(w, new { esrp.Servers, esrp.Aggregate, esrp.Backup, esrp.SoftRecovery, esrp.Deployment, esrp.Reliability }, ResultsFile.Options);
            if (merged.Count > 0)
            {
                var m = merged[0];
                w.WriteStartObject("aggregate");
                w.WriteNumber("hosts", m.Hosts.Count);
                w.WriteString("result", m.Result);
                w.WriteNumber("targetIops", Math.Round(m.TargetTransactionalIops, 3));
                w.WriteNumber("achievedIops", Math.Round(m.AchievedTransactionalIops, 3));
                w.WriteEndObject();
            }
            if (comparison is not null)
            {
                w.WritePropertyName("comparison");
                JsonSerializer.Serialize(w, comparison, ResultsFile.Options);
            }
        });
        return ExitCodes.Ran;
    }

    private static void WriteRow(Utf8JsonWriter w, TestResults r, IoCounterRow row, string table)
    {
        w.WriteStartObject();
        w.WriteString("testId", r.TestId);
        w.WriteString("machine", r.Environment.MachineName);
        w.WriteString("table", table);
        w.WritePropertyName("counters");
        JsonSerializer.Serialize(w, row, ResultsFile.Options);
        w.WriteEndObject();
    }

    private static string WriteText(string folder, string name, string content)
    {
        string ext = name.EndsWith(".esrp.txt", StringComparison.Ordinal) ? ".esrp.txt" : Path.GetExtension(name);
        return OutputFile.WriteNew(folder, name[..^ext.Length], ext, stream =>
        {
            using var writer = new StreamWriter(stream, new UTF8Encoding(false), 1 << 16, leaveOpen: true);
            writer.Write(content);
        });
    }

    /// <summary>
    /// Loads the results to render, before anything is written. A file named explicitly must load
    /// (else the request is refused); a file found in a folder that cannot be read is skipped with
    /// a warning naming it, so one damaged file does not hide the rest of the folder.
    /// </summary>
    internal static List<TestResults> LoadResults(IReadOnlyList<string> paths, EventWriter events)
    {
        var results = new List<TestResults>();
        try
        {
            foreach (var (file, found) in ResolveResultsFiles(paths))
            {
                try { results.Add(ResultsFile.Load(file)); }
                catch (EngineException ex) when (found)
                {
                    events.Log("warning", $"Skipped '{file}': {ex.Code}: {ex.Message}");
                }
            }
            if (results.Count == 0)
                throw new EngineException("ResultsNotFound", ErrorCategories.ObjectNotFound, $"No readable ExchStorageTest results file was found in: {string.Join(", ", paths)}.", paths[0]);
        }
        catch (EngineException ex)
        {
            throw ex.AsRefusal();
        }
        return results;
    }

    /// <summary>Files as given; folders contribute every results JSON directly inside them (Found = true).</summary>
    internal static List<(string Path, bool Found)> ResolveResultsFiles(IReadOnlyList<string> paths)
    {
        if (paths.Count == 0) throw EngineException.InvalidArgument("PathsMissing", "The report command needs at least one results file or folder in 'paths'.");
        var files = new List<(string Path, bool Found)>();
        foreach (var p in paths)
        {
            string full = Path.GetFullPath(p);
            if (File.Exists(full)) files.Add((full, false));
            else if (Directory.Exists(full))
            {
                var found = Directory.EnumerateFiles(full, "*.json", SearchOption.TopDirectoryOnly)
                    .Where(IsResultsFile).OrderBy(f => f, StringComparer.Ordinal).ToList();
                if (found.Count == 0)
                    throw new EngineException("ResultsNotFound", ErrorCategories.ObjectNotFound, $"The folder '{p}' holds no ExchStorageTest results files.", p);
                files.AddRange(found.Select(f => (f, true)));
            }
            else throw new EngineException("ResultsNotFound", ErrorCategories.ObjectNotFound, $"'{p}' is neither a results file nor a folder.", p);
        }
        return files.DistinctBy(f => f.Path, StringComparer.Ordinal).ToList();
    }

    private static bool IsResultsFile(string path)
    {
        // Cheap sniff of the first bytes: results files name their schema near the top.
        using var reader = new StreamReader(path);
        var head = new char[512];
        int n = reader.Read(head, 0, head.Length);
        return new string(head, 0, n).Contains(TestResults.SchemaName, StringComparison.Ordinal);
    }

    internal static List<List<TestResults>> GroupIntoRuns(IReadOnlyList<TestResults> results)
    {
        var runs = new List<List<TestResults>>();
        foreach (var r in results.OrderBy(r => r.Timeline.TestStartUtc))
        {
            var run = runs.FirstOrDefault(g => g[0].TestType == r.TestType
                && (r.Timeline.CollectionStartUtc ?? r.Timeline.TestStartUtc) - (g[0].Timeline.CollectionStartUtc ?? g[0].Timeline.TestStartUtc) <= SameRunWindow
                && g.All(h => h.Environment.MachineName != r.Environment.MachineName));
            if (run is null) runs.Add(new List<TestResults> { r });
            else run.Add(r);
        }
        return runs;
    }
}
