using System.Diagnostics;
using System.Runtime.InteropServices;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Runs;

/// <summary>
/// The results document's bookkeeping, whatever the test type: what the run was asked and where it ran (<see cref="Begin"/>),
/// the databases' sizes, what each load phase measured (<see cref="Collect"/>), and the totals the run ends with
/// (<see cref="End"/>). The judging and the saving are the pipeline's (<see cref="TestRunner"/>).
/// </summary>
internal static class RunRecord
{
    /// <summary>Before anything runs: the settings, the machine, the volumes under test and the planned sizing.</summary>
    public static void Begin(RunContext ctx)
    {
        var plan = ctx.Plan;
        var r = ctx.Results;
        var s = ctx.Shape;
        r.Settings = new RunSettings
        {
            DurationSeconds = plan.DurationSeconds,
            WarmupSeconds = plan.Schedule.WarmupSeconds,
            StartAtUtc = plan.Schedule.LoadStartUtc,
            MeasureAtUtc = plan.Schedule.MeasureStartUtc,
            SampleIntervalSeconds = plan.SampleIntervalSeconds,
            ThreadCount = plan.ThreadCount ?? 0,
            AutoTuned = plan.ThreadCount is null && plan.Request.TargetRateIops is null,
            LoadModel = plan.Request.TargetRateIops is null ? "Closed" : "Open",
            TargetRateIops = plan.Request.TargetRateIops,
            ContinueOnError = plan.Request.ContinueOnError,
            DatabaseSource = plan.Request.DatabaseSource,
            Thresholds = plan.Thresholds,
            InsertPercent = s.InsertPercent, DeletePercent = s.DeletePercent, ReplacePercent = s.ReplacePercent,
            ReadPercent = s.ReadPercent, LazyCommitPercent = s.LazyCommitPercent,
            OutputPath = plan.OutputPath,
            DataProfile = DataProfileSettings.From(plan.DataProfile),
        };
        r.Settings.WriteBackOf(s);
        r.Settings.RecordOthers(plan.Request);
        r.Environment = new EnvironmentInfo
        {
            MachineName = Environment.MachineName,
            OperatingSystem = RuntimeInformation.OSDescription,
            Runtime = RuntimeInformation.FrameworkDescription,
            ProcessorCount = Environment.ProcessorCount,
            MemoryBytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes,
        };
        foreach (var i in plan.Instances)
        {
            foreach (var path in new[] { i.DatabaseFolder, i.LogFolder })
            {
                if (r.Environment.Volumes.Exists(v => v.Path == path)) continue;
                var v = new VolumeReport { Path = path };
                try
                {
                    var info = VolumeSpace.Of(Directory.Exists(path) ? path : Path.GetDirectoryName(path) ?? path);
                    v.TotalBytes = info.TotalBytes;
                    v.FreeBytes = info.FreeBytes;
                }
                catch (Exception) { /* folder not there yet: sizes unknown */ }
                r.Environment.Volumes.Add(v);
            }
        }
        r.Sizing.TargetTransactionalIops = plan.TestType == TestType.Throughput ? 0 : Math.Round(plan.TargetIops, 3);
        r.Sizing.DatabaseFileCount = plan.Instances.Count;
        r.Sizing.CapacityPercent = plan.TestType == TestType.Throughput ? plan.Request.CapacityPercent : null;
        r.Sizing.PageSizeBytes = PageFormat.PageSize;
        r.Sizing.LogFileSizeBytes = LogFormat.FileSize;
    }

    /// <summary>The databases' sizes on disk (initial: as prepared; otherwise: as the run leaves them) and each instance's cache bounds.</summary>
    public static void Sizes(RunContext ctx, bool initial)
    {
        long total = 0;
        foreach (var p in ctx.Prepared)
        {
            total += File.Exists(p.Plan.DatabaseFile) ? new FileInfo(p.Plan.DatabaseFile).Length : 0;
            var inst = Instance(ctx, p.Plan.Index);
            if (ctx.Instances.Find(w => w.Index == p.Plan.Index) is { } w)
            {
                inst.MaximumDatabaseCacheBytes = UsedMaximumCacheBytes(w);
                inst.MinimumDatabaseCacheBytes = UsedMinimumCacheBytes(ctx, w);
            }
        }
        if (initial) ctx.Results.Sizing.InitialDatabaseSizeBytes = total;
        else ctx.Results.Sizing.FinalDatabaseSizeBytes = total;
    }

    /// <summary>The cache a database ran with: the cache model's buffers (the profile's maximum split over the databases, cut for a small database).</summary>
    public static long UsedMaximumCacheBytes(Workload.InstanceWorkload w) => (long)w.Cache.Capacity * PageFormat.PageSize;

    /// <summary>
    /// A database's minimum cache: the profile's minimum split over the databases, never above the cache it ran with
    /// (the test log's "Database cache settings" and the reports' Minimum Database Cache, summed over the databases).
    /// </summary>
    public static long UsedMinimumCacheBytes(RunContext ctx, Workload.InstanceWorkload w) =>
        Math.Min(UsedMaximumCacheBytes(w), ctx.Plan.Profile.MinimumDatabaseCacheMB * 1048576 / Math.Max(1, ctx.Plan.Instances.Count));

