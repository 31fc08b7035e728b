using System.Collections.Generic;
using System.Linq;

namespace ExchStorageTest.Helper
{
    /// <summary>What a helper run left: its events other than log and progress, and how it ended.</summary>
    internal sealed class HelperOutcome
    {
        public HelperOutcome(IReadOnlyList<HelperEvent> events, int exitCode)
        {
            Events = events;
            ExitCode = exitCode;
        }

        public IReadOnlyList<HelperEvent> Events { get; }

        /// <summary>0 ran, 1 error, 2 refused, 3 stopped (docs/protocol.md).</summary>
        public int ExitCode { get; }

        public bool Stopped => ExitCode == 3;

        public IEnumerable<HelperEvent> OfType(string type) => Events.Where(e => e.Is(type));

        public HelperEvent? First(string type) => Events.FirstOrDefault(e => e.Is(type));
    }
}
