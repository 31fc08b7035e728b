using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host.Commands;

/// <summary>"streams": the raw disk-subsystem mode (a named mix of streams for a duration), reported like a run.</summary>
internal static class StreamsCommand
{
    public static int Execute(EngineRequest request, EventWriter events, CancellationToken cancel)
    {
        var plan = StreamMixPlan.From(request);
        var results = StreamMixRunner.Run(plan, events, cancel);
        return ResultEvent.Finish(events, results);
    }
}
