using System.Diagnostics;
using System.Text.Json;
using System.Text.Json.Nodes;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Wine;

/// <summary>
/// The Windows I/O path executed for real: the self-contained win-x64 engine under Wine runs every
/// test type on the IOCP backend (CreateFileW with NO_BUFFERING | OVERLAPPED, one completion port
/// per worker, GetQueuedCompletionStatusEx), SetFileValidData, FlushFileBuffers, the volume probe,
/// PDH and the system-log check, and the bad requests that touch Windows paths. Where Wine lacks a
/// call (FileAllocationInfo, most PDH counters, volume IOCTLs, the event log) the run must carry
/// on and say so, as on a Windows box that refuses it. Short runs and tiny databases keep the suite
/// to a few minutes; Wine's page cache makes its numbers meaningless, so only behaviour is asserted.
/// </summary>
[Collection(WineCollection.Name)]
public sealed class WineRunTests : IDisposable
{
    private static readonly TimeSpan RunTimeout = TimeSpan.FromMinutes(4);
    private readonly WineSession _wine;
    private readonly ITestOutputHelper _out;
    private readonly TestFolder _dir = new("wine");

    public WineRunTests(WineSession wine, ITestOutputHelper output)
    {
        _wine = wine;
        _out = output;
        Assert.True(wine.Started, wine.StartFailure);
    }

    private string Win(string linuxPath) => WineSession.WinPath(linuxPath);

    /// <summary>The tiny two-database profile of <see cref="TestFolder.Request"/>, with Windows paths.</summary>
    private JsonObject RunRequest(string testType, double seconds, int? threads)
    {
        var request = new JsonObject
        {
            ["protocol"] = 1, ["command"] = "run", ["testType"] = testType, ["durationSeconds"] = seconds,
            ["sampleIntervalSeconds"] = 1, ["warmupSeconds"] = 1, ["outputPath"] = Win(_dir.Combine("Results")),
            ["profile"] = new JsonObject
            {
                ["name"] = "Tiny", ["mailboxCount"] = 40, ["iopsPerMailbox"] = 0.5, ["mailboxSizeMB"] = 1,
                ["databaseCount"] = 2, ["copiesPerDatabase"] = 2, ["databasePaths"] = new JsonArray(Win(_dir.Sub("Db"))),
                ["minimumDatabaseCacheMB"] = 4, ["maximumDatabaseCacheMB"] = 8,
            },
        };
        if (threads is int t) request["threadCount"] = t;
        return request;
    }

    private WineRun Run(JsonObject request, TimeSpan? timeout = null)
    {
        var sw = Stopwatch.StartNew();
        var run = _wine.Run(request.ToJsonString(), _dir.Path, timeout ?? RunTimeout);
        _out.WriteLine($"{request["command"]} {request["testType"]}: exit {run.Exit} in {sw.Elapsed.TotalSeconds:F1} s");
        foreach (var e in run.OfType("log")) _out.WriteLine($"  [{e.GetProperty("level").GetString()}] {e.GetProperty("message").GetString()}");
        foreach (var e in run.OfType("error")) _out.WriteLine($"  ERROR {e}");
        Assert.False(run.TimedOut, $"The engine did not exit within {(timeout ?? RunTimeout).TotalSeconds} s (hung). stderr: {run.StdErr}");
        return run;
    }

