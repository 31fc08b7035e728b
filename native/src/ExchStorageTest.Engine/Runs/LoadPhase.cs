using System.Globalization;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>Why a timed window ended.</summary>
internal enum WindowEnd { Elapsed, Condition, Cancelled, Error }

/// <summary>
/// One load driver over the run's instances: builds the streams (transactional sessions, BDM,
/// replication, backup), spreads instances over workers (an instance and all its streams stay on
/// one worker, so its cache model needs no locks), runs timed windows with sampling, and turns
/// the driver's totals into stream results.
/// </summary>
internal sealed class LoadPhase : IDisposable
{
    private readonly RunContext _ctx;
    private readonly List<(InstanceWorkload Instance, string Stream)> _ids = new();
    /// <summary>The passive copies' sources (docs/load-model.md), to say at the end whether they kept up with their databases.</summary>
    private readonly List<(InstanceWorkload Instance, PassiveCopySource Source)> _passive = new();
    private readonly double[] _maxSampleAvg;
    private readonly long[] _stallsAtWindowStart;
    private readonly long[] _lastStalls;
    private readonly double[] _maxStalls;
    private readonly int[] _stallSamples;
    private readonly FlushEvidence[] _flushAtWindowStart;
    private readonly FlushEvidence[] _lastFlush;
    private long _lastSampleTicks;

