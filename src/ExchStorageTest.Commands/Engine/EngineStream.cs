using System;
using ExchStorageTest.Json;

namespace ExchStorageTest.Engine
{
    /// <summary>
    /// An engine's event stream, under the one session every engine is driven through (<see cref="EngineSession"/>): a
    /// run on this computer and the agent on each host of a multi-host run. Events out, control lines in. It is the engine
    /// process (<see cref="ProcessEngineStream"/>); the module's unit tests put an engine of their own behind it, so the
    /// agent, the channel and the orchestrator run as they do over the network, in milliseconds.
    /// </summary>
    internal interface IEngineStream : IDisposable
    {
        string EngineVersion { get; }
        int ProcessId { get; }

        /// <summary>The next event, or null when <paramref name="timeout"/> passed first or the output ended (<paramref name="ended"/>).</summary>
        EngineEvent? Next(TimeSpan timeout, out bool ended);

        /// <summary>A control command (<c>stop</c>, <c>step {...}</c>, <c>end {...}</c>).</summary>
        void Send(string command, JsonObject? argument);

        /// <summary>The engine's exit code once its output ended (docs/protocol.md), or null when it did not exit in time.</summary>
        int? WaitForExit(TimeSpan timeout);

        /// <summary>The last lines the engine wrote to standard error.</summary>
        string ErrorTail { get; }

        /// <summary>
        /// Why the engine counts as lost though its output is open — silent past its heartbeat promise (docs/protocol.md,
        /// "Heartbeat") — in words that follow "the engine (process N)", or null while it keeps its promise.
        /// </summary>
        string? Lost { get; }

        /// <summary>How a process that exited ended, in words (its exit code, the signal or NTSTATUS it means).</summary>
        string DescribeExit();

        void Kill();
    }

    /// <summary>The engine process of this computer, started with the request on its control channel (<see cref="EngineProcess"/>).</summary>
    internal sealed class ProcessEngineStream : IEngineStream
    {
        private readonly EngineProcess _process;

        public ProcessEngineStream(JsonObject request) => _process = EngineProcess.Start(EngineLocator.Find(), request);

        public string EngineVersion => _process.EngineVersion;
        public int ProcessId => _process.ProcessId;
        public EngineEvent? Next(TimeSpan timeout, out bool ended) => _process.Next(timeout, out ended);
        public void Send(string command, JsonObject? argument) => _process.Send(command, argument);
        public int? WaitForExit(TimeSpan timeout) => _process.WaitForExit(timeout);
        public string ErrorTail => _process.ErrorTail;

        public string? Lost => _process.SilentTooLong
            ? string.Format(System.Globalization.CultureInfo.InvariantCulture, "wrote nothing for {0:0} s, though it promised an event at least every {1:0.###} s: it was frozen or hung, and was killed",
                _process.Silence.TotalSeconds, _process.HeartbeatSeconds)
            : null;

        public string DescribeExit() => _process.DescribeExit();
        public void Kill() => _process.Kill();
        public void Dispose() => _process.Dispose();
    }
}
