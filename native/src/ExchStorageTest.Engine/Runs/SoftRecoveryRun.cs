using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// SoftRecovery: generate LogFilesToReplay log generations per instance under transactional load
/// (no BDM, as Jetstress's RunDatabaseMaintenanceSoftRecovery=false), then replay them into the
/// database: read each log (1 MiB direct read), verify every block, and re-apply the page updates
/// it names (read the page, verify it, write it back with a new generation). Seconds per log.
/// Results: the generation phase's LogWrite stream; LogRead, DatabaseRead and DatabaseWrite come
/// from the replay.
/// </summary>
internal static class SoftRecoveryRun
{
    public static void Run(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        int logs = plan.Instances[0].LogGenerations;
        int sessions = plan.ThreadCount ?? Math.Max(4, plan.Instances.Count * 2);
        r.Settings.ThreadCount = sessions;
        foreach (var w in ctx.Instances) w.GenerationLimit = w.Generation + logs - 1;
        TransactionalRun.LogStartOfDispatch(ctx, sessions);
        ctx.BeginPhase("Generating");
        ctx.Log($"Generating {logs} log files per instance ...");
        using (var phase = new LoadPhase(ctx, PhaseOptions.LogGeneration(sessions)))
        {
            r.Engine.WorkerCount = phase.WorkerCount;
            phase.Start(measuring: true);
            WindowEnd end;
            try
            {
                end = phase.Run(plan.DurationSeconds, Math.Min(plan.SampleIntervalSeconds, 5), "Generating", () => ctx.Instances.TrueForAll(w => w.LogFull));
            }
            finally
            {
                phase.Stop();
                RunRecord.Collect(ctx, phase);
            }
            if (end == WindowEnd.Cancelled) { r.Completion = Completions.Stopped; return; }
            if (end == WindowEnd.Error) { r.Completion = Completions.Failed; return; }
            if (end == WindowEnd.Elapsed) ctx.Log("The log generation phase reached the test duration before every log was written; replaying what was written.");
        }
        ctx.BeginPhase("Recovery");
        ctx.Log("Replaying log files (soft recovery) ...");
        r.Timeline.CollectionStartUtc = DateTime.UtcNow;
        var replays = new Replay[ctx.Instances.Count];
        var threads = new Thread[replays.Length];
        for (int i = 0; i < replays.Length; i++)
        {
            replays[i] = new Replay(ctx, ctx.Instances[i]);
            var rep = replays[i];
            threads[i] = new Thread(rep.Run) { IsBackground = true, Name = $"replay-{i + 1}" };
            threads[i].Start();
        }
        var sw = Stopwatch.StartNew();
        long total = (long)logs * replays.Length;
        while (!Array.TrueForAll(threads, t => !t.IsAlive))
        {
            Thread.Sleep(250);
            long done = 0;
            foreach (var rep in replays) done += rep.LogsReplayed;
            double rate = done / Math.Max(sw.Elapsed.TotalSeconds, 0.001);
            ctx.Events.Progress("Recovery", 100.0 * done / Math.Max(1, total), rate > 0 ? (total - done) / rate : null, TestRunner.F($"{done} of {total} logs replayed ({(done > 0 ? sw.Elapsed.TotalSeconds / done * replays.Length : 0):F2} s per log)"));
        }
        r.Timeline.CollectionEndUtc = DateTime.UtcNow;
        var result = new SoftRecoveryResult();
        foreach (var rep in replays)
        {
            if (rep.Failure is not null) throw rep.Failure;
            var inst = RunRecord.Instance(ctx, rep.Instance.Index);
            Replace(inst, rep.LogRead, StreamNames.LogRead, rep.Elapsed, "Read");
            Replace(inst, rep.DbRead, StreamNames.DatabaseRead, rep.Elapsed, "Read");
            Replace(inst, rep.DbWrite, StreamNames.DatabaseWrite, rep.Elapsed, "Write");
            result.Instances.Add(new RecoveryInstance
            {
                Instance = inst.Name, LogsReplayed = rep.LogsReplayed, ElapsedSeconds = Math.Round(rep.Elapsed, 3), PagesReplayed = rep.PagesReplayed,
                SecondsPerLog = rep.LogsReplayed > 0 ? Math.Round(rep.Elapsed / rep.LogsReplayed, 4) : 0,
            });
            ctx.Log(TestRunner.F($"{inst.Name}: {rep.LogsReplayed} log files replayed ({rep.PagesReplayed} page updates) in {rep.Elapsed:F2} s."));
        }
        result.LogsReplayedTotal = result.Instances.Sum(i => i.LogsReplayed);
        result.ElapsedSecondsTotal = Math.Round(result.Instances.Sum(i => i.ElapsedSeconds), 3);
        result.ReplaySeconds = result.Instances.Count > 0 ? result.Instances.Max(i => i.ElapsedSeconds) : 0;
        result.SecondsPerLog = result.LogsReplayedTotal > 0 ? Math.Round(result.ElapsedSecondsTotal / result.LogsReplayedTotal, 4) : 0;
        r.SoftRecovery = result;
        ctx.Log(TestRunner.F($"Soft recovery: average time to play one log file {result.SecondsPerLog:F3} s."));
        if (ctx.Cancel.IsCancellationRequested) r.Completion = Completions.Stopped;
    }