    public LoadPhase(RunContext ctx, PhaseOptions options)
    {
        _ctx = ctx;
        Options = options;
        // A load that grows the databases has their files extended ahead of it (the first extension now, before it starts).
        if (options.Grow) ctx.StartExtending();
        // Each file's volume as the failure-mode figures name it (stalls and the one-second series are per volume).
        var fileVolumes = ctx.Files.Select(f => VolumeNames.Of(ctx.Results.Environment.Volumes, f.Path)).ToList();
        Volumes = fileVolumes.Distinct(StringComparer.Ordinal).ToList();
        Driver = new LoadDriver(ctx.Files, ctx.Plan.Request.ContinueOnError, seed: Environment.TickCount,
            pinWorkers: ctx.Plan.Request.PinWorkerThreads, volumeOfFile: fileVolumes.Select(v => Volumes.IndexOf(v)).ToList());
        var n = ctx.Instances.Count;
        foreach (var w in ctx.Instances)
        {
            w.DatabaseReadStream = w.DatabaseWriteStream = w.LogWriteStream = w.LogReadStream = w.MaintenanceStream = w.ReplicationStream = w.BackupStream = -1;
            w.PassiveReplayReadStream = w.PassiveReplayWriteStream = w.PassiveLogWriteStream = -1;
            if (options.Transactional)
            {
                w.DatabaseReadStream = Register(w, StreamNames.DatabaseRead, IoOperation.Read);
                w.DatabaseWriteStream = Register(w, StreamNames.DatabaseWrite, IoOperation.Write);
                w.LogWriteStream = Register(w, StreamNames.LogWrite, IoOperation.Write);
                w.LogReadStream = Register(w, StreamNames.LogRead, IoOperation.Read);
                if (w.PassiveCopies.Count > 0)
                {
                    // Registered only where passive copies are modelled: a Jetstress-model run's streams are as before.
                    if (w.PassiveCopies.Any(c => !c.Lagged))
                    {
                        w.PassiveReplayReadStream = Register(w, StreamNames.PassiveReplayRead, IoOperation.Read);
                        w.PassiveReplayWriteStream = Register(w, StreamNames.PassiveReplayWrite, IoOperation.Write);
                    }
                    w.PassiveLogWriteStream = Register(w, StreamNames.PassiveLogWrite, IoOperation.Write);
                }
            }
            if (options.Maintenance) w.MaintenanceStream = Register(w, StreamNames.MaintenanceRead, IoOperation.Read);
            if (options.Replication) w.ReplicationStream = Register(w, StreamNames.LogReplicationRead, IoOperation.Read);
            if (options.Backup) w.BackupStream = Register(w, StreamNames.BackupRead, IoOperation.Read);
        }
        _maxSampleAvg = new double[_ids.Count];
        _stallsAtWindowStart = new long[n];
        _lastStalls = new long[n];
        _maxStalls = new double[n];
        _stallSamples = new int[n];
        _flushAtWindowStart = new FlushEvidence[n];
        _lastFlush = new FlushEvidence[n];

        // Workers: min(sessions, CPUs), never more than instances (an instance lives on one worker).
        int workers = Math.Max(1, Math.Min(Math.Min(Math.Max(1, options.Sessions), Environment.ProcessorCount), n));
        WorkerCount = workers;
        var perWorker = new List<LoadStream>[workers];
        for (int i = 0; i < workers; i++) perWorker[i] = new List<LoadStream>();
        Transactional = new TransactionalSource?[n];
        Backups = new ScanSource?[n];
        for (int i = 0; i < n; i++)
        {
            var w = ctx.Instances[i];
            var list = perWorker[i % workers];
            if (options.Transactional)
            {
                int sessions = Math.Max(1, options.Sessions / n + (i < options.Sessions % n ? 1 : 0));
                if (options.OpenLoopRateIops is double total)
                {
                    // Open loop: plenty of sessions, arrivals paced (Poisson) at this instance's share of the rate
                    // plus its log writes (about one per 11 database transfers).
                    sessions = Math.Max(sessions, 32);
                    var src = new TransactionalSource(w, sessions, ctx.Shape, options.Grow);
                    Transactional[i] = src;
                    list.Add(new LoadStream($"{InstanceName(w)}/Transactional", src, src.Depth, Arrival.Poisson, total / n * 1.09));
                }
                else
                {
                    var src = new TransactionalSource(w, sessions, ctx.Shape, options.Grow);
                    Transactional[i] = src;
                    list.Add(new LoadStream($"{InstanceName(w)}/Transactional", src, src.Depth));
                }
            }
            if (options.Transactional)
            {
                // The passive copies beside the database, on its worker: they follow what it issues (PassiveCopySource).
                int sessions = Math.Max(1, options.Sessions / n + (i < options.Sessions % n ? 1 : 0));
                foreach (var copy in w.PassiveCopies)
                {
                    var log = new PassiveCopySource(w, copy, PassiveCopyPart.CopiedLog);
                    _passive.Add((w, log));
                    list.Add(new LoadStream($"{InstanceName(w)}/Passive.{copy.Copy}/CopiedLog", log, PassiveCopySource.CopiedLogDepth));
                    if (copy.Lagged) continue;
                    var replay = new PassiveCopySource(w, copy, PassiveCopyPart.Replay);
                    _passive.Add((w, replay));
                    list.Add(new LoadStream($"{InstanceName(w)}/Passive.{copy.Copy}/Replay", replay, PassiveCopySource.ReplayDepthFor(sessions)));
                }
            }
            if (options.Maintenance)
                list.Add(new LoadStream($"{InstanceName(w)}/Maintenance", new ScanSource(w, w.MaintenanceStream, ctx.Shape.MaintenanceReadBytes, wrap: true, cacheAware: true,
                    startPage: 1 + (long)(w.Next() % (ulong)Math.Max(1, w.PageCount - 1))), 2, Arrival.Linear, ctx.Shape.MaintenanceReadsPerSecond));
            if (options.Replication)
            {
                // Each passive copy pulls the log it is sent, as it is written.
                for (int copy = 2; copy <= ctx.Plan.Profile.CopiesPerDatabase; copy++)
                    list.Add(new LoadStream($"{InstanceName(w)}/Replication.{copy}", new ReplicationSource(w, ctx.Shape.ReplicationReadBytes), 1));
            }
            if (options.Backup)
            {
                var b = new ScanSource(w, w.BackupStream, ctx.Shape.BackupReadBytes, wrap: false, cacheAware: false, startPage: 0);
                Backups[i] = b;
                list.Add(new LoadStream($"{InstanceName(w)}/Backup", b, 4));
            }
        }
        foreach (var l in perWorker) if (l.Count > 0) Driver.AddWorker(l);
        if (options.Transactional) Driver.WatchStalls(FaultRules.StallDetectSeconds, TellStall);
    }

