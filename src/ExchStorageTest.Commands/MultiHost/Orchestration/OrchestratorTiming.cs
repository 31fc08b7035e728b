using System;

namespace ExchStorageTest.MultiHost
{
    /// <summary>
    /// The orchestrator's clock and waits: this computer's clock and the documented notices; the module's unit tests give
    /// a clock of their own and short waits, so a whole run of fake hosts takes milliseconds.
    /// </summary>
    internal sealed class OrchestratorTiming
    {
        public Func<DateTime> Now { get; set; } = () => DateTime.UtcNow;

        /// <summary>A start instant must leave this long to start every host.</summary>
        public TimeSpan MinimumNotice { get; set; } = MultiHostRun.MinimumNotice;

        /// <summary>How far ahead of its measuring instant (beyond settling) a capacity step is announced: the control line's trip to every host.</summary>
        public TimeSpan StepNotice { get; set; } = TimeSpan.FromSeconds(3);

        /// <summary>How long a host may leave the channel unanswered before it counts as lost.</summary>
        public TimeSpan Silence { get; set; } = RemoteEngine.DefaultSilence;
    }
}
