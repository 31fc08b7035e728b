using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Metrics;

namespace ExchStorageTest.Engine.Load;

/// <summary>
/// Runs streams of I/O on worker threads and measures them. Usage: register files and stream ids,
/// add workers with their streams, <see cref="Start"/>, switch <see cref="Accounting"/> on for the
/// measured window, <see cref="Sample"/> on an interval, then <see cref="Stop"/> and read the totals.
/// </summary>
public sealed class LoadDriver : IDisposable
{
    private readonly List<StreamKey> _keys = new();
    private readonly List<Worker> _workers = new();
    private readonly List<IoErrorEvent> _errors = new();
    private readonly object _errorLock = new();
    private volatile bool _stop;
    private volatile bool _accounting;
    private long _accountingStartTicks;
    private long _accountingTicks;
    private TimeSpan _accountingStartCpu;
    private TimeSpan _accountedCpu;
    private long _lastSampleTicks;
    private long _startTicks;
    private Exception? _fault;

    /// <param name="files">The open test files that plans refer to by index.</param>
    /// <param name="continueOnError">Go on after an I/O error (every error is still counted and reported).</param>
    /// <param name="seed">Seeds the paced streams' arrival generators.</param>
    /// <param name="pinWorkers">Pin each worker thread to one CPU, round-robin (see <see cref="CpuAffinity"/>).</param>
    /// <param name="volumeOfFile">The volume index of each file (the stall watch and the volumes' series); null: one volume.</param>
    public LoadDriver(IReadOnlyList<IoFile> files, bool continueOnError, int seed = 1, bool pinWorkers = true, IReadOnlyList<int>? volumeOfFile = null)
    {
        Files = files;
        VolumeOfFile = volumeOfFile is null ? new int[files.Count] : volumeOfFile.ToArray();
        if (VolumeOfFile.Length != files.Count) throw new ArgumentException("One volume index a file.", nameof(volumeOfFile));
        VolumeCount = VolumeOfFile.Length == 0 ? 1 : VolumeOfFile.Max() + 1;
        ContinueOnError = continueOnError;
        Seed = seed;
        AllowedCpus = pinWorkers ? CpuAffinity.AllowedCpus() : Array.Empty<int>();
        Alignment = files.Count == 0 ? IoFileOpener.DefaultAlignment : files.Max(f => f.Alignment);
    }

    public IReadOnlyList<IoFile> Files { get; }
    internal int[] VolumeOfFile { get; }
    public int VolumeCount { get; }

    /// <summary>Where the volumes' one-second series count their seconds from (<see cref="StartSeconds"/>); read by the workers.</summary>
    internal long SecondsOriginTicks => Volatile.Read(ref _secondsOriginTicks);
    private long _secondsOriginTicks;
    private StallWatch? _stallWatch;
    private IReadOnlyList<StallSpan>? _stalls;
    private DateTime _startUtc;
    public bool ContinueOnError { get; }
    public int Seed { get; }
    public int Alignment { get; }
    /// <summary>The CPUs workers are pinned to in turn; empty when pinning is off.</summary>
    internal IReadOnlyList<int> AllowedCpus { get; }
    /// <summary>
    /// The CPU each worker was pinned to, -1 where the OS refused; empty when pinning is off, so a
    /// report never calls a deliberate choice a refusal. Read after <see cref="Stop"/>.
    /// </summary>
    public IReadOnlyList<int> WorkerCpus => AllowedCpus.Count == 0 ? Array.Empty<int>() : _workers.Select(w => w.Cpu).ToArray();
    /// <summary>Each worker thread's OS id (0 until it has started): the host-limited evidence reads their CPU time.</summary>
    public IReadOnlyList<long> WorkerThreadIds => _workers.Select(w => w.ThreadId).ToArray();
    /// <summary>True when some worker's backend does its I/O inside submit (sync): that worker's late turns are the storage's, not the host's.</summary>
    public bool AnyWorkerWaitsInSubmit => _workers.Exists(w => w.CompletesOnSubmit);
    public int StreamCount => _keys.Count;
    public IReadOnlyList<StreamKey> Keys => _keys;
    public bool StopRequested => _stop;
    public bool Accounting => _accounting;
    /// <summary>Set when the run stopped because of an I/O error (without continue-on-error).</summary>
    public bool StoppedByError { get; private set; }
    public long ErrorCount { get { lock (_errorLock) return _errorTotal; } }
    private long _errorTotal;
    /// <summary>The backend names of the workers, e.g. "io_uring".</summary>
    public string BackendName => string.Join(",", _workers.Select(w => w.BackendName).Distinct());
    /// <summary>The backends' optimisations over the workers: how many use each, and why the others do not.</summary>
    public List<Results.IoFeatureUse> IoFeatures => Results.IoFeatureUse.Of(_workers.Select(w => w.Features));