    /// <summary>The volumes the phase's files lie on, by the driver's volume index (<see cref="VolumeNames"/>).</summary>
    public List<string> Volumes { get; }

    /// <summary>A stall in the measured window, as it is found and as it ends: a test log line each (named, not judged, here).</summary>
    private void TellStall(Load.StallSpan stall, bool ended)
    {
        if (!Driver.Accounting) return;
        string volume = Volumes[stall.Volume];
        double seconds = (double)(stall.EndTicks - stall.StartTicks) / LoadDriver.TicksPerSecond;
        var since = Driver.UtcAt(stall.StartTicks);
        _ctx.Log(ended
            ? string.Create(CultureInfo.InvariantCulture, $"Storage on {volume} answered again after a {seconds:F1} s stall (since {since:HH:mm:ss.f} UTC).")
            : string.Create(CultureInfo.InvariantCulture, $"Storage stalled on {volume}: {stall.InFlight} I/Os outstanding and none completing for {seconds:F1} s (since {since:HH:mm:ss.f} UTC)."));
    }

    /// <summary>The driver's tick the measured window began at (<see cref="BeginMeasuring"/>); its one-second series count from it.</summary>
    public long WindowStartTicks { get; private set; }

    public PhaseOptions Options { get; }
    public LoadDriver Driver { get; }
    public int WorkerCount { get; }
    public TransactionalSource?[] Transactional { get; }
    public ScanSource?[] Backups { get; }
    public long StartTicks { get; private set; }
    /// <summary>Set when a worker thread faulted (the run is then marked Failed).</summary>
    public Exception? Fault { get; private set; }

    private static string InstanceName(InstanceWorkload w) => $"Instance.{w.Index}";

    /// <summary>
    /// Sessions think between transactions so the transactional load settles at
    /// <paramref name="totalIops"/> (split evenly over the instances); 0 ends the think time.
    /// </summary>
    public void PaceAt(double totalIops)
    {
        foreach (var t in Transactional) t?.Pacer.PaceAt(totalIops > 0 ? totalIops / Transactional.Length : 0);
    }

    /// <summary>
    /// A clean shutdown of the databases, outside the measured window: sessions finish their
    /// transaction, the log and every page the databases grew by are written. False when it did
    /// not finish within <paramref name="maxSeconds"/> (the grown pages are then not all on disk).
    /// </summary>
    public bool Shutdown(double maxSeconds)
    {
        Driver.SetAccounting(false);
        foreach (var t in Transactional) t?.BeginShutdown();
        var deadline = System.Diagnostics.Stopwatch.StartNew();
        while (deadline.Elapsed.TotalSeconds < maxSeconds && !Driver.StopRequested)
        {
            if (Array.TrueForAll(Transactional, t => t is null || t.ShutdownComplete)) return true;
            Thread.Sleep(5);
        }
        return Array.TrueForAll(Transactional, t => t is null || t.ShutdownComplete);
    }

    private int Register(InstanceWorkload w, string stream, IoOperation op)
    {
        int id = Driver.RegisterStream(new StreamKey(w.Index, stream, op));
        _ids.Add((w, stream));
        return id;
    }

    /// <summary>Starts the workers; <paramref name="measuring"/> counts from the very first I/O (backup, recovery).</summary>
    public void Start(bool measuring = false)
    {
        if (measuring)
        {
            Driver.SetAccounting(true);
            long now = System.Diagnostics.Stopwatch.GetTimestamp();
            for (int i = 0; i < _ctx.Instances.Count; i++)
            {
                _stallsAtWindowStart[i] = _ctx.Instances[i].Cache.Stalls;
                _flushAtWindowStart[i] = FlushEvidence.Of(_ctx.Instances[i], now);
            }
        }
        // Before the workers start: a source can finish before Start returns (a small database's backup pass did, under
        // Wine on a loaded machine: "elapsed -0.006 s, 0 MB/s"), and its end must never precede the phase's start.
        StartTicks = System.Diagnostics.Stopwatch.GetTimestamp();
        Driver.Start();
        _lastSampleTicks = StartTicks;
        _ctx.BackendName = Driver.BackendName;
        for (int i = 0; i < _ctx.Instances.Count; i++)
        {
            _lastStalls[i] = _ctx.Instances[i].Cache.Stalls;
            _lastFlush[i] = FlushEvidence.Of(_ctx.Instances[i], StartTicks);
        }
    }

