using System;
using System.Globalization;

namespace ExchStorageTest.Contract
{
    /// <summary>
    /// The engine's liveness promise (docs/protocol.md, "Heartbeat"), defined once for both halves. The engine writes an
    /// event at least every <see cref="DefaultSeconds"/> from a thread of its own, whatever its command is doing (creating
    /// databases, rendering reports, waiting for a start instant hours away or for a caller's next capacity step), and says
    /// so in its hello event (<see cref="EventFields.Hello.HeartbeatSeconds"/>). The module holds it to that: an engine
    /// silent for <see cref="SilenceLimit"/> is taken for hung (frozen, or a zombie whose pipes stay open), killed, and its
    /// command fails with <see cref="ErrorCodes.EngineNotResponding"/>. An engine whose hello promises nothing is only
    /// waited for to exit.
    /// </summary>
    public static class Heartbeat
    {
        /// <summary>The interval the engine keeps unless <see cref="Variable"/> sets another.</summary>
        public const double DefaultSeconds = 5;

        /// <summary>
        /// Heartbeats missed before the module gives up: generous, because a false alarm kills a run that may have measured
        /// for hours, while a real hang is only made to wait this long.
        /// </summary>
        public const int MissedBeforeHung = 6;

        /// <summary>
        /// Environment variable that sets the engine's interval in seconds (<see cref="MinimumSeconds"/> to <see cref="MaximumSeconds"/>):
        /// for tests that freeze an engine and must not wait the production limit. The engine inherits it from the
        /// PowerShell that starts it; the module learns the value from the hello event, never from this variable.
        /// </summary>
        public const string Variable = "EXCHSTORAGETEST_HEARTBEAT_SECONDS";

        public const double MinimumSeconds = 0.2;
        public const double MaximumSeconds = 60;

        /// <summary>The interval the engine keeps for the variable's <paramref name="text"/>: the default when unset, unreadable or out of range.</summary>
        public static double IntervalSeconds(string? text) =>
            double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out double seconds) && seconds >= MinimumSeconds && seconds <= MaximumSeconds
                ? seconds
                : DefaultSeconds;

        /// <summary>How long the module lets an engine that promised <paramref name="heartbeatSeconds"/> stay silent.</summary>
        public static TimeSpan SilenceLimit(double heartbeatSeconds) => TimeSpan.FromSeconds(heartbeatSeconds * MissedBeforeHung);
    }
}
