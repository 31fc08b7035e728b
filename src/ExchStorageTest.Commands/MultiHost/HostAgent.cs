using System;
using System.Collections.Generic;
using System.IO;
using ExchStorageTest.Contract;
using ExchStorageTest.Helper;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The module's part on each host of a multi-host run: the host's end of the one channel (docs/module.md, "Multi-host
    /// runs"). It runs what a run on this computer runs — the engine with the request, on its control channel — and relays
    /// the engine's event stream as it arrives. The orchestrator's remote pipeline (<see cref="Script"/>) starts it with
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

        private readonly IEngineStream _engine;
        private readonly TimeSpan _pollWait;
        private int? _exitCode;
        private string? _lost;
        private bool _introduced;

        /// <param name="engine">The engine's stream.</param>
        /// <param name="pollWait">How long an answer waits for the first event (<see cref="PollWait"/>; a test's is short).</param>
        internal HostAgent(IEngineStream engine, TimeSpan? pollWait = null)
        {
            _engine = engine;
            _pollWait = pollWait ?? PollWait;
        }

        /// <summary>The engine this host would run, or null when the module has none for this platform.</summary>
        public static string? EnginePath()
        {
            string path = HelperLocator.ExpectedPath;
            return File.Exists(path) ? path : null;
        }

        /// <summary>Starts this host's engine with the orchestrator's request (a plan or a run).</summary>
        public static HostAgent Start(string requestJson) => new HostAgent(new ProcessEngineStream(Request(requestJson)));

        /// <summary>The orchestrator's request, checked to be one a host runs: a plan or a run.</summary>
        internal static JsonObject Request(string requestJson)
        {
            var request = JsonReader.Parse(requestJson) as JsonObject;
            string? command = request?.GetString(RequestFields.Command);
            if (request == null || (command != HelperCommands.Plan && command != HelperCommands.Run))
                throw new ArgumentException($"A host runs plan and run requests; this one is '{command}'.", nameof(requestJson));
            return request;
        }

        /// <summary>One line from the orchestrator: a control command is passed to the engine; the answer is the events since the last one.</summary>
        public string Take(string line)
        {
            string trimmed = (line ?? "").Trim();
            if (trimmed.Length > 0 && trimmed != Poll && _exitCode == null)
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
            if (_exitCode == null) _engine.Send(ControlCommands.Stop, null);
            var answers = new List<string>();
            DateTime deadline = DateTime.UtcNow + HelperProcess.StopGrace;
            do
            {
                answers.Add(Answer(_pollWait).ToJson());
            }
            while (_exitCode == null && DateTime.UtcNow < deadline);
            return answers.ToArray();
        }

        private HostAnswer Answer(TimeSpan wait)
        {
            var events = new List<JsonObject>();
            bool ended = false;
            if (_exitCode == null)
            {
                HelperEvent? next = _engine.Next(wait, out ended);
                while (next != null)
                {
                    events.Add(next.Fields);
                    if (events.Count >= MaximumEvents) break;
                    next = _engine.Next(TimeSpan.Zero, out ended);
                }
                if (!ended && events.Count == 0 && _engine.Lost is string silent)
                {
                    // The rule a run on this computer holds its engine to: silent past its heartbeat is lost, and killed.
                    _lost = silent;
                    _engine.Kill();
                    _exitCode = _engine.WaitForExit(TimeSpan.FromSeconds(5)) ?? -1;
                }
                else if (ended)
                {
                    _exitCode = _engine.WaitForExit(HelperProcess.StopGrace) ?? -1;
                    // Exit codes 0-3 are the protocol's; any other is an engine that was killed or crashed.
                    if (_exitCode < 0 || _exitCode > 3)
                    {
                        if (_exitCode < 0) _engine.Kill();
                        _lost = $"its ExchStorageTest engine (process {_engine.ProcessId}) {(_exitCode < 0 ? "closed its output but did not exit, and was killed" : _engine.DescribeExit())} before it finished its command";
                    }
                }
            }
            string? version = null;
            int? processId = null;
            if (!_introduced)
            {
                _introduced = true;
                version = _engine.EngineVersion;
                processId = _engine.ProcessId;
            }
            return new HostAnswer(events, _exitCode, _exitCode.HasValue && _exitCode != 0 && _exitCode != 3 ? _engine.ErrorTail : null, version, processId, _lost);
        }

        public void Dispose() => _engine.Dispose();
    }
}