    /// <summary>Ran on the IOCP backend with direct I/O, took samples, judged, saved the results and wrote the reports; returns the results document.</summary>
    private static JsonElement AssertRanOnIocp(WineRun run, string testType)
    {
        Assert.Equal(0, run.Exit);
        Assert.Empty(run.OfType("error"));
        var result = run.Single("result");
        Assert.Equal(testType, result.GetProperty("testType").GetString());
        Assert.Equal("iocp", result.GetProperty("ioBackend").GetString());
        Assert.True(result.GetProperty("directIo").GetBoolean());
        Assert.Equal("Complete", result.GetProperty("completion").GetString());
        Assert.Contains(result.GetProperty("result").GetString(), new[] { "Pass", "Fail" });
        string resultsPath = WineSession.LinuxPath(result.GetProperty("resultsPath").GetString()!);
        using var doc = JsonDocument.Parse(File.ReadAllText(resultsPath));
        var r = doc.RootElement.Clone();
        Assert.Equal("iocp", r.GetProperty("environment").GetProperty("ioBackend").GetString());
        Assert.True(r.GetProperty("timeSeries").GetArrayLength() > 0, "no samples were taken");
        // Every handle skipped the port on inline success (Wine accepts the mode, though it pends every file
        // I/O, so the inline path itself never runs here); Wine's kernel32 lacks SetFileIoOverlappedRange,
        // and the run says so instead of failing.
        var features = r.GetProperty("engine").GetProperty("ioFeatures").EnumerateArray().ToDictionary(f => f.GetProperty("name").GetString()!);
        var skip = features["skipCompletionPortOnSuccess"];
        Assert.True(skip.GetProperty("workers").GetInt32() > 0);
        Assert.Equal(skip.GetProperty("workers").GetInt32(), skip.GetProperty("workersUsing").GetInt32());
        var range = features["overlappedRange"];
        Assert.Equal(0, range.GetProperty("workersUsing").GetInt32());
        Assert.Contains("kernel32 has no SetFileIoOverlappedRange", range.GetProperty("reason").GetString(), StringComparison.Ordinal);
        Assert.Equal(0, r.GetProperty("errors").GetArrayLength());
        Assert.Equal(result.GetProperty("result").GetString(), r.GetProperty("verdict").GetProperty("result").GetString());
        var reports = result.GetProperty("reportPaths").EnumerateArray().Select(p => WineSession.LinuxPath(p.GetString()!)).ToList();
        Assert.Contains(reports, p => p.EndsWith(".html", StringComparison.Ordinal));
        Assert.Contains(reports, p => p.EndsWith(".txt", StringComparison.Ordinal));
        Assert.All(reports, p => Assert.True(new FileInfo(p).Length > 0, $"{p} is missing or empty"));
        return r;
    }

    private static IEnumerable<string> TestLog(JsonElement results) =>
        results.GetProperty("testLog").EnumerateArray().Select(l => l.GetProperty("message").GetString()!);

    private static long Operations(JsonElement results, string stream) =>
        results.GetProperty("instances").EnumerateArray()
            .SelectMany(i => i.GetProperty("streams").EnumerateArray())
            .Where(s => s.GetProperty("stream").GetString() == stream)
            .Sum(s => s.GetProperty("operations").GetInt64());

    [WineTheory]
    [InlineData("Random32K", 70, 8, 64)]
    [InlineData("LogAppend", 0, 1, 16)]
    [InlineData("Sequential256K", 100, 2, 64)]
    public void Streams_runs_each_preset_on_the_IOCP_backend(string preset, int readPercent, int queueDepth, int fileMB)
    {
        var request = new JsonObject
        {
            ["protocol"] = 1, ["command"] = "streams", ["durationSeconds"] = 2, ["sampleIntervalSeconds"] = 1,
            ["outputPath"] = Win(_dir.Combine("Results")),
            ["streams"] = new JsonArray(new JsonObject
            {
                ["preset"] = preset, ["readPercent"] = readPercent, ["queueDepth"] = queueDepth,
                ["path"] = Win(_dir.Combine($"{preset}.dat")), ["fileSizeBytes"] = fileMB * 1048576L,
            }),
        };
        var r = AssertRanOnIocp(Run(request), "Throughput");
        Assert.Equal("Pass", r.GetProperty("verdict").GetProperty("result").GetString());
        var streams = r.GetProperty("instances")[0].GetProperty("streams").EnumerateArray().ToList();
        Assert.NotEmpty(streams);
        Assert.All(streams, s => Assert.True(s.GetProperty("operations").GetInt64() > 0));
    }

