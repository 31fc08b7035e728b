using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host.Commands;

/// <summary>Routes a request to its command. Each command writes its own events; the return value is the exit code.</summary>
internal static class CommandDispatcher
{
    public static int Execute(EngineRequest request, EventWriter events, string version, CancellationToken cancel)
    {
        return (request.Command ?? "").ToLowerInvariant() switch
        {
            HelperCommands.Version => ExitCodes.Ran,
            HelperCommands.Plan => PlanCommand.Execute(request, events),
            HelperCommands.Run => RunCommand.Execute(request, events, version, cancel),
            HelperCommands.Inspect => InspectCommandHost.Execute(request, events),
            HelperCommands.Report => ReportCommand.Execute(request, events),
            HelperCommands.Streams => StreamsCommand.Execute(request, events, cancel),
            HelperCommands.Verify => VerifyCommand.Execute(request, events, cancel),
            HelperCommands.Validation => ValidationCommand.Execute(request, events),
            _ => throw EngineException.InvalidArgument("UnknownCommand",
                $"Unknown command '{request.Command}': expected run, plan, streams, verify, inspect, report, validation or version."),
        };
    }
}
