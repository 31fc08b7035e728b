using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Reports;

/// <summary>
/// Which results are hosts of one run: only what was one run is merged (<see cref="ResultsMerge"/>) into a deployment's
/// aggregate, rates summed. That is results of one test type that record the same <see cref="TestResults.RunId"/> (the hosts
/// of a multi-host or start-file run, on different hosts, <see cref="HostKey"/>), or, when the user names the results one
/// deployment (<c>deployment</c>), the results of one test type. Everything else is a run of its own: two runs of one host
/// minutes apart, or of two hosts that merely ran at the same time, are compared or make up an ESRP submission, never added
/// up. (Runs were once grouped by a ten-minute window of their starts; it added separate runs of one machine's two volumes
/// into "2 servers".)
/// </summary>
public static class RunGrouping
{
    /// <param name="results">The results, in any order: the runs come out in order of their starts.</param>
    /// <param name="deployment">The user named the results one deployment: each test type's results merge, each host once.</param>
    public static List<List<TestResults>> Runs(IReadOnlyList<TestResults> results, bool deployment = false)
    {
        var runs = new List<List<TestResults>>();
        foreach (var r in results.OrderBy(r => r.Timeline.TestStartUtc))
        {
            var run = deployment ? runs.FirstOrDefault(g => g[0].TestType == r.TestType)
                : r.RunId is null ? null
                : runs.FirstOrDefault(g => g[0].TestType == r.TestType && g[0].RunId == r.RunId && g.All(h => HostKey.Of(h) != HostKey.Of(r)));
            if (deployment && run is not null && run.FirstOrDefault(h => HostKey.Of(h) == HostKey.Of(r)) is { } twice)
                throw EngineException.Refused(ErrorCodes.DeploymentHostRepeated,
                    $"'{r.SavedPath}' and '{twice.SavedPath}' are two {r.TestType} runs of one host ({r.Environment.MachineName}, the same database folders): " +
                    "a deployment has each host once. Name the results of one run of each host, or leave out the deployment switch to report the runs separately.",
                    r.SavedPath ?? r.TestId);
            if (run is null) runs.Add(new List<TestResults> { r });
            else run.Add(r);
        }
        return runs;
    }
}
