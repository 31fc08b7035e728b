using System.Collections.Generic;
using System.Linq;
using ExchStorageTest.Contract;

namespace ExchStorageTest.Engine
{
    /// <summary>What an engine run left: its events other than log and progress, and how it ended.</summary>
    internal sealed class EngineOutcome
    {
        public EngineOutcome(IReadOnlyList<EngineEvent> events, int exitCode)
        {
            Events = events;
            ExitCode = exitCode;
        }

        public IReadOnlyList<EngineEvent> Events { get; }

        /// <summary>The engine's exit code (<see cref="EngineExit"/>; <see cref="EngineExit.DidNotExit"/> when it was given up).</summary>
        public int ExitCode { get; }

        public bool Stopped => ExitCode == EngineExit.Stopped;

        public IEnumerable<EngineEvent> OfType(string type) => Events.Where(e => e.Is(type));

        public EngineEvent? First(string type) => Events.FirstOrDefault(e => e.Is(type));
    }
}
