using ExchStorageTest.Engine.Io;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// One I/O thread: owns its backend (ring or completion port), its streams, their request slots and
/// buffers, and its metrics. Submits and reaps on the same thread; nothing is allocated in the loop.
/// </summary>
internal sealed class Worker : IDisposable
{
    private const int ReapBatch = 64;

    private readonly LoadDriver _driver;
    private readonly IIoBackend _backend;
    private readonly StreamState[] _streams;
    private readonly Slot[] _slots;
    private readonly AlignedBuffer _buffers;
    private readonly IoCompletion[] _completions = new IoCompletion[ReapBatch];
    private readonly long _lateThresholdTicks = Clock.FromSeconds(0.001);
    private readonly bool _hasPacedStreams;
    private readonly bool _hasTimedSources;
    private readonly long[] _inFlightSinceTicks; // per stream id: when its in-flight count last changed
    private readonly int[] _volumeOfFile;
    private Thread? _thread;

    public Worker(LoadDriver driver, int index, IReadOnlyList<LoadStream> streams, IIoBackend backend)
    {
        _driver = driver;
        Index = index;
        _backend = backend;
        Metrics = new StreamMetrics[driver.StreamCount];
        for (int i = 0; i < Metrics.Length; i++) Metrics[i] = new StreamMetrics();
        InFlightById = new int[driver.StreamCount];
        _inFlightSinceTicks = new long[driver.StreamCount];
        _volumeOfFile = driver.VolumeOfFile;
        Volumes = new VolumeActivity[driver.VolumeCount];
        for (int v = 0; v < Volumes.Length; v++) Volumes[v] = new VolumeActivity();

        int alignment = driver.Alignment;
        int slotCount = 0;
        long bufferBytes = 0;
        foreach (var s in streams)
        {
            slotCount += s.Depth;
            bufferBytes += (long)s.Depth * RoundUp(s.Source.MaxLength, alignment);
        }
        if (bufferBytes > int.MaxValue) throw new ArgumentException("Stream buffers exceed 2 GiB on one worker; lower the queue depth.");
        _buffers = new AlignedBuffer((int)Math.Max(bufferBytes, alignment), alignment);
        _slots = new Slot[slotCount];
        _streams = new StreamState[streams.Count];

        int slot = 0;
        long offset = 0;
        for (int i = 0; i < streams.Count; i++)
        {
            var s = streams[i];
            var state = new StreamState(s, slot, s.Arrival == Arrival.Closed ? null
                : new Pacer(s.RateIops, s.Arrival == Arrival.Poisson, 0, driver.Seed + index * 7919 + i));
            int stride = RoundUp(s.Source.MaxLength, alignment);
            for (int d = 0; d < s.Depth; d++)
            {
                _slots[slot] = new Slot { Stream = i, BufferOffset = offset, BufferLength = stride };
                state.Free.Push(slot);
                slot++;
                offset += stride;
            }
            _streams[i] = state;
            _hasPacedStreams |= state.Pacer is not null;
            _hasTimedSources |= state.Timed is not null;
        }
        _backend.Attach(driver.Files, _buffers);
    }

    public int Index { get; }
    /// <summary>The CPU this worker is pinned to, or -1.</summary>
    public int Cpu => Volatile.Read(ref _cpu);
    private int _cpu = -1;
    /// <summary>The worker thread's OS id once it runs (0 before, or where the OS has none): its CPU time is read by it.</summary>
    public long ThreadId => Volatile.Read(ref _threadId);
    private long _threadId;
    /// <summary>True when the backend finishes each I/O inside its submit (the worker itself waits for the storage).</summary>
    public bool CompletesOnSubmit => _backend.CompletesOnSubmit;
    public string BackendName => _backend.Name;
    public IReadOnlyList<IoFeature> Features => _backend.Features;
    public StreamMetrics[] Metrics { get; }
    /// <summary>In-flight I/Os per stream id (for queue-depth accounting).</summary>
    public int[] InFlightById { get; }
    public object MetricsLock { get; } = new();
    /// <summary>This worker's I/O on each volume (the driver's volume indexes): what the stall watch reads.</summary>
    public VolumeActivity[] Volumes { get; }
    /// <summary>Finished one-second sums per volume, taken by the driver under <see cref="MetricsLock"/>.</summary>
    public List<VolumeSecondSum> SecondsDone { get; } = new();

