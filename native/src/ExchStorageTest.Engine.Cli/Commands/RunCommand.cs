using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>Plans, runs and reports a test; the result event carries the summary the module turns into a TestResult.</summary>
internal sealed class RunCommand : IEngineCommand
{
    public string Name => EngineCommands.Run;

    public CommandWork Check(EngineRequest request, EventWriter events) => Check(request, events, capacitySteps: null);

    /// <summary>With the control channel's capacity steps (<c>--control-stdin</c>): a capacity search may be stepped by its caller.</summary>
    public CommandWork Check(EngineRequest request, EventWriter events, CapacityControl? capacitySteps)
    {
        var plan = TestPlanner.Plan(request);
        return cancel => ResultEvent.Finish(events, TestRunner.Run(plan, events, cancel, capacitySteps));
    }
}
