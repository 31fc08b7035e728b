using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host.Commands;

/// <summary>
/// The helper's commands, one per <see cref="HelperCommands"/> shape (a test holds the two lists together), and
/// the one way each runs: its checks, every error of which is a refusal, then its work.
/// </summary>
internal static class CommandDispatcher
{
    public static readonly IReadOnlyList<IHelperCommand> All = new IHelperCommand[]
    {
        new RunCommand(), new PlanCommand(), new StreamsCommand(), new VerifyCommand(), new InspectCommandHost(),
        new ReportCommand(), new ValidationCommand(), new VersionCommand(),
    };

    /// <summary>Checks and runs <paramref name="request"/> (gated already, or built by the helper itself: demo, dsc set).</summary>
    public static int Execute(EngineRequest request, EventWriter events, CancellationToken cancel)
    {
        var work = Check(request, events);
        return work(cancel);
    }

    /// <summary>The command's checks alone: its work, or a refusal.</summary>
    public static CommandWork Check(EngineRequest request, EventWriter events)
    {
        var command = All.FirstOrDefault(c => string.Equals(c.Name, request.Command, StringComparison.OrdinalIgnoreCase))
            ?? throw EngineException.Refused(ErrorCodes.UnknownCommand, $"Unknown command '{request.Command}'.", request.Command);
        try
        {
            return command.Check(request, events);
        }
        catch (EngineException ex)
        {
            throw ex.AsRefusal();
        }
    }
}

/// <summary>"version": the hello line is the answer.</summary>
internal sealed class VersionCommand : IHelperCommand
{
    public string Name => HelperCommands.Version;

    public CommandWork Check(EngineRequest request, EventWriter events) => _ => ExitCodes.Ran;
}
