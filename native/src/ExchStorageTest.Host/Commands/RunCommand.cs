using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Host.Commands;

/// <summary>Plans, runs and reports a test; the result event carries the summary the module turns into a TestResult.</summary>
internal static class RunCommand
{
    public static int Execute(EngineRequest request, EventWriter events, string version, CancellationToken cancel)
    {
        var plan = TestPlanner.Plan(request);
        var results = TestRunner.Run(plan, events, cancel);
        return ResultEvent.Finish(events, results);
    }
}