    public void Start(long startTicks)
    {
        foreach (var s in _streams) s.Pacer?.Reset(startTicks);
        _thread = new Thread(Run) { IsBackground = true, Name = $"io-worker-{Index}", Priority = ThreadPriority.AboveNormal };
        _thread.Start();
    }

    public void Join() => _thread?.Join();

    private void Run()
    {
        try
        {
            Volatile.Write(ref _threadId, ThreadCpu.CurrentId());
            int cpu = CpuAffinity.ForWorker(Index, _driver.AllowedCpus);
            if (CpuAffinity.TryPinCurrentThread(cpu)) Volatile.Write(ref _cpu, cpu);
            Array.Fill(_inFlightSinceTicks, Clock.Now);
            while (!_driver.StopRequested)
            {
                int issued = IssueDue();
                // Retries anything the kernel was too short of resources to take; a backend that submits
                // in its reap takes the last request queued (and any retry) with its wait instead.
                if (!_backend.SubmitsOnReap) _backend.Submit();
                ReapAndAccount(block: true, issuedThisTurn: issued > 0);
            }
            Drain();
        }
        catch (Exception ex)
        {
            _driver.ReportWorkerFault(ex);
        }
    }

    /// <summary>Starts every I/O that is due; returns how many were started.</summary>
    private int IssueDue()
    {
        int issued = 0;
        bool unsubmitted = false; // the last request queued still waits for its io_uring_enter
        long now = Clock.Now;
        for (int i = 0; i < _streams.Length; i++)
        {
            var s = _streams[i];
            // At most one depth's worth per turn: with a synchronous backend slots free up at once,
            // and the other streams (and the stop flag) must still get their turn.
            for (int budget = s.Stream.Depth; budget > 0 && s.Free.Count > 0 && !_driver.StopRequested; budget--)
            {
                long intended = -1;
                if (s.Pacer is { } pacer)
                {
                    if (pacer.NextDue > now) break;
                    intended = pacer.Take();
                }
                int slotIndex = s.Free.Peek();
                ref Slot slot = ref _slots[slotIndex];
                slot.Plan = default;
                var buffer = _buffers.Slice((int)slot.BufferOffset, slot.BufferLength);
                if (!s.Stream.Source.TryNext(ref slot.Plan, buffer))
                {
                    if (intended >= 0) s.Pacer!.Unget(intended);
                    break;
                }
                // Each request goes to the OS in its own io_uring_enter, as fio does by default, once the
                // source has said there is another: batching several into one enter made the kernel plug
                // the batch until the last was built, leaving a fast device idle (measured ~0.8x fio's
                // IOPS at QD16 on a RAM-backed loop device). The last of a turn goes with the reap's wait
                // that follows at once, one io_uring_enter for both (a closed-loop worker wakes
                // for a completion or two and issues as many, so that is one system call in two or three).
                if (unsubmitted) { _backend.Submit(); unsubmitted = false; }
                s.Free.Pop();
                var file = _driver.Files[slot.Plan.FileIndex];
                var request = new IoRequest(file.RawHandle, slot.Plan.Operation, slot.Plan.Offset, slot.Plan.Length,
                    _buffers.Address + (nint)slot.BufferOffset, (ulong)slotIndex, slot.Plan.FileIndex);
                now = Clock.Now;
                slot.IssueTicks = now;
                slot.IntendedTicks = intended;
                if (intended >= 0)
                {
                    long lag = now - intended;
                    var m = Metrics[slot.Plan.StreamId];
                    if (lag > _lateThresholdTicks && _driver.Accounting) m.LateIssues++;
                    if (lag > m.MaxLagTicks && _driver.Accounting) m.MaxLagTicks = lag;
                }
                ChangeInFlight(slot.Plan.StreamId, +1, now);
                var volume = Volumes[_volumeOfFile[slot.Plan.FileIndex]];
                if (volume.InFlight == 0) Volatile.Write(ref volume.BusySinceTicks, now);
                Volatile.Write(ref volume.InFlight, volume.InFlight + 1);
                if (!_backend.TryQueue(request))
                    throw new InvalidOperationException($"Backend {_backend.Name} refused a request within its depth.");
                issued++;
                if (_backend.SubmitsOnReap) unsubmitted = true;
                else _backend.Submit();
                if (_backend.CompletesOnSubmit)
                {
                    ReapAndAccount(block: false, issuedThisTurn: true);
                    now = Clock.Now;
                }
            }
        }
        return issued; // the reap that follows submits what is still queued (see SubmitsOnReap)
    }