    private static void Replace(InstanceResult inst, (LatencyHistogram H, long Bytes) data, string name, double seconds, string op)
    {
        inst.Streams.RemoveAll(s => s.Stream == name);
        var h = data.H;
        inst.Streams.Add(new StreamResult
        {
            Stream = name, Operation = op, Operations = h.Count, Bytes = data.Bytes, DurationSeconds = Math.Round(seconds, 3),
            OperationsPerSecond = seconds > 0 ? h.Count / seconds : 0, AverageBytes = h.Count > 0 ? (double)data.Bytes / h.Count : 0,
            LatencyMs = HistogramMath.Summary(h), MaxSampleAverageLatencyMs = h.Count > 0 ? h.MeanNs / 1e6 : 0, Histogram = HistogramMath.ToData(h),
        });
    }

    /// <summary>The replay of one instance's generations, on its own thread (direct, synchronous I/O).</summary>
    private sealed class Replay
    {
        private readonly RunContext _ctx;
        public Replay(RunContext ctx, InstanceWorkload w) { _ctx = ctx; Instance = w; }
        public InstanceWorkload Instance { get; }
        public int LogsReplayed;
        public long PagesReplayed;
        public double Elapsed;
        public Exception? Failure;
        public (LatencyHistogram, long) LogRead = (new LatencyHistogram(), 0);
        public (LatencyHistogram, long) DbRead = (new LatencyHistogram(), 0);
        public (LatencyHistogram, long) DbWrite = (new LatencyHistogram(), 0);

        public void Run()
        {
            try { RunCore(); }
            catch (Exception ex) { Failure = ex; }
        }

        private void RunCore()
        {
            var w = Instance;
            var db = _ctx.Files[w.DatabaseFileIndex];
            using var logBuffer = new AlignedBuffer(LogFormat.FileSize);
            using var page = new AlignedBuffer(PageFormat.PageSize);
            var seen = new HashSet<int>();
            var sw = Stopwatch.StartNew();
            long last = w.LogFull ? w.Generation : w.Generation - 1;
            if (!w.LogFull && w.LogOffset > LogFormat.FileHeaderBytes) last = w.Generation;
            for (long gen = w.FirstGeneration; gen <= last; gen++)
            {
                if (_ctx.Cancel.IsCancellationRequested) break;
                var file = _ctx.Files[w.LogSlot(gen)];
                long t0 = Stopwatch.GetTimestamp();
                int got = DirectIo.Read(file, logBuffer.Span, 0);
                Record(ref LogRead, t0, got);
                var data = logBuffer.Slice(0, got);
                var header = LogFormat.TryReadFileHeader(data);
                if (header is not { } h || h.Generation != gen || h.InstanceId != w.InstanceId)
                {
                    w.ChecksumErrors++;
                    lock (w.ChecksumProblems) w.ChecksumProblems.Add($"Instance.{w.Index} replay: {file.Path} does not hold generation {gen} of instance 0x{w.InstanceId:X16}");
                    continue;
                }
                seen.Clear();
                int offset = LogFormat.FileHeaderBytes;
                while (offset + LogFormat.Sector <= got)
                {
                    var status = LogFormat.ReadBlock(data.Slice(offset), gen, w.InstanceId, out int length, out int records);
                    if (status == LogFormat.BlockStatus.End) break;
                    if (status != LogFormat.BlockStatus.Ok)
                    {
                        w.ChecksumErrors++;
                        lock (w.ChecksumProblems) w.ChecksumProblems.Add($"Instance.{w.Index} replay: {file.Path} block at offset {offset}: {status}");
                        break;
                    }
                    for (int i = 0; i < records; i++)
                    {
                        int p = LogFormat.RecordPage(data.Slice(offset), i);
                        if (p <= 0 || p >= w.PageCount || !seen.Add(p)) continue;
                        long off = (long)p * PageFormat.PageSize;
                        t0 = Stopwatch.GetTimestamp();
                        int n = DirectIo.Read(db, page.Span, off);
                        Record(ref DbRead, t0, n);
                        var check = PageFormat.Verify(page.Span, p, w.InstanceId);
                        if (!check.Ok) lock (w.ChecksumProblems) w.ReportBadPage(check, "replay read");
                        PageFormat.Stamp(page.Span, p, w.Content, Interlocked.Increment(ref w.WriteGeneration));
                        t0 = Stopwatch.GetTimestamp();
                        DirectIo.Write(db, page.Span, off);
                        Record(ref DbWrite, t0, PageFormat.PageSize);
                        PagesReplayed++;
                    }
                    offset += length;
                }
                LogsReplayed++;
            }
            DirectIo.Flush(db);
            Elapsed = sw.Elapsed.TotalSeconds;
        }

        private static void Record(ref (LatencyHistogram H, long Bytes) s, long startTicks, int bytes)
        {
            long ns = (long)((Stopwatch.GetTimestamp() - startTicks) * (1e9 / Stopwatch.Frequency));
            s.H.Record(ns);
            s.Bytes += Math.Max(0, bytes);
        }
    }
}
