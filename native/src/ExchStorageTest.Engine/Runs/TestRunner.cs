using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Runs a planned test end to end: prepare databases, (tune), warm up, measure, shut down, judge,
/// write the results file. Progress and samples go to the event stream; the results document is
/// returned and saved even when the run is stopped or fails part-way.
/// </summary>
public static class TestRunner
{
    public static TestResults Run(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        throw new EngineException("NotImplemented", ErrorCategories.NotImplemented, "The test runner is being built.");
    }
}
