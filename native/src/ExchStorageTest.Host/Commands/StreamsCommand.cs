using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;

namespace ExchStorageTest.Host.Commands;

/// <summary>"streams": the raw disk-subsystem mode (a named mix of streams for a duration), reported like a run.</summary>
internal static class StreamsCommand
{
    public static int Execute(EngineRequest request, EventWriter events, CancellationToken cancel)
    {
        string output = string.IsNullOrWhiteSpace(request.OutputPath)
            ? Path.Combine(Path.GetDirectoryName(Path.GetFullPath(request.Streams.FirstOrDefault()?.Path ?? "."))!, "Results")
            : Path.GetFullPath(request.OutputPath);
        var results = StreamMixRunner.Run(request.Streams, request.DurationSeconds ?? 60, request.SampleIntervalSeconds,
            request.ContinueOnError, request.AllowBufferedIo, output, events, cancel, request.PinWorkerThreads);
        var reports = ReportFiles.WriteDefault(results);
        ResultEvent.Write(events, results, reports);
        return results.Completion == "Stopped" ? ExitCodes.Stopped : ExitCodes.Ran;
    }
}