    private void ReapAndAccount(bool block, bool issuedThisTurn)
    {
        int inFlight = _slots.Length - FreeSlots();
        int minComplete = 0;
        int timeoutMs = 0;
        if (block)
        {
            long waitTicks = TicksUntilNextDue();
            long wakeTicks = TicksUntilSourceWake();
            if (inFlight == 0)
            {
                // Nothing outstanding. If this turn started I/O (a synchronous backend finished it
                // already), go straight round again; otherwise wait for the next paced arrival (to
                // the microsecond), a source's wake-up (think time: to the millisecond), or
                // re-check shortly for sources that had nothing due.
                if (issuedThisTurn) return;
                if (_hasPacedStreams && waitTicks <= wakeTicks) WaitTicks(Math.Min(waitTicks, Clock.FromSeconds(0.02)));
                else if (_hasTimedSources) SleepTicks(Math.Min(wakeTicks, Clock.FromSeconds(0.02)));
                else Thread.Sleep(1);
                return;
            }
            // Block for a completion only while nothing is due within the wait's millisecond
            // granularity; otherwise poll, so paced starts are not made late.
            waitTicks = Math.Min(waitTicks, wakeTicks);
            if (waitTicks >= Clock.FromSeconds(0.001))
            {
                minComplete = 1;
                timeoutMs = (int)Math.Clamp(waitTicks * 1000 / Clock.Frequency, 1, 100);
            }
        }
        int n = _backend.Reap(_completions, minComplete, timeoutMs);
        if (n == 0) return;
        long now = Clock.Now;
        bool accounting = _driver.Accounting;
        lock (MetricsLock)
        {
            for (int i = 0; i < n; i++) Complete(_completions[i], now, accounting);
        }
    }

    private void Complete(in IoCompletion completion, long now, bool accounting)
    {
        int slotIndex = (int)completion.UserData;
        ref Slot slot = ref _slots[slotIndex];
        var s = _streams[slot.Stream];
        var m = Metrics[slot.Plan.StreamId];
        ChangeInFlight(slot.Plan.StreamId, -1, now);
        long latencyNs = Clock.ToNs(now - slot.IssueTicks);
        long scheduledNs = slot.IntendedTicks >= 0 ? Clock.ToNs(now - slot.IntendedTicks) : -1;
        int result = completion.Result;
        bool shortTransfer = result >= 0 && result != slot.Plan.Length;
        int volumeIndex = _volumeOfFile[slot.Plan.FileIndex];
        var volume = Volumes[volumeIndex];
        Volatile.Write(ref volume.InFlight, volume.InFlight - 1);
        Volatile.Write(ref volume.LastCompletionTicks, now);
        long second = (now - _driver.SecondsOriginTicks) / Clock.Frequency;
        if (second != volume.Second) volume.Roll(volumeIndex, second, SecondsDone);
        if (result < 0 || shortTransfer)
        {
            volume.Errors++;
            if (accounting || result < 0) m.Errors++;
            _driver.ReportIoError(new IoErrorEvent(DateTime.UtcNow, slot.Plan.StreamId, slot.Plan.FileIndex,
                slot.Plan.Offset, slot.Plan.Length, result < 0 ? -result : 0, shortTransfer));
        }
        else
        {
            m.Record(latencyNs, scheduledNs, result, accounting);
            volume.Operations++;
            volume.LatencyNs += latencyNs;
            if (latencyNs > volume.MaxLatencyNs) volume.MaxLatencyNs = latencyNs;
        }
        s.Stream.Source.Completed(slot.Plan, result, _buffers.Slice((int)slot.BufferOffset, slot.BufferLength));
        s.Free.Push(slotIndex);
    }

    /// <summary>Stops issuing and waits for every outstanding I/O, so no buffer is freed under the kernel.</summary>
    private void Drain()
    {
        long deadline = Clock.Now + Clock.FromSeconds(120);
        while (FreeSlots() < _slots.Length && Clock.Now < deadline)
        {
            _backend.Submit();
            int n = _backend.Reap(_completions, 1, 1000);
            if (n == 0) continue;
            long now = Clock.Now;
            lock (MetricsLock)
            {
                for (int i = 0; i < n; i++) Complete(_completions[i], now, accounting: false);
            }
        }
    }

