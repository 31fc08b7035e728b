using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// "report" with <c>rejudge</c>: each stored results file judged again (<see cref="Rejudging"/>) with the request's fault
/// window, stall limit, thresholds or sub-window, written as new results and reports beside it — never over any file —
/// and answered with one <c>report</c> event per file, as a report of it is. Every file is loaded, checked and judged
/// before the first is written.
/// </summary>
internal static class RejudgeReport
{
    public static CommandWork Check(EngineRequest request, EventWriter events)
    {
        if (request.Runs.Count > 0)
            throw Invalid("A re-judgement judges results files, each on its own: name them (or their folders) in 'paths', not as labelled 'runs'.", RequestFields.Runs);
        if (request.Compare || request.Deployment)
            throw Invalid($"A re-judgement writes each run's own new results: '{(request.Compare ? RequestFields.Compare : RequestFields.Deployment)}' does not go with 'rejudge'.",
                request.Compare ? RequestFields.Compare : RequestFields.Deployment);
        if (request.OutputPath is not null)
            throw Invalid($"A re-judgement writes its new results and reports beside each results file it judges: leave out 'outputPath' ('{request.OutputPath}').", request.OutputPath);
        var formats = request.Formats.Count == 0 ? ReportFiles.RunDefault : ReportFiles.Parse(request.Formats);
        var metadata = request.MetadataPath is null ? null : EsrpMetadata.Load(request.MetadataPath);
        var settings = RejudgeSettings.From(request);
        var now = DateTime.UtcNow;
        var judged = ResultsDocuments.Load(request.Paths, events)
            .Select(r => (Source: r.SavedPath!, Results: Rejudging.Prepare(r, r.SavedPath!, settings, now))).ToList();
        return _ =>
        {
            foreach (var (source, r) in judged)
            {
                Rejudging.Save(r, source, now);
                var written = ReportFiles.Write(r, Path.GetDirectoryName(r.SavedPath)!, formats, metadata).ToList();
                var run = new List<TestResults> { r };
                var suite = EsrpSuite.From(run);
                string text = TextReport.Render(r, ReportFiles.Options(r, null, formats, metadata));
                ReportCommand.EmitReport(events, run, new List<List<TestResults>> { run }, text, written, suite, EsrpSummary.From(suite, metadata?.Values), submission: false, null);
            }
            return EngineExit.Ran;
        };
    }

    /// <summary>The report command's re-judgement fields given without <c>rejudge</c>: refused, they would be ignored.</summary>
    public static void RefuseWithoutRejudge(EngineRequest request)
    {
        string? field = request.FaultAtSeconds is not null ? RequestFields.FaultAtSeconds
            : request.FaultLengthSeconds is not null ? RequestFields.FaultLengthSeconds
            : request.StallLimitSeconds is not null ? RequestFields.StallLimitSeconds
            : request.Thresholds is not null ? RequestFields.Thresholds
            : request.WindowFromSeconds is not null ? RequestFields.WindowFromSeconds
            : request.WindowToSeconds is not null ? RequestFields.WindowToSeconds
            : null;
        if (field is not null)
            throw Invalid($"'{field}' judges a run again: give it with \"{RequestFields.Rejudge}\": true (a report renders the runs as they were judged).", field);
    }

    private static EngineException Invalid(string message, string target) => EngineException.Refused(ErrorCodes.FaultWindowInvalid, message, target);
}
