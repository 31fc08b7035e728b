namespace ExchStorageTest.Engine.Load;

/// <summary>
/// Watches every volume for stalls (docs/failure-mode.md): I/O outstanding and nothing completing for at least the detect
/// limit. A thread of its own polls the workers' <see cref="VolumeActivity"/> every 20 ms, so a volume that never answers
/// again is still seen (the workers themselves only learn of a completion). A stall starts at the volume's last
/// completion (or, when it was idle, at its first I/O since) and ends at the first completion after it; the poll only
/// decides when to look, so the figures are the workers' own instants, not the poll's.
/// </summary>
internal sealed class StallWatch : IDisposable
{
    private const int PollMilliseconds = 20;
    private readonly IReadOnlyList<Worker> _workers;
    private readonly int _volumes;
    private readonly long _detectTicks;
    private readonly Action<StallSpan, bool>? _notify;
    private readonly List<StallSpan> _spans = new();
    private readonly long[] _stallStart;
    private readonly int[] _stallInFlight;
    private readonly Thread _thread;
    private volatile bool _stop;

    /// <param name="workers">The driver's workers, whose <see cref="Worker.Volumes"/> are read.</param>
    /// <param name="volumes">How many volumes the driver's files lie on.</param>
    /// <param name="detectSeconds">The shortest stall found (<see cref="FaultRules.StallDetectSeconds"/>).</param>
    /// <param name="notify">Told of each stall as it is found (false) and as it ends (true); called on the watch's thread.</param>
    public StallWatch(IReadOnlyList<Worker> workers, int volumes, double detectSeconds, Action<StallSpan, bool>? notify)
    {
        _workers = workers;
        _volumes = volumes;
        _detectTicks = Clock.FromSeconds(detectSeconds);
        _notify = notify;
        _stallStart = new long[volumes];
        _stallInFlight = new int[volumes];
        Array.Fill(_stallStart, -1);
        _thread = new Thread(Run) { IsBackground = true, Name = "stall-watch" };
    }

    public void Start() => _thread.Start();

    /// <summary>Stops watching; a volume still stalled is recorded as not ended, up to now. Returns every stall seen.</summary>
    public IReadOnlyList<StallSpan> Finish()
    {
        _stop = true;
        if (_thread.IsAlive) _thread.Join();
        long now = Clock.Now;
        lock (_spans)
        {
            for (int v = 0; v < _volumes; v++)
                if (_stallStart[v] >= 0) Close(v, now, ended: false);
            return _spans.ToArray();
        }
    }

    private void Run()
    {
        while (!_stop)
        {
            Thread.Sleep(PollMilliseconds);
            long now = Clock.Now;
            lock (_spans)
                for (int v = 0; v < _volumes; v++) Look(v, now);
        }
    }

    private void Look(int v, long now)
    {
        int inFlight = 0;
        long lastDone = long.MinValue, busySince = long.MaxValue;
        foreach (var w in _workers)
        {
            var a = w.Volumes[v];
            int n = Volatile.Read(ref a.InFlight);
            long done = Volatile.Read(ref a.LastCompletionTicks);
            if (done > lastDone) lastDone = done;
            if (n <= 0) continue;
            inFlight += n;
            long busy = Volatile.Read(ref a.BusySinceTicks);
            if (busy < busySince) busySince = busy;
        }
        if (_stallStart[v] >= 0)
        {
            // A completion after the stall began ends it: the first one, as near as the workers' last-completion instants tell.
            if (lastDone > _stallStart[v]) Close(v, lastDone, ended: true);
            else if (inFlight > _stallInFlight[v]) _stallInFlight[v] = inFlight;
            return;
        }
        if (inFlight == 0) return;
        long start = Math.Max(lastDone, busySince);
        if (now - start < _detectTicks) return;
        _stallStart[v] = start;
        _stallInFlight[v] = inFlight;
        _notify?.Invoke(new StallSpan(v, start, now, inFlight, Ended: false), false);
    }

    private void Close(int v, long end, bool ended)
    {
        var span = new StallSpan(v, _stallStart[v], end, _stallInFlight[v], ended);
        _spans.Add(span);
        _stallStart[v] = -1;
        if (ended) _notify?.Invoke(span, true);
    }

    public void Dispose()
    {
        _stop = true;
        if (_thread.IsAlive) _thread.Join();
    }
}