    /// <summary>Registers a measured stream; sources put the returned id into their plans.</summary>
    public int RegisterStream(StreamKey key)
    {
        if (_workers.Count > 0) throw new InvalidOperationException("Register every stream before adding workers.");
        _keys.Add(key);
        return _keys.Count - 1;
    }

    /// <summary>Adds a worker thread that will run <paramref name="streams"/> on its own backend.</summary>
    public void AddWorker(IReadOnlyList<LoadStream> streams, string? backend = null) =>
        AddWorker(streams, IoBackendFactory.Create(streams.Sum(s => s.Depth), backend));

    /// <summary>Adds a worker on a backend made by the caller (tests observe the driver through one).</summary>
    internal void AddWorker(IReadOnlyList<LoadStream> streams, IIoBackend backend) =>
        _workers.Add(new Worker(this, _workers.Count, streams, backend));

    /// <summary>
    /// Watches the volumes for stalls from <see cref="Start"/> until <see cref="Stop"/> (docs/failure-mode.md);
    /// <paramref name="notify"/> hears of each as it is found (false) and as it ends (true), on the watch's thread.
    /// </summary>
    public void WatchStalls(double detectSeconds, Action<StallSpan, bool>? notify)
    {
        if (_workers.Count == 0) throw new InvalidOperationException("Add the workers before watching for stalls.");
        _stallWatch = new StallWatch(_workers, VolumeCount, detectSeconds, notify);
    }

    public void Start()
    {
        _startTicks = Clock.Now;
        _startUtc = DateTime.UtcNow;
        _lastSampleTicks = _startTicks;
        Volatile.Write(ref _secondsOriginTicks, _startTicks);
        foreach (var w in _workers) w.Start(_startTicks);
        _stallWatch?.Start();
    }

    /// <summary>The UTC instant of a tick of the driver's clock.</summary>
    public DateTime UtcAt(long ticks) => _startUtc.AddSeconds((double)(ticks - _startTicks) / Clock.Frequency);

    /// <summary>The driver's clock now (ticks), for instants compared with its stalls.</summary>
    public static long Now => Clock.Now;

    /// <summary>Ticks per second of the driver's clock.</summary>
    public static long TicksPerSecond => Clock.Frequency;

    /// <summary>
    /// Restarts the volumes' one-second series here (the measured window's start): seconds summed so far are dropped,
    /// and second 0 begins now.
    /// </summary>
    public void StartSeconds()
    {
        long now = Clock.Now;
        Volatile.Write(ref _secondsOriginTicks, now);
        foreach (var w in _workers)
        {
            lock (w.MetricsLock)
            {
                w.SecondsDone.Clear();
                foreach (var v in w.Volumes) { v.Second = -1; v.Operations = v.LatencyNs = v.MaxLatencyNs = v.Errors = 0; }
            }
        }
        _seconds.Clear();
    }

    /// <summary>The tick the seconds of <see cref="TakeSeconds"/> count from.</summary>
    public long SecondsOrigin => SecondsOriginTicks;

    private readonly Dictionary<(int Volume, long Second), VolumeSecondSum> _seconds = new();

    /// <summary>
    /// Moves the workers' finished seconds into the driver's merged series (call on the sampling thread, at each sample,
    /// so a long run holds one entry a volume a second, not one a worker); <paramref name="all"/> after <see cref="Stop"/>
    /// takes the seconds still being summed too. Returns the merged series so far, by volume and second.
    /// </summary>
    public IReadOnlyDictionary<(int Volume, long Second), VolumeSecondSum> TakeSeconds(bool all = false)
    {
        foreach (var w in _workers)
        {
            lock (w.MetricsLock)
            {
                if (all)
                    for (int v = 0; v < w.Volumes.Length; v++) w.Volumes[v].Roll(v, -1, w.SecondsDone);
                foreach (var s in w.SecondsDone)
                    _seconds[(s.Volume, s.Second)] = _seconds.TryGetValue((s.Volume, s.Second), out var had) ? had.Plus(s) : s;
                w.SecondsDone.Clear();
            }
        }
        return _seconds;
    }

    /// <summary>Every stall the watch saw (after <see cref="Stop"/>; empty when stalls were not watched).</summary>
    public IReadOnlyList<StallSpan> Stalls => _stalls ?? Array.Empty<StallSpan>();

    /// <summary>Turns the measured window on or off (warm-up and cool-down run but do not count).</summary>
    public void SetAccounting(bool on)
    {
        long now = Clock.Now;
        var cpu = ProcessCpu();
        if (on && !_accounting) { _accountingStartTicks = now; _accountingStartCpu = cpu; }
        if (!on && _accounting) { _accountingTicks += now - _accountingStartTicks; _accountedCpu += cpu - _accountingStartCpu; }
        _accounting = on;
    }

    /// <summary>Seconds of measured window so far.</summary>
    public double AccountedSeconds => (double)(_accountingTicks + (_accounting ? Clock.Now - _accountingStartTicks : 0)) / Clock.Frequency;

