using ExchStorageTest.Engine.Planning;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// Hosts that run together agree instants (<see cref="RunSchedule"/>): each prepares, then waits here for the load start
/// — or, for backup and recovery, which measure from their first I/O, for the measuring start — so the windows line up
/// (within the hosts' clock skew, which the orchestrator measures and reports).
/// </summary>
internal static class AgreedStart
{
    public static void Wait(RunContext ctx)
    {
        var schedule = ctx.Plan.Schedule;
        bool measuresAtOnce = ctx.Plan.TestType is TestType.DatabaseBackup or TestType.SoftRecovery;
        if ((measuresAtOnce ? schedule.MeasureStartUtc : schedule.LoadStartUtc) is not DateTime at) return;
        var wait = at - DateTime.UtcNow;
        if (wait <= TimeSpan.Zero)
        {
            ctx.Log($"The agreed start {at:o} passed {-wait.TotalSeconds:F1} s before preparation ended; starting at once.");
            return;
        }
        ctx.BeginPhase("WaitingForStart");
        ctx.Log(measuresAtOnce || schedule.LeadSeconds == 0
            ? $"Waiting for the agreed start at {at:o} ({wait.TotalSeconds:F1} s) ..."
            : TestRunner.F($"Waiting for the agreed start at {at:o} ({wait.TotalSeconds:F1} s) ...; every host measures from {schedule.MeasureStartUtc:o}, after tuning and warm-up ({schedule.LeadSeconds:F0} s)."));
        while (DateTime.UtcNow < at)
        {
            ctx.Cancel.ThrowIfCancellationRequested();
            var left = at - DateTime.UtcNow;
            ctx.Events.Progress("WaitingForStart", 0, Math.Max(0, left.TotalSeconds), $"Start at {at:HH:mm:ss} UTC");
            ctx.Cancel.WaitHandle.WaitOne(NextWait(left));
        }
    }

    /// <summary>
    /// The next slice of the wait for the agreed start: at most a second (progress stays live), never negative.
    /// The instant can pass between the loop's check and this reading of the clock (a busy machine preempts the
    /// thread), and WaitOne reads a TimeSpan from -1 ms to -2 ms as -1, Infinite: that host then never started.
    /// </summary>
    internal static TimeSpan NextWait(TimeSpan left) =>
        left <= TimeSpan.Zero ? TimeSpan.Zero : left < TimeSpan.FromSeconds(1) ? left : TimeSpan.FromSeconds(1);
}
