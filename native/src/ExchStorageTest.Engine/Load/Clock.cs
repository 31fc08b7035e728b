using System.Diagnostics;

namespace ExchStorageTest.Engine.Load;

/// <summary>The one time base of the I/O loop: Stopwatch ticks (1 ns on Linux, QPC on Windows).</summary>
internal static class Clock
{
    public static readonly long Frequency = Stopwatch.Frequency;
    private static readonly double NsPerTick = 1e9 / Stopwatch.Frequency;

    public static long Now => Stopwatch.GetTimestamp();

    public static long ToNs(long ticks) => Frequency == 1_000_000_000 ? ticks : (long)(ticks * NsPerTick);

    public static long FromSeconds(double seconds) => (long)(seconds * Frequency);
}
