namespace ExchStorageTest.Engine.Capacity;

/// <summary>
/// How a capacity search spends its time bound (docs/capacity.md): one cache warm-up, then steps of settling plus a
/// measured window. The window is the bound's share for <see cref="PlannedSteps"/> steps, never shorter than
/// <see cref="MinimumWindowSamples"/> sample intervals, so every rule (the maximum rules judge the highest sample
/// average) has samples to judge. A step starts only while it ends within the bound, so the search stops itself.
/// </summary>
public sealed record CapacityTiming(double BoundSeconds, double WarmupSeconds, double SettleSeconds, double WindowSeconds)
{
    /// <summary>Doubling from the profile's count to ~16x and bisecting to 5% takes about a dozen steps.</summary>
    public const int PlannedSteps = 12;

    /// <summary>A window shorter than this many sample intervals leaves the maximum rules too few sample averages.</summary>
    public const int MinimumWindowSamples = 4;

    /// <summary>One step: settling at its rate, then its window.</summary>
    public double StepSeconds => SettleSeconds + WindowSeconds;

    /// <summary>The most steps the bound holds after the warm-up.</summary>
    public int StepsThatFit => (int)Math.Floor((BoundSeconds - WarmupSeconds) / StepSeconds + 1e-9);

    /// <summary>The timing of a bound, sample interval and warm-up; null when fewer than two steps fit (the plan refuses it).</summary>
    public static CapacityTiming? For(double boundSeconds, double sampleIntervalSeconds, double warmupSeconds)
    {
        // Settling lets the sessions' schedule and the device queues reach the step's rate: a sample interval, 2 to 10 s.
        double settle = Math.Clamp(sampleIntervalSeconds, 2, 10);
        double share = (boundSeconds - warmupSeconds) / PlannedSteps - settle;
        double window = Math.Max(MinimumWindowSamples * sampleIntervalSeconds, share);
        var timing = new CapacityTiming(boundSeconds, warmupSeconds, settle, Math.Round(window, 3));
        return timing.StepsThatFit >= 2 ? timing : null;
    }

    /// <summary>The shortest bound that holds the warm-up and two steps at this sample interval.</summary>
    public static double MinimumBound(double sampleIntervalSeconds, double warmupSeconds) =>
        warmupSeconds + 2 * (Math.Clamp(sampleIntervalSeconds, 2, 10) + MinimumWindowSamples * sampleIntervalSeconds);

    /// <summary>Whether a step started <paramref name="elapsedSeconds"/> after the search's load start still ends within the bound.</summary>
    public bool Fits(double elapsedSeconds) => elapsedSeconds + StepSeconds <= BoundSeconds + 1e-6;
}
