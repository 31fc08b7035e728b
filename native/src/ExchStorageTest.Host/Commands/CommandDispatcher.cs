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
            "version" => ExitCodes.Ran,
            "plan" => PlanCommand.Execute(request, events),
            "run" => RunCommand.Execute(request, events, version, cancel),
            "inspect" => InspectCommandHost.Execute(request, events),
            "report" => ReportCommand.Execute(request, events),
            "streams" => StreamsCommand.Execute(request, events, cancel),
            "verify" => VerifyCommand.Execute(request, events, cancel),
            "validation" => ValidationCommand.Execute(request, events),
            _ => throw EngineException.InvalidArgument("UnknownCommand",
                $"Unknown command '{request.Command}': expected run, plan, streams, verify, inspect, report, validation or version."),
        };
    }
}
