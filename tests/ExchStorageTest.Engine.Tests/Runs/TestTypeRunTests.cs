using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Tests.Io;
using ExchStorageTest.Engine.Workload;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Runs;

public class TestTypeRunTests
{
    private readonly ITestOutputHelper _out;
    public TestTypeRunTests(ITestOutputHelper output) => _out = output;

    private TestResults Run(EngineRequest req, CancellationToken cancel = default)
    {
        var r = TestRunner.Run(TestPlanner.Plan(req), EventWriter.Null, cancel);
        foreach (var l in r.TestLog) _out.WriteLine(l.Message);
        return r;
    }

    /// <summary>The engine's result event for a run (what the module's TestResult is made from).</summary>
    private static System.Text.Json.JsonElement ResultEvent(TestResults r)
    {
        using var buffer = new MemoryStream();
        ExchStorageTest.Engine.Cli.Commands.ResultEvent.Write(new EventWriter(buffer), r, Array.Empty<ExchStorageTest.Engine.Reports.ReportFile>());
        string line = System.Text.Encoding.UTF8.GetString(buffer.ToArray()).Split('\n', StringSplitOptions.RemoveEmptyEntries).Last();
        return System.Text.Json.JsonDocument.Parse(line).RootElement.Clone();
    }

    [Fact]
    public void DatabaseBackup_reads_every_database_once_and_reports_mb_per_second()
    {
        using var folder = new TestFolder("backup");
        var r = Run(folder.Request(TestType.DatabaseBackup, 600));
        Assert.Equal("Complete", r.Completion);
        Assert.NotNull(r.Backup);
        Assert.Equal(2, r.Backup!.Instances.Count);
        foreach (var inst in r.Instances)
        {
            var b = inst.Stream(StreamNames.BackupRead)!;
            Assert.Equal(inst.DatabaseSizeBytes, b.Bytes);
            Assert.Equal(262144, b.AverageBytes, 0);
        }
        Assert.All(r.Backup.Instances, b => Assert.True(b.MBPerSecond > 0));
        Assert.Equal("Pass", r.Verdict.Result);
        // The result carries what a backup measured (its latencies alone said nothing of it).
        Assert.Equal(r.Backup.Instances.Max(b => b.ElapsedSeconds), r.Backup.ElapsedSeconds);
        var backup = ResultEvent(r).GetProperty("backup");
        Assert.Equal(r.Backup.ElapsedSeconds, backup.GetProperty("seconds").GetDouble(), 3);
        Assert.Equal(r.Backup.TotalMBPerSecond, backup.GetProperty("mbPerSecond").GetDouble(), 3);
        Assert.True(File.Exists(r.SavedPath!));
    }

    [Fact]
    public void Stress_runs_the_load_then_a_clean_checksum_pass()
    {
        using var folder = new TestFolder("stress");
        var r = Run(folder.Request(TestType.Stress, 4));
        Assert.Equal("Lenient", r.Settings.Thresholds.Name);
        Assert.NotNull(r.Checksum);
        // Every page of the planned size, and every page the run grew the databases by (new pages
        // written at the clean shutdown and recorded in the headers), is checked and clean.
        long grownPages = (r.Sizing.FinalDatabaseSizeBytes - r.Sizing.InitialDatabaseSizeBytes) / PageFormat.PageSize;
        Assert.True(grownPages > 0, "the databases did not grow");
        // Into room their files were extended by ahead of the writes, the room left unfilled cut off at the end.
        Assert.Contains(r.TestLog, l => l.Message.Contains("its file was extended ahead of the new pages", StringComparison.Ordinal));
        Assert.Equal(2 * 639 + grownPages, r.Checksum!.PagesChecked);
        Assert.Equal(0, r.Checksum.BadPages);
        Assert.Equal(0, r.Checksum.BadLogs);
        Assert.True(r.Checksum.LogsChecked >= 16);
        Assert.DoesNotContain(r.Verdict.Reasons, x => x.Code.StartsWith("Checksum"));
    }

