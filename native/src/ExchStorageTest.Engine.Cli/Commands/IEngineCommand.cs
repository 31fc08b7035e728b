using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>
/// A command of the engine (docs/protocol.md). Its request has passed the gate (Requests.RequestGate); the command
/// first checks what only it can check (ranges, folders, space, files in the way) and hands back its work. Whatever
/// the check throws is a refusal (exit 2): it runs before anything is written.
/// </summary>
internal interface IEngineCommand
{
    /// <summary>The name a request gives in <c>command</c> (<see cref="EngineCommands"/>).</summary>
    string Name { get; }

    /// <summary>Refuses the request or returns the work it asks for.</summary>
    CommandWork Check(EngineRequest request, EventWriter events);
}

/// <summary>A checked command's work: writes its events, returns the exit code (<see cref="EngineExit"/>).</summary>
internal delegate int CommandWork(CancellationToken cancel);