    /// <summary>
    /// CPU seconds the whole process (every thread, user and kernel) spent during the measured window:
    /// what the I/O counted in the same window cost the host (docs/results-schema.md, `engine.measuredCpuSeconds`).
    /// </summary>
    public double AccountedCpuSeconds => (_accountedCpu + (_accounting ? ProcessCpu() - _accountingStartCpu : TimeSpan.Zero)).TotalSeconds;

    private static TimeSpan ProcessCpu()
    {
        using var self = System.Diagnostics.Process.GetCurrentProcess();
        return self.TotalProcessorTime;
    }

    public double ElapsedSeconds => (double)(Clock.Now - _startTicks) / Clock.Frequency;

    public void RequestStop() => _stop = true;

    /// <summary>Stops the workers and waits until every outstanding I/O has completed.</summary>
    public void Stop()
    {
        SetAccounting(false);
        _stop = true;
        foreach (var w in _workers) w.Join();
        // After the workers' drain: an I/O caught in a stall that only completes then still ends it.
        if (_stallWatch is not null) _stalls ??= _stallWatch.Finish();
        if (_fault is not null) throw new InvalidOperationException("An I/O worker failed: " + _fault.Message, _fault);
    }

    /// <summary>
    /// The scratch histogram every <see cref="Sample"/> merges into (one sampling thread calls it). A new
    /// one per call was 38 KB of garbage per interval: resident memory crept by ~9 MB/hour in a streams
    /// soak until the GC's first gen0 collection (docs/benchmarks.md).
    /// </summary>
    private readonly LatencyHistogram _sampleMerge = new();

    /// <summary>Takes the interval since the previous sample for every stream (merged across workers).</summary>
    public IReadOnlyList<IntervalSample> Sample()
    {
        long now = Clock.Now;
        double interval = (double)(now - _lastSampleTicks) / Clock.Frequency;
        _lastSampleTicks = now;
        var time = DateTime.UtcNow;
        double elapsed = (double)(now - _startTicks) / Clock.Frequency;
        var merged = _sampleMerge;
        var result = new IntervalSample[_keys.Count];
        for (int id = 0; id < _keys.Count; id++)
        {
            merged.Clear();
            long bytes = 0;
            foreach (var w in _workers)
            {
                lock (w.MetricsLock)
                {
                    var m = w.Metrics[id];
                    merged.Add(m.Interval);
                    bytes += m.IntervalBytes;
                    m.Interval.Clear();
                    m.IntervalBytes = 0;
                }
            }
            result[id] = new IntervalSample(id, time, elapsed, interval, merged.Count, bytes,
                merged.MeanNs / 1e6, merged.Percentile(99) / 1e6, merged.MaxNs / 1e6);
        }
        return result;
    }

    /// <summary>The measured-window totals of one stream id, merged across workers (call after <see cref="Stop"/>).</summary>
    public StreamTotals Totals(int id)
    {
        var t = new StreamTotals(_keys[id]);
        foreach (var w in _workers)
        {
            lock (w.MetricsLock)
            {
                var m = w.Metrics[id];
                t.Latency.Add(m.Window);
                t.Scheduled.Add(m.Scheduled);
                t.Bytes += m.Bytes;
                t.Errors += m.Errors;
                t.LateIssues += m.LateIssues;
                t.MaxLagMs = Math.Max(t.MaxLagMs, (double)m.MaxLagTicks * 1000 / Clock.Frequency);
                t.QueueDepthArea += m.QueueDepthArea;
            }
        }
        double windowTicks = _accountingTicks;
        t.WindowSeconds = windowTicks / Clock.Frequency;
        t.MeanQueueDepth = windowTicks > 0 ? t.QueueDepthArea / windowTicks : 0;
        return t;
    }

    public IReadOnlyList<IoErrorEvent> Errors()
    {
        lock (_errorLock) return _errors.ToArray();
    }

    internal void ReportIoError(IoErrorEvent e)
    {
        lock (_errorLock)
        {
            _errorTotal++;
            // Every error is counted; the first thousand are kept with their detail.
            if (_errors.Count < 1000) _errors.Add(e);
        }
        if (!ContinueOnError && !_faultWindowOpen)
        {
            StoppedByError = true;
            _stop = true;
        }
    }

    private volatile bool _faultWindowOpen;

    /// <summary>
    /// Inside a declared fault window an I/O error does not end the run (it is the fault's, counted and judged against the
    /// window's rules): the run goes on to measure how the storage recovers. Outside it, errors end the run as usual.
    /// </summary>
    public void SetFaultWindow(bool open) => _faultWindowOpen = open;

    internal void ReportWorkerFault(Exception ex)
    {
        _fault ??= ex;
        _stop = true;
    }

    public void Dispose()
    {
        _stop = true;
        _stallWatch?.Dispose();
        foreach (var w in _workers)
        {
            w.Join();
            w.Dispose();
        }
        _workers.Clear();
    }
}