    /// <summary>The measured window's host-limited evidence, taken by <see cref="EndMeasuring"/>; null before.</summary>
    public MachineEvidence? MachineEvidence { get; private set; }
    private MachineEvidenceProbe? _hostProbe;

    /// <summary>
    /// The driver's seconds at the measured window's start: the time series counts its seconds from there (the window
    /// it describes, timeline.collectionStartUtc), not from the load's start before tuning or warm-up.
    /// </summary>
    private double _windowStartSeconds;

    /// <summary>Starts the measured window: accounting on, interval counters reset.</summary>
    public void BeginMeasuring()
    {
        Driver.Sample();
        Driver.SetAccounting(true);
        Driver.StartSeconds();
        WindowStartTicks = Driver.SecondsOrigin;
        _windowStartSeconds = Driver.ElapsedSeconds;
        _hostProbe = new MachineEvidenceProbe(Driver, _ctx.Instances, MachineEvidenceProbe.DevicesOf(_ctx.Results.Environment));
        _hostProbe.Start();
        long now = System.Diagnostics.Stopwatch.GetTimestamp();
        for (int i = 0; i < _ctx.Instances.Count; i++)
        {
            _stallsAtWindowStart[i] = _lastStalls[i] = _ctx.Instances[i].Cache.Stalls;
            _flushAtWindowStart[i] = _lastFlush[i] = FlushEvidence.Of(_ctx.Instances[i], now);
        }
        Array.Clear(_maxSampleAvg);
        Array.Clear(_maxStalls);
        Array.Clear(_stallSamples);
    }

    /// <summary>Ends the measured window (accounting off) and takes its host-limited evidence while the workers still run.</summary>
    public void EndMeasuring()
    {
        if (_hostProbe is not null && Driver.Accounting) MachineEvidence = _hostProbe.Finish();
        Driver.SetAccounting(false);
    }

    /// <summary>
    /// Runs for up to <paramref name="seconds"/>, sampling every <paramref name="interval"/> seconds;
    /// <paramref name="until"/> ends it early. Measured samples (accounting on) go to the results.
    /// </summary>
    public WindowEnd Run(double seconds, double interval, string phase, Func<bool>? until, Action<IReadOnlyList<IntervalSample>>? onSample = null)
    {
        var sw = System.Diagnostics.Stopwatch.StartNew();
        double nextSample = interval;
        while (true)
        {
            if (_ctx.Cancel.IsCancellationRequested) return WindowEnd.Cancelled;
            if (Driver.StoppedByError || Driver.StopRequested) return WindowEnd.Error;
            double now = sw.Elapsed.TotalSeconds;
            if (now >= seconds) { TakeSample(phase, now, seconds, onSample); return WindowEnd.Elapsed; }
            if (until is not null && until()) { TakeSample(phase, now, seconds, onSample); return WindowEnd.Condition; }
            if (now >= nextSample)
            {
                TakeSample(phase, now, seconds, onSample);
                nextSample += interval;
            }
            double wait = Math.Min(Math.Min(nextSample, seconds) - sw.Elapsed.TotalSeconds, 0.25);
            if (wait > 0)
            {
                if (_ctx.Cancel.WaitHandle.WaitOne(TimeSpan.FromSeconds(wait))) return WindowEnd.Cancelled;
            }
        }
    }

