using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Json;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// What the host agent answers to each line of its input (<see cref="HostAgent"/>), as one JSON text: the engine's
    /// events that arrived since the last answer, in order, exactly as the engine wrote them; once the engine has exited
    /// and every event is in, its exit code (docs/protocol.md) and the end of its standard error; in the first answer, the
    /// engine's version and process id. One answer a line keeps the two ends in step: the orchestrator knows the host is
    /// alive while answers come, and sends its next line when the last is answered.
    /// </summary>
    internal sealed class HostAnswer
    {
        private const string EventsField = "events";
        private const string ExitCodeField = "exitCode";
        private const string ErrorTailField = "errorTail";
        private const string EngineVersionField = "engineVersion";
        private const string ProcessIdField = "processId";
        private const string LostField = "lost";

        public HostAnswer(IReadOnlyList<JsonObject> events, int? exitCode = null, string? errorTail = null, string? engineVersion = null, int? processId = null, string? lost = null)
        {
            Lost = lost;
            Events = events;
            ExitCode = exitCode;
            ErrorTail = errorTail;
            EngineVersion = engineVersion;
            ProcessId = processId;
        }

        public IReadOnlyList<JsonObject> Events { get; }

        /// <summary>Set once the engine has exited (-1: its output ended but it did not exit in time); then no event follows.</summary>
        public int? ExitCode { get; }

        public string? ErrorTail { get; }

        /// <summary>The first answer's: which engine runs on the host.</summary>
        public string? EngineVersion { get; }

        public int? ProcessId { get; }

        /// <summary>Why the host's agent gave its engine up (silent past its heartbeat, or killed or crashed: an exit outside 0-3), with the exit.</summary>
        public string? Lost { get; }

        public string ToJson()
        {
            var answer = new JsonObject().Set(EventsField, Events.Cast<object?>().ToList());
            if (ExitCode.HasValue) answer.Set(ExitCodeField, ExitCode.Value);
            if (!string.IsNullOrEmpty(ErrorTail)) answer.Set(ErrorTailField, ErrorTail);
            if (EngineVersion != null) answer.Set(EngineVersionField, EngineVersion);
            if (ProcessId.HasValue) answer.Set(ProcessIdField, ProcessId.Value);
            if (Lost != null) answer.Set(LostField, Lost);
            return JsonWriter.Write(answer);
        }

        /// <summary>An answer as it arrived; null when it is not one (a host whose module speaks another version).</summary>
        public static HostAnswer? Parse(string? text)
        {
            if (string.IsNullOrEmpty(text)) return null;
            JsonObject? answer;
            try
            {
                answer = JsonReader.Parse(text!) as JsonObject;
            }
            catch (System.FormatException)
            {
                return null;
            }
            if (answer == null || !answer.Contains(EventsField)) return null;
            double? exit = answer.GetNumber(ExitCodeField);
            double? process = answer.GetNumber(ProcessIdField);
            return new HostAnswer(answer.GetArray(EventsField).OfType<JsonObject>().ToList(), exit.HasValue ? (int)exit.Value : (int?)null,
                answer.GetString(ErrorTailField), answer.GetString(EngineVersionField), process.HasValue ? (int)process.Value : (int?)null,
                answer.GetString(LostField));
        }
    }
}
