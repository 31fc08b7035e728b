using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Engine.Cli.Commands;

/// <summary>"streams": the raw disk-subsystem mode (a named mix of streams for a duration), reported like a run.</summary>
internal sealed class StreamsCommand : IEngineCommand
{
    public string Name => EngineCommands.Streams;

    public CommandWork Check(EngineRequest request, EventWriter events)
    {
        var plan = StreamMixPlan.From(request);
        return cancel => ResultEvent.Finish(events, StreamMixRunner.Run(plan, events, cancel));
    }
}
