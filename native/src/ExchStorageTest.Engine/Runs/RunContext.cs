using System.Diagnostics;
using System.Globalization;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Verdict;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>Everything one run holds: plan, results being filled, open files, instance workloads, the test log.</summary>
internal sealed class RunContext : IDisposable
{
    private readonly object _saveLock = new();
    private readonly string _stem;
    /// <summary>The results file this run claimed (exclusive create) at its first save; only this file is ever replaced.</summary>
    private string? _claimed;
    private bool _checkpointFailing;

    public RunContext(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        Plan = plan;
        Events = events;
        Cancel = cancel;
        Shape = new WorkloadShape { QuickFlushWriteMs = WorkloadShape.QuickFlushWriteMsFor(plan.Thresholds) };
        var start = DateTime.Now;
        Results = new TestResults
        {
            TestId = plan.TestId,
            RunId = plan.Request.RunId,
            TestType = plan.TestType,
            ReportedAs = plan.Request.ReportedAs is { } named && named != plan.TestType ? named : null,
            EngineVersion = typeof(RunContext).Assembly.GetName().Version?.ToString() ?? "0.0.0",
            Exchange = ExchangeModelled.Of(plan.Exchange),
            Profile = plan.Profile,
        };
        Results.Timeline.TestStartUtc = start.ToUniversalTime();
        _stem = ResultsFile.Stem(Results.ReportName, start);
        ResultsPath = Path.Combine(plan.OutputPath, _stem + ".json");
        StartCpu = Process.GetCurrentProcess().TotalProcessorTime;
    }

    public TestPlan Plan { get; }
    public EventWriter Events { get; }
    public CancellationToken Cancel { get; }
    /// <summary>The caller's steps of a caller-stepped capacity search (<see cref="TestPlan.CallerSteps"/>); null for every other run.</summary>
    public Capacity.CapacityControl? CapacitySteps { get; init; }
    public WorkloadShape Shape { get; }
    public TestResults Results { get; }
    /// <summary>The results file: the intended name until the first save claims it (then possibly "_2" ...).</summary>
    public string ResultsPath { get; private set; }
    public TimeSpan StartCpu { get; }
    public IReadOnlyList<PreparedInstance> Prepared { get; set; } = Array.Empty<PreparedInstance>();
    public List<IoFile> Files { get; } = new();
    public List<InstanceWorkload> Instances { get; } = new();
    public string BackendName { get; set; } = "";
    /// <summary>Where the last load phase's workers ran (see <see cref="Load.LoadDriver.WorkerCpus"/>).</summary>
    public IReadOnlyList<int> WorkerCpus { get; set; } = Array.Empty<int>();
    /// <summary>The last load phase's backend optimisations (see <see cref="Load.LoadDriver.IoFeatures"/>).</summary>
    public List<Results.IoFeatureUse> IoFeatures { get; set; } = new();
    public bool DirectIo { get; set; } = true;
    public long TotalOperations { get; set; }

    /// <summary>A Jetstress-style test log line (also sent as a log event).</summary>
    public void Log(string message) => Log(EventFields.Log.Info, message);

    /// <summary>A test log line the module shows as a warning: something the run could not do or check.</summary>
    public void Warn(string message) => Log(EventFields.Log.Warning, message);

    private void Log(string level, string message)
    {
        lock (Results.TestLog) Results.TestLog.Add(new TestLogLine { TimeUtc = DateTime.UtcNow, Message = message });
        Events.Log(level, message);
    }

    public void BeginPhase(string name)
    {
        var marks = Results.Timeline.Phases;
        if (marks.Count > 0 && marks[^1].EndUtc is null) marks[^1].EndUtc = DateTime.UtcNow;
        marks.Add(new PhaseMark { Name = name, StartUtc = DateTime.UtcNow });
    }

    public void EndPhase()
    {
        var marks = Results.Timeline.Phases;
        if (marks.Count > 0 && marks[^1].EndUtc is null) marks[^1].EndUtc = DateTime.UtcNow;
    }

    /// <summary>
    /// Saves the results as they stand (atomic), so a killed process leaves its samples on disk. The
    /// saved copy says what a reader finds if this is the last one: completion Interrupted, the end
    /// time is "last seen" now, and an Interrupted verdict saying so; the finished run's save replaces it.
    /// A checkpoint that cannot be written (full disk, share gone) does not stop the run: it warns,
    /// keeps measuring with every sample in memory, and tries again at the next interval.
    /// </summary>
    public void Checkpoint()
    {
        lock (_saveLock)
        {
            var r = Results;
            var (completion, end, verdict) = (r.Completion, r.Timeline.TestEndUtc, r.Verdict);
            var now = DateTime.UtcNow;
            r.Completion = Completions.Interrupted;
            r.Timeline.TestEndUtc = now;
            r.Verdict = VerdictJudge.Interrupted(r);
            try
            {
                Save();
                if (_checkpointFailing) Events.Log(EventFields.Log.Info, $"Results checkpoint saved again to {ResultsPath}.");
                _checkpointFailing = false;
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                if (!_checkpointFailing)
                    Events.Log(EventFields.Log.Warning, $"Could not save the results checkpoint '{ResultsPath}': {ex.Message} The run goes on; every sample is kept in memory and saved at the end.");
                _checkpointFailing = true;
            }
            finally
            {
                (r.Completion, r.Timeline.TestEndUtc, r.Verdict) = (completion, end, verdict);
            }
        }
    }