    [WineFact]
    public void Performance_with_automatic_tuning_then_verify_and_report()
    {
        // Several load phases (tuning steps, then the measured window) over the same files: each
        // phase's workers have new completion ports (the ERROR_INVALID_PARAMETER regression).
        var run = Run(RunRequest("Performance", 4, threads: null));
        var r = AssertRanOnIocp(run, "Performance");
        Assert.Equal("Succeeded", r.GetProperty("tuningOutcome").GetString());
        Assert.True(r.GetProperty("tuningLog").GetArrayLength() >= 2);
        Assert.True(Operations(r, "DatabaseRead") > 0 && Operations(r, "LogWrite") > 0);
        // The run lock was held (delete-on-close) and went with the run.
        Assert.False(File.Exists(Path.Combine(_dir.Combine("Db"), ExchStorageTest.Engine.Storage.RunLock.FileName)));

        // Creation sized the files with SetFileValidData; Wine refuses FileAllocationInfo (error 120) and says so.
        var log = TestLog(r).ToList();
        Assert.Contains(log, l => l.Contains("valid data length set (SetFileValidData)", StringComparison.Ordinal));
        Assert.Contains(log, l => l.Contains("FileAllocationInfo refused (Win32 error 120)", StringComparison.Ordinal));
        // Wine's PDH knows 2 of the counters and there is no event log: warnings, not a crash, not a silent gap.
        Assert.Contains(run.Logs("warning"), m => m.Contains("host counters could not be read", StringComparison.Ordinal) && m.Contains(@"\Memory\Available MBytes", StringComparison.Ordinal));
        Assert.Contains(run.Logs("warning"), m => m.StartsWith("The system log could not be read", StringComparison.Ordinal));
        Assert.False(r.GetProperty("systemLog").GetProperty("checked").GetBoolean());
        // The volume IOCTLs Wine refuses become findings.
        var findings = r.GetProperty("environment").GetProperty("volumes").EnumerateArray().SelectMany(v => v.GetProperty("findings").EnumerateArray())
            .Select(f => f.GetProperty("code").GetString()).ToList();
        Assert.Contains("ProbeNote", findings);
        // The platform pre-flight's Windows host probe answered: GetLogicalProcessorInformationEx (sockets, cores);
        // Wine's PowerGetActiveScheme is a stub, so the power plan is said to be unread rather than judged.
        var platform = r.GetProperty("environment").GetProperty("platform");
        Assert.True(platform.GetProperty("logicalProcessors").GetInt32() > 0);
        Assert.True(platform.GetProperty("physicalCores").GetInt32() > 0);
        Assert.Contains(platform.GetProperty("findings").EnumerateArray(), f => f.GetProperty("message").GetString()!.Contains("power plan", StringComparison.Ordinal));

        // verify on the databases the run made.
        var verify = Run(new JsonObject { ["protocol"] = 1, ["command"] = "verify", ["paths"] = new JsonArray(Win(_dir.Combine("Db"))) });
        Assert.Equal(0, verify.Exit);
        var v = verify.Single("verify");
        Assert.Equal("Pass", v.GetProperty("result").GetString());
        Assert.Equal(DataPages(r), v.GetProperty("pagesChecked").GetInt64());
        Assert.Equal(0, v.GetProperty("badPages").GetInt64());
        Assert.Equal(16, v.GetProperty("logsChecked").GetInt64());

        // report re-renders the results file.
        var reportFolder = _dir.Sub("Reports");
        var report = Run(new JsonObject
        {
            ["protocol"] = 1, ["command"] = "report", ["paths"] = new JsonArray(Win(_dir.Combine("Results"))),
            ["outputPath"] = Win(reportFolder), ["formats"] = new JsonArray("Html", "Text", "Xml"),
        });
        Assert.Equal(0, report.Exit);
        var rep = report.Single("report");
        Assert.Contains("Overall Test Result", rep.GetProperty("text").GetString());
        var files = rep.GetProperty("files").EnumerateArray().Select(f => WineSession.LinuxPath(f.GetString()!)).ToList();
        Assert.Equal(3, files.Count);
        Assert.All(files, f => Assert.True(new FileInfo(f).Length > 0, $"{f} is missing or empty"));

        // Again into the same folder: every name is taken, so the next free "_2" names are claimed. The taken name
        // used to be found through a caught exception, which under Wine killed the engine's main thread (a zombie that
        // never exited); now it is the OS's error code, and the run returns.
        var again = Run(new JsonObject
        {
            ["protocol"] = 1, ["command"] = "report", ["paths"] = new JsonArray(Win(_dir.Combine("Results"))),
            ["outputPath"] = Win(reportFolder), ["formats"] = new JsonArray("Html", "Text", "Xml"),
        });
        Assert.False(again.TimedOut, "the second rendering hung");
        Assert.Equal(0, again.Exit);
        var second = again.Single("report").GetProperty("files").EnumerateArray().Select(f => WineSession.LinuxPath(f.GetString()!)).ToList();
        Assert.Equal(3, second.Count);
        Assert.All(second, f => Assert.Contains("_2.", Path.GetFileName(f), StringComparison.Ordinal));
        Assert.All(files, f => Assert.True(new FileInfo(f).Length > 0, $"{f} was replaced or emptied"));
    }