    /// <summary>A stopped load phase's streams (replacing a stream of the same name an earlier phase left), sessions and page fault stalls.</summary>
    public static void Collect(RunContext ctx, LoadPhase phase)
    {
        var r = ctx.Results;
        double window = phase.Driver.AccountedSeconds;
        foreach (var (w, s) in phase.StreamResults())
        {
            var inst = Instance(ctx, w.Index);
            inst.Streams.RemoveAll(x => x.Stream == s.Stream);
            inst.Streams.Add(s);
        }
        for (int i = 0; i < ctx.Instances.Count; i++)
        {
            var w = ctx.Instances[i];
            var inst = Instance(ctx, w.Index);
            if (phase.Transactional[i] is { } transactional) inst.Sessions = transactional.Sessions;
            if (phase.Options.Transactional && window > 0)
            {
                inst.PageFaultStallsPerSecond = phase.StallsPerSecond(i, window);
                inst.MaximumPageFaultStallsPerSecond = phase.MaxStallsPerSecond(i);
                inst.PageFaultStallSamplesAboveZero = phase.StallSamples(i);
                (inst.PageFaultStallWaitMs, inst.FlushBacklogPages, inst.FlushWritesInFlight) = phase.FlushEvidenceOfWindow(i);
            }
        }
        r.Sizing.AchievedTransactionalIops = Math.Round(TransactionalIops.Achieved(r), 3);
        r.Engine.SetMeasured(phase.Driver.AccountedCpuSeconds, window, TransactionalIops.Operations(r.Instances));
        if (phase.MachineEvidence is { } host)
        {
            r.MachineEvidence = host;
            ctx.Log(Verdict.MachineLimit.Describe(host));
        }
    }

    /// <summary>The results' entry of instance <paramref name="index"/>, made from its prepared database the first time it is asked for.</summary>
    public static InstanceResult Instance(RunContext ctx, int index)
    {
        var inst = ctx.Results.Instances.Find(x => x.Index == index);
        if (inst is not null) return inst;
        var p = ctx.Prepared.First(x => x.Plan.Index == index);
        inst = new InstanceResult
        {
            Name = p.Plan.Name, Index = index, DatabasePath = p.Plan.DatabaseFile, LogPath = p.Plan.LogFolder,
            DatabaseSizeBytes = p.Header.SizeBytes, InstanceId = $"0x{p.InstanceId:X16}", DatabaseCreated = p.Created,
        };
        var copies = ctx.Plan.Instances.First(x => x.Index == index).PassiveCopies;
        if (copies.Count > 0)
        {
            inst.PassiveCopyPaths = copies.Select(c => c.Database.DatabaseFile).ToList();
            inst.LaggedPassiveCopies = copies.Count(c => c.Lagged);
        }
        ctx.Results.Instances.Add(inst);
        ctx.Results.Instances.Sort((a, b) => a.Index.CompareTo(b.Index));
        return inst;
    }

    /// <summary>
    /// However the run ended: its end time, the I/O backend and where its workers ran, the final sizes, each instance's
    /// totals (cache, transactions, checksum findings, log generations) and the engine's CPU per I/O.
    /// </summary>
    public static void End(RunContext ctx)
    {
        var r = ctx.Results;
        ctx.EndPhase();
        r.Timeline.TestEndUtc = DateTime.UtcNow;
        r.Environment.IoBackend = ctx.BackendName;
        r.Environment.WorkerCpus = ctx.WorkerCpus.ToList();
        r.Environment.DirectIo = ctx.DirectIo;
        if (ctx.Prepared.Count > 0) Sizes(ctx, initial: false);
        foreach (var w in ctx.Instances)
        {
            var inst = Instance(ctx, w.Index);
            inst.DatabaseCacheSizeBytes = (long)w.Cache.Resident * PageFormat.PageSize;
            inst.Transactions = w.Transactions;
            inst.ChecksumErrors = w.ChecksumErrors;
            inst.ChecksumRaces = w.ChecksumRaces;
            inst.ChecksumProblems = new List<string>(w.ChecksumProblems);
            inst.LogGenerationsWritten = w.GenerationsCompleted;
        }
        var cpu = (Process.GetCurrentProcess().TotalProcessorTime - ctx.StartCpu).TotalSeconds;
        r.Engine.ProcessCpuSeconds = Math.Round(cpu, 3);
        r.Engine.TotalOperations = ctx.TotalOperations;
        r.Engine.CpuMicrosecondsPerIo = ctx.TotalOperations > 0 ? Math.Round(cpu * 1e6 / ctx.TotalOperations, 2) : 0;
        r.Engine.IoFeatures = ctx.IoFeatures;
        if (ctx.IoFeatures.Count > 0)
            ctx.Log($"I/O backend {ctx.BackendName}: " + string.Join("; ", ctx.IoFeatures.Select(f => f.Describe())) + ".");
    }

    /// <summary>The measured samples (instants of the time series, every stream's sample at one instant counting once).</summary>
    public static int SampleCount(TestResults r)
    {
        var seen = new HashSet<double>();
        foreach (var s in r.TimeSeries) seen.Add(s.ElapsedSeconds);
        return seen.Count;
    }
}