    private void TakeSample(string phase, double elapsed, double total, Action<IReadOnlyList<IntervalSample>>? onSample)
    {
        var samples = Driver.Sample();
        long nowTicks = System.Diagnostics.Stopwatch.GetTimestamp();
        double intervalSeconds = Math.Max(1e-6, (nowTicks - _lastSampleTicks) / (double)System.Diagnostics.Stopwatch.Frequency);
        _lastSampleTicks = nowTicks;
        bool measuring = Driver.Accounting;
        var time = DateTime.UtcNow;
        double iops = 0, readLatSum = 0, logLatSum = 0;
        long readOps = 0, logOps = 0;
        foreach (var s in samples)
        {
            var (w, name) = _ids[s.StreamId];
            if (name is StreamNames.DatabaseRead or StreamNames.DatabaseWrite) iops += s.OperationsPerSecond;
            if (name == StreamNames.DatabaseRead) { readLatSum += s.AverageLatencyMs * s.Operations; readOps += s.Operations; }
            if (name == StreamNames.LogWrite) { logLatSum += s.AverageLatencyMs * s.Operations; logOps += s.Operations; }
            if (!measuring) continue;
            if (s.Operations > 0 && s.AverageLatencyMs > _maxSampleAvg[s.StreamId]) _maxSampleAvg[s.StreamId] = s.AverageLatencyMs;
            lock (_ctx.Results.TimeSeries)
                _ctx.Results.TimeSeries.Add(new SamplePoint
                {
                    TimeUtc = s.TimeUtc, ElapsedSeconds = Math.Round(s.ElapsedSeconds - _windowStartSeconds, 3), Instance = w.Index, Stream = name,
                    OperationsPerSecond = s.OperationsPerSecond, AverageBytes = s.AverageBytes, AverageLatencyMs = s.AverageLatencyMs,
                    P99LatencyMs = s.P99LatencyMs, MaxLatencyMs = s.MaxLatencyMs,
                });
        }
        for (int i = 0; i < _ctx.Instances.Count; i++)
        {
            var w = _ctx.Instances[i];
            long stalls = w.Cache.Stalls;
            double rate = (stalls - _lastStalls[i]) / intervalSeconds;
            _lastStalls[i] = stalls;
            var flush = FlushEvidence.Of(w, nowTicks);
            var sinceLast = _lastFlush[i];
            _lastFlush[i] = flush;
            if (!measuring) continue;
            if (rate > _maxStalls[i]) _maxStalls[i] = rate;
            if (rate > 0) _stallSamples[i]++;
            lock (_ctx.Results.TimeSeries)
                _ctx.Results.InstanceSeries.Add(new InstanceSample
                {
                    TimeUtc = time, ElapsedSeconds = Math.Round(Driver.ElapsedSeconds - _windowStartSeconds, 3), Instance = w.Index, PageFaultStallsPerSecond = rate,
                    DatabaseCacheSizeBytes = (long)w.Cache.Resident * Storage.PageFormat.PageSize,
                    PageFaultStallWaitMs = flush.StallWaitMsSince(sinceLast), FlushBacklogPages = flush.BacklogPagesSince(sinceLast),
                    FlushWritesInFlight = flush.WritesInFlightSince(sinceLast),
                    FlushPoolTargetPages = Volatile.Read(ref w.FlushPoolTargetPages),
                });
        }
        double readLat = readOps > 0 ? readLatSum / readOps : 0;
        double logLat = logOps > 0 ? logLatSum / logOps : 0;
        if (measuring)
        {
            Driver.TakeSeconds();
            _hostProbe?.Sample();
            double el = Driver.AccountedSeconds;
            _ctx.Events.Emit(EventTypes.Sample, j =>
            {
                j.WriteString(EventFields.Sample.Phase, phase);
                j.WriteNumber(EventFields.Sample.ElapsedSeconds, Math.Round(el, 2));
                j.WriteNumber(EventFields.Sample.Iops, Math.Round(iops, 2));
                j.WriteNumber(EventFields.Sample.DbReadLatencyMs, Math.Round(readLat, 3));
                j.WriteNumber(EventFields.Sample.LogWriteLatencyMs, Math.Round(logLat, 3));
            });
        }
        _ctx.Events.Progress(phase, total > 0 ? 100.0 * elapsed / total : 0, Math.Max(0, total - elapsed),
            string.Create(CultureInfo.InvariantCulture, $"{iops:F0} IOPS, DB read {readLat:F1} ms, log write {logLat:F1} ms"));
        onSample?.Invoke(samples);
        if (measuring) _ctx.Checkpoint();
    }

