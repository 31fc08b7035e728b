using ExchStorageTest.Engine.Capacity;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// The engine's commands, one per <see cref="EngineCommands"/> shape (a test holds the two lists together), and
/// the one way each runs: its checks, every error of which is a refusal, then its work.
/// </summary>
internal static class CommandDispatcher
{
    public static readonly IReadOnlyList<IEngineCommand> All = new IEngineCommand[]
    {
        new RunCommand(), new PlanCommand(), new StreamsCommand(), new VerifyCommand(), new InspectCommandAdapter(),
        new ReportCommand(), new ValidationCommand(), new CalculatorCommand(), new CaptureCommand(), new VersionCommand(),
    };

    /// <summary>Checks and runs <paramref name="request"/> (gated already, or built by the engine itself: demo, dsc set); the control channel's capacity steps (<c>--control-stdin</c>) go to a run.</summary>
    public static int Execute(EngineRequest request, EventWriter events, CancellationToken cancel, CapacityControl? capacitySteps = null)
    {
        var work = Check(request, events, capacitySteps);
        return work(cancel);
    }

    /// <summary>The command's checks alone: its work, or a refusal. Only a run takes the caller's capacity steps.</summary>
    public static CommandWork Check(EngineRequest request, EventWriter events, CapacityControl? capacitySteps = null)
    {
        var command = All.FirstOrDefault(c => string.Equals(c.Name, request.Command, StringComparison.OrdinalIgnoreCase))
            ?? throw EngineException.Refused(ErrorCodes.UnknownCommand, $"Unknown command '{request.Command}'.", request.Command);
        try
        {
            return command is RunCommand run ? run.Check(request, events, capacitySteps) : command.Check(request, events);
        }
        catch (EngineException ex)
        {
            throw ex.AsRefusal();
        }
    }
}

/// <summary>"version": the hello line is the answer.</summary>
internal sealed class VersionCommand : IEngineCommand
{
    public string Name => EngineCommands.Version;

    public CommandWork Check(EngineRequest request, EventWriter events) => _ => EngineExit.Ran;
}
