using System.Diagnostics;
using System.Globalization;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Workload;

namespace ExchStorageTest.Engine.Runs;

/// <summary>Everything one run holds: plan, results being filled, open files, instance workloads, the test log.</summary>
internal sealed class RunContext : IDisposable
{
    private readonly object _saveLock = new();

    public RunContext(TestPlan plan, EventWriter events, CancellationToken cancel)
    {
        Plan = plan;
        Events = events;
        Cancel = cancel;
        Shape = WorkloadShape.Default;
        string id = string.IsNullOrWhiteSpace(plan.Request.TestId) ? Guid.NewGuid().ToString("N") : plan.Request.TestId!;
        var start = DateTime.Now;
        Results = new TestResults
        {
            TestId = id,
            TestType = plan.TestType,
            EngineVersion = typeof(RunContext).Assembly.GetName().Version?.ToString() ?? "0.0.0",
            Profile = plan.Profile,
        };
        Results.Timeline.TestStartUtc = start.ToUniversalTime();
        string shortId = id.Length > 8 ? id[..8] : id;
        ResultsPath = Path.Combine(plan.OutputPath, $"{plan.TestType}_{start.Year}_{start.Month}_{start.Day}_{start.Hour}_{start.Minute}_{start.Second}_{shortId}.json");
        StartCpu = Process.GetCurrentProcess().TotalProcessorTime;
    }

    public TestPlan Plan { get; }
    public EventWriter Events { get; }
    public CancellationToken Cancel { get; }
    public WorkloadShape Shape { get; }
    public TestResults Results { get; }
    public string ResultsPath { get; }
    public TimeSpan StartCpu { get; }
    public IReadOnlyList<PreparedInstance> Prepared { get; set; } = Array.Empty<PreparedInstance>();
    public List<IoFile> Files { get; } = new();
    public List<InstanceWorkload> Instances { get; } = new();
    public string BackendName { get; set; } = "";
    /// <summary>Where the last load phase's workers ran (see <see cref="Load.LoadDriver.WorkerCpus"/>).</summary>
    public IReadOnlyList<int> WorkerCpus { get; set; } = Array.Empty<int>();
    public bool DirectIo { get; set; } = true;
    public long TotalOperations { get; set; }

    /// <summary>A Jetstress-style test log line (also sent as a log event).</summary>
    public void Log(string message) => Log("info", message);

    /// <summary>A test log line the module shows as a warning: something the run could not do or check.</summary>
    public void Warn(string message) => Log("warning", message);

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

    /// <summary>Saves the results as they stand (atomic), so a killed process leaves its samples on disk.</summary>
    public void Checkpoint()
    {
        lock (_saveLock)
        {
            Directory.CreateDirectory(Plan.OutputPath);
            ResultsFile.Save(Results, ResultsPath);
        }
    }

    /// <summary>Opens every database and log file once for the whole run (direct I/O; logs write-through).</summary>
    public void OpenFiles()
    {
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
            var (cap, start, stop) = CacheModel.Size(Plan.Profile.MaximumDatabaseCacheMB * 1024 * 1024 / Math.Max(1, Plan.Instances.Count), p.PageCount);
            Instances.Add(new InstanceWorkload(p.Plan.Index, p.InstanceId, p.PageCount, dbIndex, logs, new CacheModel(cap, start, stop),
                p.LastLogGeneration, seed ^ p.InstanceId ^ (ulong)p.Plan.Index) { GrowthLimitPages = GrowthLimitPages(p) });
        }
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

    public static string Mb(long bytes) => bytes >= 1L << 30
        ? (bytes / (double)(1L << 30)).ToString("F1", CultureInfo.InvariantCulture) + " GB"
        : (bytes / 1048576.0).ToString("F1", CultureInfo.InvariantCulture) + " MB";

    public void Dispose()
    {
        foreach (var f in Files) f.Dispose();
        Files.Clear();
    }
}
