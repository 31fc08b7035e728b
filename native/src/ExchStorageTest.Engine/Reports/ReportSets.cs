using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// The results a report request names and how they divide into runs: by the engine's rule from
/// <c>paths</c>, or as the user labelled them in <c>runs</c>. Everything is read and checked before
/// anything is written.
/// </summary>
public static class ReportSets
{
    /// <summary>The tests a labelled run is compared by, in order of preference: the first of them it holds.</summary>
    private static readonly TestType[] ComparedTest = { TestType.Performance, TestType.Stress, TestType.Throughput, TestType.DatabaseBackup, TestType.SoftRecovery, TestType.Capacity };

    /// <returns>Every results document read; the runs (each its hosts); the labels of the runs when the user gave them.</returns>
    public static (List<TestResults> Results, List<List<TestResults>> Runs, IReadOnlyList<string>? Labels) Load(EngineRequest request, EventWriter events)
    {
        if (request.Runs.Count == 0)
        {
            var results = ResultsDocuments.Load(request.Paths, events);
            return (results, RunGrouping.Runs(results, request.Deployment), null);
        }
        if (request.Deployment)
            throw EngineException.Refused(ErrorCodes.RunsAndPaths, "Labelled runs are compared, each a run of its own: name the results of one deployment in 'paths' with 'deployment', or label runs, not both.", RequestFields.Deployment);
        if (request.Paths.Count > 0)
            throw EngineException.Refused(ErrorCodes.RunsAndPaths, "Give the results either in 'paths' (the engine tells the runs apart) or in 'runs' (each with its label), not both.", request.Paths[0]);
        var labels = new List<string>();
        var all = new List<TestResults>();
        var runs = new List<List<TestResults>>();
        foreach (var run in request.Runs)
        {
            string label = run.Label?.Trim() ?? "";
            if (label.Length == 0)
                throw EngineException.Refused(ErrorCodes.LabelMissing, $"A run in 'runs' has no label (its paths: {string.Join(", ", run.Paths)}): name every run.", string.Join(", ", run.Paths));
            if (labels.Contains(label, StringComparer.Ordinal))
                throw EngineException.Refused(ErrorCodes.LabelsNotUnique, $"The label '{label}' names two runs: give each run its own label.", label);
            labels.Add(label);
            var loaded = ResultsDocuments.Load(run.Paths, events);
            all.AddRange(loaded);
            runs.Add(Compared(label, loaded, events));
        }
        return (all, runs, labels);
    }

    /// <summary>
    /// The results of a labelled run that take part in the comparison: per host its latest completed run
    /// of one test (Performance first, see <see cref="ComparedTest"/>). A folder of an ESRP suite is
    /// compared by its Performance runs; a run stopped and run again counts once.
    /// </summary>
    private static List<TestResults> Compared(string label, IReadOnlyList<TestResults> loaded, EventWriter events)
    {
        var suite = EsrpSuite.From(loaded);
        var type = ComparedTest.First(t => suite.Of(t).Count > 0);
        var hosts = suite.Of(type).ToList();
        int left = loaded.Count - hosts.Count;
        if (left > 0)
            events.Log(EventFields.Log.Warning, $"Run '{label}': compared by its {type} {Wording.Noun(hosts.Count, "result", "results")} ({Wording.Count(hosts.Count, "host")}); " +
                                  $"{Wording.Count(left, "other results file")} (other tests, or runs stopped and run again) {Wording.Noun(left, "is", "are")} not part of the comparison.");
        return hosts;
    }
}