    /// <summary>The data pages of the run's databases as they ended (runs grow them by their inserts): one header page each.</summary>
    private static long DataPages(JsonElement results)
    {
        var sizing = results.GetProperty("sizing");
        return sizing.GetProperty("finalDatabaseSizeBytes").GetInt64() / sizing.GetProperty("pageSizeBytes").GetInt64() - sizing.GetProperty("databaseFileCount").GetInt64();
    }

    [WineFact]
    public void Stress_of_a_minute_then_a_clean_checksum_pass()
    {
        var r = AssertRanOnIocp(Run(RunRequest("Stress", 60, threads: 2)), "Stress");
        Assert.Equal("Lenient", r.GetProperty("settings").GetProperty("thresholds").GetProperty("name").GetString());
        Assert.True(r.GetProperty("timeSeries").EnumerateArray().Select(s => s.GetProperty("elapsedSeconds").GetDouble()).Distinct().Count() >= 30);
        var checksum = r.GetProperty("checksum");
        Assert.Equal(DataPages(r), checksum.GetProperty("pagesChecked").GetInt64());
        Assert.Equal(0, checksum.GetProperty("badPages").GetInt64());
        Assert.Equal(0, checksum.GetProperty("badLogs").GetInt64());
    }

    [WineFact]
    public void DatabaseBackup_reads_every_database_once()
    {
        var r = AssertRanOnIocp(Run(RunRequest("DatabaseBackup", 120, threads: null)), "DatabaseBackup");
        foreach (var inst in r.GetProperty("instances").EnumerateArray())
        {
            var backup = inst.GetProperty("streams").EnumerateArray().Single(s => s.GetProperty("stream").GetString() == "BackupRead");
            Assert.Equal(inst.GetProperty("databaseSizeBytes").GetInt64(), backup.GetProperty("bytes").GetInt64());
        }
        Assert.All(r.GetProperty("backup").GetProperty("instances").EnumerateArray(), b => Assert.True(b.GetProperty("mbPerSecond").GetDouble() > 0));
    }