    /// <summary>The final save of the finished run; throws when it cannot be written.</summary>
    public void SaveFinal()
    {
        lock (_saveLock) Save();
    }

    private void Save()
    {
        _claimed ??= OutputFile.CreateUnique(Plan.OutputPath, _stem, ".json");
        ResultsPath = _claimed;
        ResultsFile.Save(Results, _claimed);
    }

    /// <summary>Extends the databases' files ahead of their growth (made by <see cref="OpenFiles"/>).</summary>
    private DatabaseExtender? _extender;

    /// <summary>Before a load that grows the databases (<see cref="PhaseOptions.Grow"/>): their files' first extension, and later ones as they fill.</summary>
    public void StartExtending() => _extender?.Start();

    /// <summary>After that load: no extension in progress (the files' unused room can then be cut).</summary>
    public void StopExtending() => _extender?.Dispose();

    /// <summary>Opens every database and log file once for the whole run (direct I/O; logs write-through).</summary>
    public void OpenFiles()
    {
        _extender ??= new DatabaseExtender(Plan.Request.AllowBufferedIo, Warn);
        ulong seed = (ulong)Environment.TickCount64 * 0x9E3779B97F4A7C15UL;
        foreach (var p in Prepared)
        {
            var db = IoFileOpener.Open(p.Plan.DatabaseFile, IoFileMode.OpenExisting, writeThrough: true, Plan.Request.AllowBufferedIo);
            DirectIo &= db.Direct;
            Files.Add(db);
            int dbIndex = Files.Count - 1;
            var logs = new int[p.LogFiles.Count];
            for (int i = 0; i < logs.Length; i++)
            {
                var lf = IoFileOpener.Open(p.LogFiles[i], IoFileMode.OpenExisting, writeThrough: true, Plan.Request.AllowBufferedIo);
                DirectIo &= lf.Direct;
                Files.Add(lf);
                logs[i] = Files.Count - 1;
            }
            var passive = new PassiveCopyFiles[p.PassiveCopies.Count];
            for (int k = 0; k < passive.Length; k++)
            {
                var c = p.PassiveCopies[k];
                int cDb = Open(c.Plan.DatabaseFile);
                passive[k] = new PassiveCopyFiles(k + 1, Plan.Instances.First(i => i.Index == p.Plan.Index).PassiveCopies[k].Lagged, cDb,
                    c.LogFiles.Select(Open).ToArray(), c.PageCount, c.InstanceId, c.Content);
            }
            var (cap, start, stop) = CacheModel.Size(Plan.Profile.MaximumDatabaseCacheMB * 1024 * 1024 / Math.Max(1, Plan.Instances.Count), p.PageCount);
            Instances.Add(new InstanceWorkload(p.Plan.Index, p.InstanceId, p.PageCount, dbIndex, logs, new CacheModel(cap, start, stop),
                p.LastLogGeneration, seed ^ p.InstanceId ^ (ulong)p.Plan.Index)
            {
                Room = _extender.Add(p.Plan.Name, p.Plan.DatabaseFile, p.PageCount, GrowthLimitPages(p)),
                Content = p.Content,
                PassiveCopies = passive,
            });
        }
    }

    /// <summary>Opens one of the run's files as the databases' and logs' are (direct I/O, write-through); its index in <see cref="Files"/>.</summary>
    private int Open(string path)
    {
        var f = IoFileOpener.Open(path, IoFileMode.OpenExisting, writeThrough: true, Plan.Request.AllowBufferedIo);
        DirectIo &= f.Direct;
        Files.Add(f);
        return Files.Count - 1;
    }

    /// <summary>
    /// How far a run may grow one database: 10% of its pages (Jetstress's grew by 0.05% in 2 h and
    /// 0.5% in 24 h at the profile's load; closed-loop runs on flash can insert far faster), and
    /// never more than half the volume's free space shared over the databases, so growth cannot
    /// fill a volume sized for the databases. 0 when the free space cannot be read.
    /// </summary>
    private long GrowthLimitPages(PreparedInstance p)
    {
        try
        {
            long free = Planning.VolumeSpace.Of(p.Plan.DatabaseFolder).FreeBytes;
            return Math.Max(0, Math.Min(p.PageCount / 10, free / 2 / Math.Max(1, Plan.Instances.Count) / PageFormat.PageSize));
        }
        catch (Exception ex) when (ex is IOException or UnauthorizedAccessException) { return 0; }
    }

    /// <summary>A size in the test log's Jetstress words ("156.3 MB", "1.0 GB": binary units), rounded as the reports round it.</summary>
    public static string Mb(long bytes) => bytes >= 1L << 30
        ? Reports.JetFormat.Number(bytes / (double)(1L << 30), 1) + " GB"
        : Reports.JetFormat.Number(bytes / 1048576.0, 1) + " MB";

    public void Dispose()
    {
        _extender?.Dispose();
        foreach (var f in Files) f.Dispose();
        Files.Clear();
    }
}