    [Fact]
    public void SoftRecovery_generates_and_replays_the_requested_logs()
    {
        using var folder = new TestFolder("recovery");
        var req = folder.Request(TestType.SoftRecovery, 300);
        req.LogFilesToReplay = 5;
        var r = Run(req);
        Assert.Equal("Complete", r.Completion);
        Assert.NotNull(r.SoftRecovery);
        Assert.All(r.SoftRecovery!.Instances, i => Assert.Equal(5, i.LogsReplayed));
        Assert.All(r.SoftRecovery.Instances, i => Assert.True(i.PagesReplayed > 0));
        Assert.True(r.SoftRecovery.SecondsPerLog > 0);
        // The result carries what the replay measured: logs replayed, how long, seconds per log.
        Assert.Equal(r.SoftRecovery.Instances.Max(i => i.ElapsedSeconds), r.SoftRecovery.ReplaySeconds);
        var result = ResultEvent(r);
        Assert.False(result.TryGetProperty("targetIops", out _)); // the replay is no transactional load against a target
        var replay = result.GetProperty("softRecovery");
        Assert.Equal(10, replay.GetProperty("logsReplayed").GetInt32());
        Assert.Equal(r.SoftRecovery.ReplaySeconds, replay.GetProperty("seconds").GetDouble(), 3);
        Assert.Equal(r.SoftRecovery.SecondsPerLog, replay.GetProperty("secondsPerLog").GetDouble(), 4);
        Assert.All(r.Instances, i => Assert.True(i.Stream(StreamNames.LogRead)!.Operations == 5));
        Assert.All(r.Instances, i => Assert.Equal(0, i.ChecksumErrors));
        // The replayed database is still consistent.
        var check = ExchStorageTest.Engine.Storage.ChecksumVerifier.Verify(r.Instances.Select(i => i.DatabasePath), r.Instances.Select(i => i.LogPath), EventWriter.Null, default);
        Assert.Equal(0, check.BadPages + check.BadLogs);
    }

    [Fact]
    public void Cancel_mid_run_stops_cleanly_keeps_samples_and_saves()
    {
        using var folder = new TestFolder("cancel");
        var req = folder.Request(TestType.Performance, 60);
        using var cts = new CancellationTokenSource();
        var plan = TestPlanner.Plan(req);
        var sw = System.Diagnostics.Stopwatch.StartNew();
        // Cancel once the measured window has produced a few samples.
        var events = new NotifyingStream(() => cts.Cancel(), "\"type\":\"sample\"", 3);
        var r = TestRunner.Run(plan, new EventWriter(events), cts.Token);
        Assert.True(sw.Elapsed.TotalSeconds < 40, $"took {sw.Elapsed.TotalSeconds} s");
        Assert.Equal("Stopped", r.Completion);
        Assert.NotEmpty(r.TimeSeries);
        // Stopped, or Fail only on a rule a longer window could not undo (a latency sample above its maximum on a loaded machine).
        Assert.Equal("RunStopped", r.Verdict.Reasons[^1].Code);
        Assert.Contains(" s into the measured window of the 60 s planned", r.Verdict.Reasons[^1].Message, StringComparison.Ordinal);
        Assert.All(r.Verdict.Reasons.SkipLast(1), x => Assert.Contains(x.Code, new[] { "DatabaseReadLatencyMaximum", "LogWriteLatencyMaximum", "IoErrors" }));
        Assert.Equal(r.Verdict.Reasons.Count == 1 ? "Stopped" : "Fail", r.Verdict.Result);
        var loaded = ResultsFile.Load(r.SavedPath!);
        Assert.Equal("Stopped", loaded.Completion);
        Assert.Equal(r.TimeSeries.Count, loaded.TimeSeries.Count);
        Assert.True(loaded.Instances[0].Stream(StreamNames.DatabaseRead)!.Operations > 0);
        // The set is re-usable by the next run (attach).
        req.DatabaseSource = DatabaseSource.Attach;
        req.DurationSeconds = 2;
        Assert.Equal("Complete", Run(req).Completion);
    }

