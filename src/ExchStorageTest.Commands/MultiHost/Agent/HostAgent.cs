using System;
using System.Collections.Generic;
using System.IO;
using ExchStorageTest.Contract;
using ExchStorageTest.Engine;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The module's part on each host of a multi-host run, the only code that runs there (docs/module.md, "Multi-host
    /// runs"). It runs what a run on this computer runs — the engine with the request, on its control channel, driven
    /// through the same <see cref="EngineSession"/> (its heartbeat and exit rules) — and relays the engine's event
    /// stream as it arrives. The orchestrator's remote pipeline (<see cref="Script"/>) starts it with
    /// the request JSON (a plan, a test, a capacity search stepped by the orchestrator) and writes lines to its input:
    /// each is a control command for the engine (<c>stop</c>, <c>step {...}</c>, <c>end {...}</c>) or <see cref="Poll"/>;
    /// each is answered with one <see cref="HostAnswer"/>, the events that arrived meanwhile (waiting up to
    /// <see cref="PollWait"/> for the first), so events flow while the orchestrator polls and a host that stops answering
    /// is known to be lost. The end of the input stops an engine still running, as the protocol says for its own input.
    /// Text in and out, so nothing depends on how a remote session serializes objects. Public because the remote script
    /// calls it.
    /// </summary>
    public sealed class HostAgent : IDisposable
    {
        /// <summary>The remote pipeline: the engine starts in begin, each input line is answered in process, the end of input ends it.</summary>
        internal const string Script = @"
param([string] $Request, [Parameter(ValueFromPipeline = $true)][string] $Line)
begin { $agent = [ExchStorageTest.MultiHost.HostAgent]::Start($Request) }
process { $agent.Take($Line) }
end { $agent.Finish(); $agent.Dispose() }";

        /// <summary>The line that asks only for the events so far (never passed to the engine, which would ignore it anyway).</summary>
        internal const string Poll = "poll";

        /// <summary>How long an answer waits for the first event: the pace of the polling when nothing happens.</summary>
        internal static readonly TimeSpan PollWait = TimeSpan.FromMilliseconds(500);

        /// <summary>The most events one answer carries (a burst is answered over several lines).</summary>
        private const int MaximumEvents = 256;

        private readonly EngineSession _engine;
        private readonly TimeSpan _pollWait;
        private bool _introduced;

        /// <param name="engine">The engine's stream.</param>
        /// <param name="pollWait">How long an answer waits for the first event (<see cref="PollWait"/>; a test's is short).</param>
        internal HostAgent(IEngineStream engine, TimeSpan? pollWait = null)
        {
            _engine = new EngineSession(engine);
            _pollWait = pollWait ?? PollWait;
        }

        /// <summary>The engine this host would run, or null when the module has none for this platform.</summary>
        public static string? EnginePath()
        {
            string path = EngineLocator.ExpectedPath;
            return File.Exists(path) ? path : null;
        }

        /// <summary>Starts this host's engine with the orchestrator's request (a plan or a run).</summary>
        public static HostAgent Start(string requestJson) => new HostAgent(new ProcessEngineStream(Request(requestJson)));

        /// <summary>The orchestrator's request, checked to be one a host runs: a plan or a run.</summary>
        internal static JsonObject Request(string requestJson)
        {
            var request = JsonReader.Parse(requestJson) as JsonObject;
            string? command = request?.GetString(RequestFields.Command);
            if (request == null || (command != EngineCommands.Plan && command != EngineCommands.Run))
                throw new ArgumentException($"A host runs plan and run requests; this one is '{command}'.", nameof(requestJson));
            return request;
        }

        /// <summary>One line from the orchestrator: a control command is passed to the engine; the answer is the events since the last one.</summary>
        public string Take(string line)
        {
            string trimmed = (line ?? "").Trim();
            if (trimmed.Length > 0 && trimmed != Poll && !_engine.Ended)
            {
                int space = trimmed.IndexOf(' ');
                string command = space < 0 ? trimmed : trimmed.Substring(0, space);
                JsonObject? argument = space < 0 ? null : JsonReader.Parse(trimmed.Substring(space + 1)) as JsonObject;
                _engine.Send(command, argument);
            }
            return Answer(_pollWait).ToJson();
        }

        /// <summary>The end of the orchestrator's input: an engine still running is stopped; every event left, with the exit code.</summary>
        public string[] Finish()
        {
            _engine.Stop();
            var answers = new List<string>();
            DateTime deadline = DateTime.UtcNow + EngineSession.StopGrace;
            do
            {
                answers.Add(Answer(_pollWait).ToJson());
            }
            while (!_engine.Ended && DateTime.UtcNow < deadline);
            return answers.ToArray();
        }

        /// <summary>
        /// The events that arrived, up to <see cref="MaximumEvents"/>; once the session has ended (the engine exited, or was
        /// given up as a run on this computer gives it up), its exit code, why it was lost and, unless it ran or stopped, the
        /// end of its standard error.
        /// </summary>
        private HostAnswer Answer(TimeSpan wait)
        {
            var events = new List<JsonObject>();
            for (EngineEvent? next = _engine.Next(wait); next != null; next = _engine.Next(TimeSpan.Zero))
            {
                events.Add(next.Fields);
                if (events.Count >= MaximumEvents) break;
            }
            string? version = null;
            int? processId = null;
            if (!_introduced)
            {
                _introduced = true;
                version = _engine.EngineVersion;
                processId = _engine.ProcessId;
            }
            EngineEnd end = _engine.Judge(answered: true);
            string? lost = _engine.Lost == null ? null : $"its ExchStorageTest engine (process {_engine.ProcessId}) {_engine.Lost}";
            return new HostAnswer(events, _engine.ExitCode, _engine.Ended && (end == EngineEnd.Failed || end == EngineEnd.Lost) ? _engine.ErrorTail : null, version, processId, lost);
        }

        public void Dispose() => _engine.Dispose();
    }
}
