using System.Text;
using System.Text.Json;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "report": renders one or more results files (or folder trees of them, <see cref="ResultsDocuments"/>), one
/// report event per run. Hosts of one run (<see cref="RunGrouping"/>) are merged (rates summed, histograms merged);
/// separate runs are reported each on its own and, asked (<c>compare</c>, or runs given by label, <see cref="ReportSets"/>),
/// compared side by side; tests of an ESRP suite (two or more of Performance, Stress, DatabaseBackup, SoftRecovery)
/// make up one ESRP document.
/// </summary>
internal sealed class ReportCommand : IEngineCommand
{
    public string Name => EngineCommands.Report;

    /// <summary>Reads and checks everything before a report file is written: formats, metadata, every results file, the output folder.</summary>
    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Rejudge) return RejudgeReport.Check(request, events);
        RejudgeReport.RefuseWithoutRejudge(request);
        var formats = ReportFiles.Parse(request.Formats);
        var (results, runs, labels) = ReportSets.Load(request, events);
        var metadata = request.MetadataPath is null ? null : EsrpMetadata.Load(request.MetadataPath);
        var suite = EsrpSuite.From(results);
        metadata?.CheckLabels(EsrpSummary.From(suite).Deployment);
        string? outputPath = formats == ReportFormats.None ? null : TestPlanner.OutputFolder(request.OutputPath, mustExist: true);
        if (outputPath is not null) RefuseNameCollisions(results, outputPath);
        return _ =>
        {
            Write(events, formats, request.Compare, results, runs, labels, suite, metadata, outputPath);
            return EngineExit.Ran;
        };
    }

    /// <summary>
    /// Report files are named after their results file, so two results files of one name (a results.json per host
    /// folder) would give two reports of one name in one output folder: the second would be written as _2, and
    /// nobody could tell which is which.
    /// </summary>
    private static void RefuseNameCollisions(IReadOnlyList<TestResults> results, string outputPath)
    {
        var clash = results.Where(r => r.SavedPath is not null).GroupBy(r => Path.GetFileNameWithoutExtension(r.SavedPath), StringComparer.OrdinalIgnoreCase)
            .FirstOrDefault(g => g.Count() > 1);
        if (clash is null) return;
        throw EngineException.Refused(ErrorCodes.ReportNamesCollide,
            $"The results files '{string.Join("' and '", clash.Select(r => r.SavedPath))}' have the same name, so their reports would overwrite each other in '{outputPath}'. Leave out the output folder to write each report beside its results file, or render them separately.",
            clash.Key);
    }

    /// <summary>
    /// One <c>report</c> event per run (a results file, or the hosts of one run merged), each with its own figures, files
    /// and ESRP tables; with <c>compare</c> or labels, then one <c>comparison</c> event of the runs side by side. The
    /// tests of an ESRP suite make one submission instead: one <c>report</c> event of them all.
    /// </summary>
    private static void Write(EventWriter events, ReportFormats formats, bool compare, List<TestResults> results, List<List<TestResults>> runs, IReadOnlyList<string>? labels,
        EsrpSuite suite, EsrpMetadata? metadata, string? outputPath)
    {
        // Tests of one suite are not alternatives to compare; labelled runs always are.
        bool submission = labels is null && !compare && suite.IsSubmission;

        // Each results file's own reports, beside it or in the output folder (of a labelled run, those it is compared by).
        var own = (submission ? results : runs.SelectMany(run => run)).ToDictionary(r => r, r => formats == ReportFormats.None ? new List<ReportFile>()
            : ReportFiles.Write(r, outputPath ?? Path.GetDirectoryName(r.SavedPath)!, formats, metadata).ToList());
        var written = own.Values.SelectMany(files => files).ToList();

        if (submission)
        {
            var esrp = EsrpSummary.From(suite, metadata?.Values);
            var text = new StringBuilder();
            var merged = runs.Where(run => run.Count > 1).Select(ResultsMerge.Merge).ToList();
            foreach (var m in merged) text.Append(TextReport.Render(m)).Append('\n');
            text.Append('\n').Append(EsrpDocument.RenderText(suite, esrp, metadata?.Title));
            if (formats != ReportFormats.None)
                written.AddRange(AggregateReports.Write(outputPath, results, formats, text.ToString(), suite, esrp, metadata, written.Select(f => f.Path).ToList(), merged));
            EmitReport(events, results, runs, text.ToString(), written, suite, esrp, submission: true, merged.FirstOrDefault());
            return;
        }

        foreach (var run in runs)
        {
            var runWritten = run.SelectMany(r => own[r]).ToList();
            var runSuite = EsrpSuite.From(run);
            var esrp = EsrpSummary.From(runSuite, metadata?.Values);
            var merged = run.Count > 1 ? ResultsMerge.Merge(run) : null;
            string text = merged is null ? TextReport.Render(run[0], ReportFiles.Options(run[0], outputPath, formats, metadata)) : TextReport.Render(merged);
            if (merged is not null && formats != ReportFormats.None)
                runWritten.AddRange(AggregateReports.Write(outputPath, run, formats, text, runSuite, esrp, metadata, runWritten.Select(f => f.Path).ToList(), new[] { merged }));
            EmitReport(events, run, new List<List<TestResults>> { run }, text, runWritten, runSuite, esrp, submission: false, merged);
        }

        if (runs.Count > 1 && (compare || labels is not null))
        {
            var comparison = RunComparison.Compare(runs.Select(r => (IReadOnlyList<TestResults>)r).ToList(), labels);
            string text = comparison.RenderText();
            var files = formats == ReportFormats.None ? new List<ReportFile>() : AggregateReports.WriteComparison(outputPath, results, formats, text, comparison).ToList();
            events.Emit(EventTypes.Comparison, w =>
            {
                w.WriteString(EventFields.Comparison.Statement, comparison.Statement);
                w.WriteString(EventFields.Comparison.Text, text);
                w.WriteStartArray(EventFields.Comparison.Files);
                foreach (var f in files) w.WriteStringValue(f.Path);
                w.WriteEndArray();
                ReportFiles.WriteKinds(w, EventFields.Comparison.Reports, files);
                w.WritePropertyName(EventFields.Comparison.Labels);
                JsonSerializer.Serialize(w, comparison.Labels, ResultsFile.Options);
                w.WritePropertyName(EventFields.Comparison.Runs);
                JsonSerializer.Serialize(w, comparison.Runs, ResultsFile.Options);
                w.WritePropertyName(EventFields.Comparison.Rows);
                JsonSerializer.Serialize(w, comparison.Rows, ResultsFile.Options);
            });
        }
    }

    /// <summary>The report event of one run (its hosts), or of an ESRP submission's tests.</summary>
    internal static void EmitReport(EventWriter events, IReadOnlyList<TestResults> results, List<List<TestResults>> runs, string text, IReadOnlyList<ReportFile> written,
        EsrpSuite suite, EsrpSummary esrp, bool submission, MergedResults? m)
    {
        events.Emit(EventTypes.Report, w =>
        {
            w.WriteStartArray(EventFields.Report.TestIds);
            foreach (var r in results) w.WriteStringValue(r.TestId);
            w.WriteEndArray();
            if (results.Select(r => r.RunId).Distinct().ToList() is [string runId]) w.WriteString(EventFields.Report.RunId, runId);
            w.WriteString(EventFields.Report.Result, Verdicts.Combine(results.Select(r => r.Verdict.Result)));
            w.WriteNumber(EventFields.Report.Runs, runs.Count);
            w.WriteNumber(EventFields.Report.Hosts, runs.Max(r => r.Count));
            w.WriteString(EventFields.Report.Text, text);
            w.WriteStartArray(EventFields.Report.Files);
            foreach (var f in written) w.WriteStringValue(f.Path);
            w.WriteEndArray();
            w.WriteStartArray(EventFields.Report.Reasons);
            foreach (var r in results) ResultEvent.WriteReasons(w, r, results.Count > 1 ? r.Environment.MachineName : null);
            w.WriteEndArray();
            var reports = RunReports(results, written);
            w.WriteStartArray(EventFields.Report.ReportPaths);
            foreach (var f in reports) w.WriteStringValue(f.Path);
            w.WriteEndArray();
            ReportFiles.WriteKinds(w, EventFields.Report.Reports, reports);
            if (runs.Count == 1) WriteSummary(w, runs[0]);
            if (runs.Count == 1 && FaultSummary(runs[0]) is { } faultLine) w.WriteString(EventFields.Report.FaultSummary, faultLine);
            w.WriteStartArray(EventFields.Report.ResultsPaths);
            foreach (var r in results) w.WriteStringValue(r.SavedPath);
            w.WriteEndArray();
            w.WriteStartArray(EventFields.Report.Instances);
            foreach (var r in results)
            {
                var counters = InstanceCounters.From(r);
                foreach (var row in counters.Transactional) WriteRow(w, r, row, "Transactional");
                foreach (var row in counters.Total) WriteRow(w, r, row, "Total");
            }
            w.WriteEndArray();
            w.WritePropertyName(EventFields.Report.Esrp);
            EsrpEvent.Write(w, suite, esrp, submission);
            if (m is not null)
            {
                w.WriteStartObject(EventFields.Report.Aggregate);
                w.WriteNumber(EventFields.Report.Merged.Hosts, m.Hosts.Count);
                w.WriteString(EventFields.Report.Merged.Result, m.Result);
                w.WriteNumber(EventFields.Report.Merged.TargetIops, Math.Round(m.TargetTransactionalIops, 3));
                w.WriteNumber(EventFields.Report.Merged.AchievedIops, Math.Round(m.AchievedTransactionalIops, 3));
                if (m.MeasuringStartSkewSeconds is double skew) w.WriteNumber(EventFields.Report.Merged.MeasuringStartSkewSeconds, skew);
                if (m.Capacity is { } capacity) CapacityFieldsWriter.Write(w, EventFields.Report.Merged.Capacity, capacity);
                else if (m.CapacityUnavailable is { } why) w.WriteString(EventFields.Report.Merged.CapacityUnavailable, why);
                if (Engine.Verdict.CalculatorCheck.ForDeployment(m.Hosts) is { } check) CalculatorCheckWriter.Write(w, EventFields.Report.Merged.CalculatorCheck, check);
                if (Engine.Verdict.CaptureCheck.ForDeployment(m.Hosts) is { } captured) CaptureCheckWriter.Write(w, EventFields.Report.Merged.CaptureCheck, captured);
                w.WriteEndObject();
            }
        });
    }

    /// <summary>
    /// The report files of the runs: those written now, then those each run wrote beside its results file (the same
    /// stem, see <see cref="ReportFiles.Write"/>), so a report object names a run's HTML even without -Format.
    /// </summary>
    private static List<ReportFile> RunReports(IReadOnlyList<TestResults> results, IReadOnlyList<ReportFile> written)
    {
        var files = new List<ReportFile>(written);
        foreach (var r in results.Where(r => r.SavedPath is not null))
        {
            string baseName = Path.GetFileNameWithoutExtension(r.SavedPath!);
            string folder = Path.GetDirectoryName(r.SavedPath)!;
            if (!Directory.Exists(folder)) continue;
            foreach (string f in Directory.EnumerateFiles(folder, baseName + ".*", SearchOption.TopDirectoryOnly).OrderBy(f => f, StringComparer.Ordinal))
                if (ReportWriter.KindOf(Path.GetFileName(f), baseName) is string kind) files.Add(new ReportFile(kind, f));
        }
        return files.DistinctBy(f => f.Path, StringComparer.Ordinal).ToList();
    }

    /// <summary>One run's figures as its ESRP aggregate states them: IOPS summed over the hosts, latencies their mean.</summary>
    private static void WriteSummary(Utf8JsonWriter w, IReadOnlyList<TestResults> run)
    {
        var figures = EsrpAggregateMetrics.From(run.Select(EsrpServerMetrics.From).ToList());
        w.WriteStartObject(EventFields.Report.Summary);
        w.WriteString(EventFields.Report.Figures.TestType, run[0].TestType.ToString());
        w.WriteNumber(EventFields.Report.Figures.DbReadLatencyAvgMs, Math.Round(figures.AverageDatabaseDiskReadLatencyMs, 3));
        // A backup reads and writes no log: its transactional IOPS and log latency would be zeros, not figures.
        if (run[0].TestType != TestType.DatabaseBackup)
        {
            w.WriteNumber(EventFields.Report.Figures.TargetIops, Math.Round(figures.TargetedDatabaseDisksTransfersPerSecond, 3));
            w.WriteNumber(EventFields.Report.Figures.AchievedIops, Math.Round(figures.AchievedTransactionalIops, 3));
            w.WriteNumber(EventFields.Report.Figures.LogWriteLatencyAvgMs, Math.Round(figures.AverageLogDiskWriteLatencyMs, 3));
        }
        w.WriteEndObject();
    }

    /// <summary>One run's failure mode in one line: its host's, or each host's named (<see cref="ResultsMerge.FailureModeLines"/>); null when none has one.</summary>
    private static string? FaultSummary(IReadOnlyList<TestResults> run) => run.Count == 1
        ? FailureModeReport.Summary(run[0])
        : ResultsMerge.FailureModeLines(run) is { Count: > 0 } lines ? string.Join("; ", lines.Select(x => $"{x.Host}: {x.Line}")) : null;

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
}