    /// <summary>
    /// A passive copy still owing more than this share of what it issued when the load stopped fell behind its database:
    /// the storage carried less than the model's passive I/O, and the test log says so.
    /// </summary>
    public const double PassiveBacklogShare = 0.05;

    /// <summary>Stops the driver (waits for every outstanding I/O); keeps the errors it saw.</summary>
    public void Stop()
    {
        foreach (var (w, s) in _passive)
            if (s.Backlog > Math.Max(PassiveCopySource.ReplayDepth, PassiveBacklogShare * s.Issued))
                _ctx.Warn(string.Create(CultureInfo.InvariantCulture,
                    $"{InstanceName(w)}: a passive copy fell behind its database: {s.Backlog} of its I/Os were still owed when the load stopped ({s.Issued} issued), so the volume carried less passive-copy I/O than the model (docs/load-model.md)."));
        try { Driver.Stop(); }
        catch (InvalidOperationException ex)
        {
            // A worker thread faulted: keep what was measured, mark the run failed.
            Fault = ex;
            _ctx.Results.Completion = Completions.Failed;
            _ctx.Log($"An I/O worker failed: {ex.InnerException?.Message ?? ex.Message}");
        }
        finally
        {
            _ctx.WorkerCpus = Driver.WorkerCpus;
            _ctx.IoFeatures = Driver.IoFeatures;
            _ctx.TotalOperations += TotalOps();
            foreach (var e in Driver.Errors())
            {
                if (_ctx.Results.Errors.Count >= 1000) break;
                var (w, name) = e.StreamId >= 0 && e.StreamId < _ids.Count ? _ids[e.StreamId] : (null!, "");
                _ctx.Results.Errors.Add(new IoErrorRecord
                {
                    TimeUtc = e.TimeUtc, Instance = w is null ? "" : InstanceName(w), Stream = name,
                    File = e.FileIndex >= 0 && e.FileIndex < _ctx.Files.Count ? _ctx.Files[e.FileIndex].Path : "",
                    Volume = e.FileIndex >= 0 && e.FileIndex < _ctx.Files.Count ? Volumes[Driver.VolumeOfFile[e.FileIndex]] : null,
                    Offset = e.Offset, Length = e.Length, ErrorCode = e.ErrorCode,
                    ErrorName = e.ShortTransfer ? "ShortTransfer" : IoErrors.Name(e.ErrorCode),
                    Message = e.ShortTransfer ? $"Short transfer: fewer than {e.Length} bytes at offset {e.Offset}." : $"I/O failed with {IoErrors.Name(e.ErrorCode)}.",
                });
            }
        }
    }

    private long TotalOps()
    {
        long total = 0;
        for (int id = 0; id < _ids.Count; id++) total += Driver.Totals(id).Operations;
        return total;
    }

    /// <summary>Stream results of the measured window, keyed like the results document.</summary>
    public List<(InstanceWorkload Instance, StreamResult Result)> StreamResults()
    {
        var list = new List<(InstanceWorkload, StreamResult)>();
        for (int id = 0; id < _ids.Count; id++)
        {
            var t = Driver.Totals(id);
            var (w, name) = _ids[id];
            list.Add((w, t.ToResult(name, _maxSampleAvg[id])));
        }
        return list;
    }

    public double StallsPerSecond(int i, double windowSeconds) => windowSeconds > 0 ? (_ctx.Instances[i].Cache.Stalls - _stallsAtWindowStart[i]) / windowSeconds : 0;
    /// <summary>The measured window's flushing evidence of instance <paramref name="i"/>: mean stall wait (ms), average backlog (pages) and writes in flight.</summary>
    public (double StallWaitMs, double BacklogPages, double WritesInFlight) FlushEvidenceOfWindow(int i)
    {
        var end = _lastFlush[i];
        var start = _flushAtWindowStart[i];
        return (end.StallWaitMsSince(start), end.BacklogPagesSince(start), end.WritesInFlightSince(start));
    }
    public double MaxStallsPerSecond(int i) => _maxStalls[i];
    public int StallSamples(int i) => _stallSamples[i];

    public void Dispose() => Driver.Dispose();
}
