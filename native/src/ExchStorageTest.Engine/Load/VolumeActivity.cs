namespace ExchStorageTest.Engine.Load;

/// <summary>
/// One worker's I/O on one volume, for the stall watch and the volumes' one-second series (docs/failure-mode.md). Only the
/// worker thread writes it: <see cref="InFlight"/>, <see cref="BusySinceTicks"/> and <see cref="LastCompletionTicks"/>
/// with volatile writes the watch reads without a lock; the current second's sums under the worker's metrics lock, which
/// the driver takes to collect finished seconds. Nothing here is shared between workers, so no completion contends.
/// </summary>
internal sealed class VolumeActivity
{
    public int InFlight;
    /// <summary>When <see cref="InFlight"/> last went from 0 to 1: a volume idle before it was not stalled.</summary>
    public long BusySinceTicks;
    public long LastCompletionTicks;

    // The second being summed (index from the driver's seconds origin; -1: none yet).
    public long Second = -1;
    public long Operations;
    public long LatencyNs;
    public long MaxLatencyNs;
    public long Errors;

    /// <summary>Moves the summed second (if any) to <paramref name="done"/> and starts <paramref name="second"/>.</summary>
    public void Roll(int volume, long second, List<VolumeSecondSum> done)
    {
        if (Second >= 0 && (Operations > 0 || Errors > 0)) done.Add(new VolumeSecondSum(volume, Second, Operations, LatencyNs, MaxLatencyNs, Errors));
        Second = second;
        Operations = LatencyNs = MaxLatencyNs = Errors = 0;
    }
}

/// <summary>What completed on one volume in one second (of one worker, or merged over all).</summary>
public readonly record struct VolumeSecondSum(int Volume, long Second, long Operations, long LatencyNs, long MaxLatencyNs, long Errors)
{
    public VolumeSecondSum Plus(VolumeSecondSum o) =>
        new(Volume, Second, Operations + o.Operations, LatencyNs + o.LatencyNs, Math.Max(MaxLatencyNs, o.MaxLatencyNs), Errors + o.Errors);
}

/// <summary>One stall the watch saw, in the driver's clock ticks: I/O outstanding on the volume and nothing completing.</summary>
public readonly record struct StallSpan(int Volume, long StartTicks, long EndTicks, int InFlight, bool Ended);
