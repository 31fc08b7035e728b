using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Which results are hosts of one run: the same test type on different hosts (<see cref="HostKey"/>), either on
/// different machines starting to measure within <see cref="SameRunWindow"/>, or measuring at the same time
/// (several hosts on one machine; runs one after another there are separate runs). Hosts of one run are merged
/// (<see cref="ResultsMerge"/>); separate runs are compared or make up an ESRP submission.
/// </summary>
public static class RunGrouping
{
    public static readonly TimeSpan SameRunWindow = TimeSpan.FromMinutes(10);

    public static List<List<TestResults>> Runs(IReadOnlyList<TestResults> results)
    {
        var runs = new List<List<TestResults>>();
        foreach (var r in results.OrderBy(r => r.Timeline.TestStartUtc))
        {
            var run = runs.FirstOrDefault(g => g[0].TestType == r.TestType
                && g.All(h => HostKey.Of(h) != HostKey.Of(r))
                && (Overlap(g[0], r) || (g.All(h => h.Environment.MachineName != r.Environment.MachineName)
                    && Start(r) - Start(g[0]) <= SameRunWindow)));
            if (run is null) runs.Add(new List<TestResults> { r });
            else run.Add(r);
        }
        return runs;

        static DateTime Start(TestResults r) => r.Timeline.CollectionStartUtc ?? r.Timeline.TestStartUtc;
        static DateTime End(TestResults r) => r.Timeline.CollectionEndUtc ?? r.Timeline.TestEndUtc;
        static bool Overlap(TestResults a, TestResults b) => Start(a) < End(b) && Start(b) < End(a);
    }
}
