namespace ExchStorageTest.Engine.Protocol;

/// <summary>
/// Keeps the engine's heartbeat promise (<see cref="Heartbeat"/>, docs/protocol.md "Heartbeat"): a thread of its own
/// writes a <c>heartbeat</c> event whenever nothing else was written for an interval, so the promise holds through every
/// quiet phase (database creation, report rendering, a start instant hours away, a caller-stepped search waiting for
/// its next step) without any of them having to remember it.
/// </summary>
/// <remarks>
/// The heartbeat speaks for the command, not only for the process: when the thread running the command has died without the process ending (under Wine a faulted exception dispatch can
/// kill a thread and leave the process a zombie with its pipes open), the heartbeat falls silent, and the caller's
/// silence limit kills the process instead of waiting forever.
/// </remarks>
public sealed class HeartbeatThread : IDisposable
{
    private readonly EventWriter _events;
    private readonly int _intervalMs;
    private readonly OsThreadWatch _command;
    private readonly ManualResetEventSlim _stop = new(false);
    private readonly Thread _thread;

    private HeartbeatThread(EventWriter events, double intervalSeconds, OsThreadWatch command)
    {
        _events = events;
        _intervalMs = Math.Max(1, (int)Math.Round(intervalSeconds * 1000));
        _command = command;
        // Highest priority: a busy machine (our own I/O workers included) must not starve the one thread that says we live.
        _thread = new Thread(Beat) { IsBackground = true, Name = "heartbeat", Priority = ThreadPriority.Highest };
    }

    /// <summary>Starts beating for the command the calling thread runs; it stops when that thread ends.</summary>
    public static HeartbeatThread Start(EventWriter events, double intervalSeconds)
    {
        var heartbeat = new HeartbeatThread(events, intervalSeconds, OsThreadWatch.ForCurrentThread());
        heartbeat._thread.Start();
        return heartbeat;
    }

    /// <summary>How long to wait before the next look, given how long the writer has been quiet: 0 means beat now.</summary>
    public static int NextWaitMilliseconds(long quietMilliseconds, int intervalMilliseconds) =>
        quietMilliseconds >= intervalMilliseconds ? 0 : (int)(intervalMilliseconds - quietMilliseconds);

    private void Beat()
    {
        int wait = _intervalMs;
        while (!_stop.Wait(wait))
        {
            if (!_command.IsAlive) return;
            wait = NextWaitMilliseconds(_events.QuietMilliseconds, _intervalMs);
            if (wait > 0) continue;
            _events.Heartbeat();
            wait = _intervalMs;
        }
    }

    /// <summary>Waits for the heartbeat thread to end (after <see cref="Dispose"/>, or once its command's thread died).</summary>
    public bool WaitEnded(TimeSpan timeout) => _thread.Join(timeout);

    public void Dispose()
    {
        _stop.Set();
        if (_thread.Join(1000)) _command.Dispose();
    }
}
