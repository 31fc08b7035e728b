using System.Collections.Concurrent;

namespace ExchStorageTest.Engine.Capacity;

/// <summary>What the caller of a caller-stepped search (<see cref="CapacityStepping.Caller"/>) asks next.</summary>
public abstract record CapacityCommand;

/// <summary>Run the next step with this many mailboxes, its window starting at this instant (the engine's clock, UTC).</summary>
public sealed record CapacityStepCommand(int Mailboxes, DateTime MeasureAtUtc) : CapacityCommand;

/// <summary>The caller's search ended, for this reason (<see cref="CapacityStopReasons"/>) and in these words.</summary>
public sealed record CapacityEndCommand(string StopReason, string Message) : CapacityCommand;

/// <summary>
/// The caller's steps on their way to the capacity run: the control channel's reader thread posts them, the run takes
/// them one at a time. A stop is not a command here: it is the run's cancellation, as for every other test.
/// </summary>
public sealed class CapacityControl
{
    private readonly BlockingCollection<CapacityCommand> _queue = new();

    public void Post(CapacityCommand command) => _queue.Add(command);

    /// <summary>The next command, waiting for it; null when the run is stopped (or the caller can send no more).</summary>
    public CapacityCommand? TryTake(CancellationToken cancel)
    {
        try
        {
            return _queue.Take(cancel);
        }
        catch (OperationCanceledException)
        {
            return null;
        }
        catch (InvalidOperationException)
        {
            return null; // completed: nothing more will come
        }
    }

    /// <summary>No more commands will come (the control channel ended).</summary>
    public void Complete() => _queue.CompleteAdding();
}