    [Fact]
    public void Stopped_while_tuning_the_run_is_Stopped_with_no_tuning_failure_and_no_achieved_figure()
    {
        using var folder = new TestFolder("tune-stop");
        var req = folder.Request(TestType.Performance, 60, threads: null);
        using var cts = new CancellationTokenSource();
        // Stopped as the tuning search begins: before its first step, so before any window (no timing involved).
        var events = new NotifyingStream(() => cts.Cancel(), "Tuning the session count", 1);
        var r = TestRunner.Run(TestPlanner.Plan(req), new EventWriter(events), cts.Token);
        Assert.Equal("Stopped", r.Completion);
        Assert.Equal("Stopped", r.TuningOutcome);
        Assert.Null(r.Timeline.CollectionStartUtc);
        Assert.Equal("Stopped", r.Verdict.Result);
        var reason = Assert.Single(r.Verdict.Reasons);
        Assert.Equal("RunStopped", reason.Code);
        Assert.Contains("Stopped during Tuning, before the measured window began", reason.Message, StringComparison.Ordinal);
        Assert.Contains(r.TestLog, l => l.Message.StartsWith("Tuning stopped: the run was stopped", StringComparison.Ordinal));
        Assert.DoesNotContain(r.TestLog, l => l.Message.StartsWith("Tuning failed", StringComparison.Ordinal));
        Assert.Equal("Stopped", ResultsFile.Load(r.SavedPath!).Verdict.Result);
    }

    [Fact]
    public void Auto_tuning_picks_a_thread_count_and_logs_every_step()
    {
        using var folder = new TestFolder("tune");
        var req = folder.Request(TestType.Performance, 6, threads: null);
        var r = Run(req);
        Assert.True(r.Settings.AutoTuned);
        Assert.NotEmpty(r.TuningLog);
        Assert.Equal("Succeeded", r.TuningOutcome);
        Assert.True(r.Settings.ThreadCount >= 1);
        Assert.Contains(r.TuningLog, s => s.Phase == "Stable" && s.Passed && s.ThreadCount == r.Settings.ThreadCount);
        // Every step records the target it was judged against (the report's Target Rate column).
        Assert.All(r.TuningLog, s => Assert.Equal(r.Sizing.TargetTransactionalIops, s.TargetRateIops));

        // The test log's cache and the reports' are one figure: the caches that ran, summed over the databases.
        // These small databases cut the profile's cache, so the test log and the report say what was configured too.
        long min = r.Instances.Sum(i => i.MinimumDatabaseCacheBytes), max = r.Instances.Sum(i => i.MaximumDatabaseCacheBytes);
        Assert.True(max < r.Profile.MaximumDatabaseCacheMB * 1048576, $"{max} bytes");
        Assert.Contains(r.TestLog, l => l.Message == $"Database cache settings: (minimum: {RunContext.Mb(min)}, maximum: {RunContext.Mb(max)})");
        Assert.Contains(r.TestLog, l => l.Message.StartsWith($"Database cache configured: (minimum: {RunContext.Mb(r.Profile.MinimumDatabaseCacheMB * 1048576)}, maximum: {RunContext.Mb(r.Profile.MaximumDatabaseCacheMB * 1048576)}); ", StringComparison.Ordinal));
        Assert.Matches(@"\n  Maximum Database Cache\s+" + System.Text.RegularExpressions.Regex.Escape(
                $"{ExchStorageTest.Engine.Reports.JetFormat.Mebibytes(max)} used ({ExchStorageTest.Engine.Reports.JetFormat.Mebibytes(r.Profile.MaximumDatabaseCacheMB * 1048576)} configured; "),
            ExchStorageTest.Engine.Reports.TextReport.Render(r));

        // The time series counts its seconds from the measured window it describes, not from the load's start
        // before the warm-up and the settling (a tuned run settles 2 s at its paced rate before measuring: twice the tolerance).
        var window = r.Timeline.CollectionStartUtc!.Value;
        Assert.NotEmpty(r.TimeSeries);
        Assert.All(r.TimeSeries, p => Assert.InRange(p.ElapsedSeconds - (p.TimeUtc - window).TotalSeconds, -1, 1));
        Assert.All(r.InstanceSeries, p => Assert.InRange(p.ElapsedSeconds - (p.TimeUtc - window).TotalSeconds, -1, 1));
    }