    [WineFact]
    public void SoftRecovery_generates_then_replays_the_logs()
    {
        var request = RunRequest("SoftRecovery", 120, threads: 2);
        request["logFilesToReplay"] = 4;
        // The replay reads the run's own handles after the generation phase's workers used the files.
        var r = AssertRanOnIocp(Run(request), "SoftRecovery");
        var recovery = r.GetProperty("softRecovery");
        Assert.All(recovery.GetProperty("instances").EnumerateArray(), i =>
        {
            Assert.Equal(4, i.GetProperty("logsReplayed").GetInt32());
            Assert.True(i.GetProperty("pagesReplayed").GetInt64() > 0);
        });
        Assert.All(r.GetProperty("instances").EnumerateArray(), i => Assert.Equal(0, i.GetProperty("checksumErrors").GetInt64()));
    }

    [WineFact]
    public void Inspect_reports_the_volume_and_what_could_not_be_queried()
    {
        var run = Run(new JsonObject { ["protocol"] = 1, ["command"] = "inspect", ["paths"] = new JsonArray(Win(_dir.Path)) });
        Assert.Equal(0, run.Exit);
        var inspect = run.Single("inspect");
        var volume = inspect.GetProperty("volumes")[0];
        Assert.Equal(@"Z:\", volume.GetProperty("mountPoint").GetString());
        Assert.False(string.IsNullOrEmpty(volume.GetProperty("fileSystem").GetString())); // GetVolumeInformationW
        Assert.True(volume.GetProperty("clusterSizeBytes").GetInt64() > 0);             // GetDiskFreeSpaceW
        Assert.True(volume.GetProperty("directIoSupported").GetBoolean());              // CreateFileW with NO_BUFFERING
        var codes = inspect.GetProperty("findings").EnumerateArray().Select(f => f.GetProperty("code").GetString()).ToList();
        Assert.Contains("ProbeNote", codes); // the volume IOCTLs Wine refuses, named
    }

    [WineTheory]
    [InlineData(@"Q:\ExchStorageTest\Db")]          // a drive letter with no volume behind it
    [InlineData(@"\\nohost\share\ExchStorageTest")] // a UNC path to a server that does not exist
    public void A_windows_path_that_does_not_exist_is_refused_before_anything_is_written(string path)
    {
        var request = RunRequest("Performance", 30, threads: 2);
        request["profile"]!["databasePaths"] = new JsonArray(path);
        var run = Run(request);
        Assert.Equal(2, run.Exit); // refused before anything was written (docs/protocol.md: every refusal exits 2)
        var error = run.Single("error");
        Assert.Equal("PathNotFound", error.GetProperty("code").GetString());
        Assert.Equal("ObjectNotFound", error.GetProperty("category").GetString());
        Assert.Contains(path, error.GetProperty("message").GetString());
        Assert.False(Directory.Exists(_dir.Combine("Results")));
    }

    [WineFact(needsRoot: true)]
    public void A_read_only_folder_is_refused_with_PathNotWritable()
    {
        string source = _dir.Sub("src");
        string mount = _dir.Sub("ro");
        Tool("mount", "--bind", source, mount);
        try
        {
            Tool("mount", "-o", "remount,ro,bind", mount);
            var request = RunRequest("Performance", 30, threads: 2);
            request["profile"]!["databasePaths"] = new JsonArray(Win(mount));
            var run = Run(request);
            Assert.Equal(2, run.Exit); // refused (PermissionDenied) before anything was written
            var error = run.Single("error");
            Assert.Equal("PathNotWritable", error.GetProperty("code").GetString());
            Assert.Equal("PermissionDenied", error.GetProperty("category").GetString());
            Assert.Empty(Directory.GetFileSystemEntries(source));
        }
        finally
        {
            Tool("umount", mount);
        }
    }

    private static void Tool(string file, params string[] args)
    {
        var psi = new ProcessStartInfo(file) { RedirectStandardError = true, RedirectStandardOutput = true };
        foreach (var a in args) psi.ArgumentList.Add(a);
        using var p = Process.Start(psi)!;
        p.WaitForExit();
        Assert.True(p.ExitCode == 0, $"{file} {string.Join(' ', args)}: {p.StandardError.ReadToEnd()}");
    }

    public void Dispose() => _dir.Dispose();
}