    /// <summary>
    /// Integrates one stream's in-flight count over time up to <paramref name="now"/>, then applies the
    /// change. Only the stream that changes is touched, so the cost per I/O does not grow with the
    /// number of streams (a transactional run has several per database instance).
    /// </summary>
    private void ChangeInFlight(int streamId, int delta, long now)
    {
        long dt = now - _inFlightSinceTicks[streamId];
        _inFlightSinceTicks[streamId] = now;
        int inFlight = InFlightById[streamId];
        if (inFlight != 0 && dt > 0 && _driver.Accounting) Metrics[streamId].QueueDepthArea += (double)inFlight * dt;
        InFlightById[streamId] = inFlight + delta;
    }

    /// <summary>Until the next paced arrival is due, at most 100 ms (closed-loop workers skip the clock read and the walk).</summary>
    private long TicksUntilNextDue()
    {
        long best = Clock.FromSeconds(0.1);
        if (!_hasPacedStreams) return best;
        long now = Clock.Now;
        foreach (var s in _streams)
        {
            if (s.Pacer is null || s.Free.Count == 0) continue;
            best = Math.Min(best, Math.Max(0, s.Pacer.NextDue - now));
        }
        return best;
    }

    /// <summary>Until the soonest wake-up a timed source asked for, at most 100 ms (<see cref="long.MaxValue"/> without timed sources).</summary>
    private long TicksUntilSourceWake()
    {
        if (!_hasTimedSources) return long.MaxValue;
        long best = Clock.FromSeconds(0.1);
        long now = Clock.Now;
        foreach (var s in _streams)
        {
            if (s.Timed is null || s.Free.Count == 0) continue;
            best = Math.Min(best, Math.Max(0, s.Timed.WakeTicks - now));
        }
        return best;
    }

    /// <summary>Sleeps whole milliseconds (a think time needs no finer aim; spinning would take a CPU from the I/O).</summary>
    private static void SleepTicks(long ticks)
    {
        if (ticks <= 0) return;
        Thread.Sleep((int)Math.Max(1, (ticks * 1000 + Clock.Frequency - 1) / Clock.Frequency));
    }

    /// <summary>Sleeps for long gaps and spins for the last stretch, so paced starts land on time.</summary>
    private static void WaitTicks(long ticks)
    {
        if (ticks <= 0) return;
        long until = Clock.Now + ticks;
        long sleepMargin = Clock.FromSeconds(0.0015);
        while (true)
        {
            long left = until - Clock.Now;
            if (left <= 0) return;
            if (left > sleepMargin) Thread.Sleep(1);
            else Thread.SpinWait(20);
        }
    }

    private int FreeSlots()
    {
        int free = 0;
        foreach (var s in _streams) free += s.Free.Count;
        return free;
    }

    private static int RoundUp(int value, int alignment) => (value + alignment - 1) / alignment * alignment;

    public void Dispose()
    {
        // I/O the storage never answered (a disk frozen past the drain's two minutes) still owns its buffers: the kernel
        // may write into them whenever it completes. They, and the ring or port it completes on, are left to the process's
        // end rather than freed under it.
        if (FreeSlots() < _slots.Length) return;
        _backend.Dispose();
        _buffers.Dispose();
    }

    private struct Slot
    {
        public int Stream;
        public long BufferOffset;
        public int BufferLength;
        public IoPlan Plan;
        public long IssueTicks;
        public long IntendedTicks;
    }

    private sealed class StreamState
    {
        public StreamState(LoadStream stream, int firstSlot, Pacer? pacer)
        {
            Stream = stream;
            Pacer = pacer;
            // An open-loop stream starts I/O on its arrivals; its source's own clock is not consulted.
            Timed = pacer is null ? stream.Source as ITimedSource : null;
            Free = new Stack<int>(stream.Depth);
        }

        public LoadStream Stream { get; }
        public Pacer? Pacer { get; }
        /// <summary>The source when it can have work due by the clock (think time, timed flushes).</summary>
        public ITimedSource? Timed { get; }
        public Stack<int> Free { get; }
    }
}