    [Fact]
    public void Open_loop_paces_transactional_io_at_the_target_rate()
    {
        using var folder = new TestFolder("open");
        var req = folder.Request(TestType.Performance, 6, threads: null); // a rate and a thread count are refused together
        req.TargetRateIops = 200;
        var r = Run(req);
        Assert.Equal("Open", r.Settings.LoadModel);
        Assert.InRange(r.Sizing.AchievedTransactionalIops, 140, 260);
        Assert.NotNull(r.Instances[0].Stream(StreamNames.DatabaseRead)!.ScheduledLatencyMs);
        // A slow load grows by a few pages into a 256-page extension: the room left unfilled is cut off at the end,
        // so each file ends at the page count its header records.
        foreach (var inst in r.Instances)
        {
            var header = DatabaseSet.Inspect(inst.DatabasePath, allowBuffered: true) ?? throw new InvalidOperationException($"no header in {inst.DatabasePath}");
            Assert.True(header.PageCount < 640 + GrowthRoom.ExtensionPages, $"{inst.DatabasePath}: {header.PageCount} pages");
            Assert.Equal(header.PageCount * PageFormat.PageSize, new FileInfo(inst.DatabasePath).Length);
        }
    }

    // Throughput sizes the databases by a percentage of the volume's free space, so the test brings a small
    // file system of its own: on the host's disk the sizes scaled with whatever was free (a CI with 26 GB
    // free left "-1376256 bytes per database" at 0.05%).
    [RootFact]
    public void Throughput_sizes_by_capacity_and_finds_the_largest_passing_thread_count()
    {
        using var folder = new TestFolder("throughput");
        using var volume = new LoopFileSystem(folder, sizeMiB: 256, name: "throughput");
        var req = folder.Request(TestType.Throughput, 4, threads: null);
        string db = Directory.CreateDirectory(volume.Combine("Db")).FullName;
        req.Profile.DatabasePaths = new[] { db };
        req.CapacityPercent = 20;
        long free = VolumeSpace.Of(db).FreeBytes;
        var r = Run(req);
        Assert.Equal("Complete", r.Completion);
        Assert.Equal(0, r.Sizing.TargetTransactionalIops);
        // 20% of the free space shared by the two databases, less each one's logs and the planner's margins.
        long logs = TestPlanner.CircularLogGenerations * TestPlan.LogFileSize;
        long share = free * 20 / 100 / 2 - logs;
        Assert.All(r.Instances, i => Assert.InRange(i.DatabaseSizeBytes, share - (free / 100), share));
        Assert.NotEqual(20L * 1048576, r.Instances[0].DatabaseSizeBytes);
        Assert.Contains(r.TuningLog, s => s.Phase == "Stable");
        Assert.All(r.TuningLog, s => Assert.Null(s.TargetRateIops)); // a search for the maximum has no target
        Assert.True(r.Settings.ThreadCount >= 2);
        Assert.DoesNotContain(r.Verdict.Reasons, x => x.Code == "TargetIopsNotMet");
    }

    /// <summary>Writes nothing anywhere; calls back after a marker was seen <c>count</c> times.</summary>
    internal sealed class NotifyingStream : Stream
    {
        private readonly Action _callback;
        private readonly byte[] _marker;
        private int _left;
        public NotifyingStream(Action callback, string marker, int count) { _callback = callback; _marker = System.Text.Encoding.UTF8.GetBytes(marker); _left = count; }
        public override void Write(byte[] buffer, int offset, int count) => Write(buffer.AsSpan(offset, count));
        public override void Write(ReadOnlySpan<byte> buffer)
        {
            if (buffer.IndexOf(_marker) >= 0 && --_left == 0) _callback();
        }
        public override void Flush() { }
        public override bool CanRead => false;
        public override bool CanSeek => false;
        public override bool CanWrite => true;
        public override long Length => 0;
        public override long Position { get => 0; set { } }
        public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
        public override void SetLength(long value) => throw new NotSupportedException();
    }
}
