using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load.Sources;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Load.StreamMix;

/// <summary>
/// The raw "disk subsystem throughput" mode: a named mix of streams against files on given paths
/// for a duration, each stream on its own worker, measured like every run (histograms, time series,
/// errors, CPU per I/O). There is no Exchange verdict here: the result fails only on I/O errors.
/// </summary>
public static class StreamMixRunner
{
    public static TestResults Run(IReadOnlyList<StreamSpec> requested, double durationSeconds, double sampleIntervalSeconds,
        bool continueOnError, bool allowBuffered, string outputPath, EventWriter events, CancellationToken cancel,
        bool pinWorkers = true)
    {
        if (requested.Count == 0) throw EngineException.InvalidArgument("StreamsMissing", "The streams command needs at least one stream.");
        if (!(durationSeconds > 0) || durationSeconds > 30 * 86400)
            throw EngineException.InvalidArgument("DurationOutOfRange", $"Duration {durationSeconds} s is out of range: it must be greater than 0 and at most 30 days.");
        var specs = requested.Select(s => s.Resolved()).ToList();
        foreach (var s in specs) s.Validate();
        if (specs.Select(s => s.Name).Distinct(StringComparer.OrdinalIgnoreCase).Count() != specs.Count)
            throw EngineException.InvalidArgument("StreamNameDuplicate", "Stream names must be unique.");

        var results = new TestResults
        {
            TestId = Guid.NewGuid().ToString("N"),
            TestType = TestType.Throughput,
            EngineVersion = typeof(StreamMixRunner).Assembly.GetName().Version?.ToString() ?? "0.0.0",
        };
        results.Settings.LoadModel = "StreamMix";
        results.Settings.DurationSeconds = durationSeconds;
        results.Settings.SampleIntervalSeconds = sampleIntervalSeconds;
        results.Settings.ContinueOnError = continueOnError;
        results.Settings.OutputPath = outputPath;
        results.Timeline.TestStartUtc = DateTime.UtcNow;
        FillEnvironment(results.Environment);

        CheckSpace(specs);
        for (int i = 0; i < specs.Count; i++)
        {
            int n = i;
            StreamFile.Ensure(specs[i].Path, specs[i].FileSizeBytes,
                p => events.Progress("Preparing", (n + p / 100) * 100 / specs.Count, null, $"Writing {specs[n].Path} ({p:F0}%)"));
        }

        var files = specs.Select(s => IoFileOpener.Open(s.Path, IoFileMode.OpenExisting, s.WriteThrough, allowBuffered)).ToList();
        try
        {
            using var driver = new LoadDriver(files, continueOnError, pinWorkers: pinWorkers);
            var ids = new List<(int Read, int Write)>();
            for (int i = 0; i < specs.Count; i++)
                ids.Add((driver.RegisterStream(new StreamKey(i + 1, "Read", IoOperation.Read)), driver.RegisterStream(new StreamKey(i + 1, "Write", IoOperation.Write))));
            for (int i = 0; i < specs.Count; i++)
            {
                var s = specs[i];
                long region = (s.FileSizeBytes - StreamFile.DataOffset) / s.BlockSizeBytes * s.BlockSizeBytes;
                IIoSource source = s.Pattern.Equals("Sequential", StringComparison.OrdinalIgnoreCase)
                    ? new SequentialSource(i, StreamFile.DataOffset, region, s.BlockSizeBytes, s.ReadPercent == 100 ? IoOperation.Read : IoOperation.Write, s.ReadPercent == 100 ? ids[i].Read : ids[i].Write, (ulong)(i + 1) * 0x9E3779B97F4A7C15)
                    : new RandomBlockSource(i, StreamFile.DataOffset, region, s.BlockSizeBytes, s.ReadPercent, ids[i].Read, ids[i].Write, (ulong)(i + 7) * 0xD1B54A32D192ED03);
                var arrival = s.RateIops is null ? Arrival.Closed : s.Arrival.Equals("Linear", StringComparison.OrdinalIgnoreCase) ? Arrival.Linear : Arrival.Poisson;
                driver.AddWorker(new[] { new LoadStream(s.Name, source, s.QueueDepth, arrival, s.RateIops ?? 0) });
            }
            results.Environment.IoBackend = "";
            driver.Start();
            results.Environment.IoBackend = driver.BackendName;
            results.Environment.DirectIo = files.All(f => f.Direct);
            var cpu0 = Process.GetCurrentProcess().TotalProcessorTime;
            results.Timeline.CollectionStartUtc = DateTime.UtcNow;
            driver.SetAccounting(true);
            var sw = Stopwatch.StartNew();
            double nextSample = sampleIntervalSeconds;
            var intervalMax = new double[driver.StreamCount];
            while (sw.Elapsed.TotalSeconds < durationSeconds && !cancel.IsCancellationRequested && !driver.StopRequested)
            {
                double wait = Math.Min(nextSample, durationSeconds) - sw.Elapsed.TotalSeconds;
                if (wait > 0) cancel.WaitHandle.WaitOne(TimeSpan.FromSeconds(Math.Min(wait, 0.25)));
                if (sw.Elapsed.TotalSeconds < Math.Min(nextSample, durationSeconds)) continue;
                nextSample += sampleIntervalSeconds;
                RecordSample(results, driver, specs, intervalMax, events, sw.Elapsed.TotalSeconds, durationSeconds);
            }
            driver.Stop();
            results.Environment.WorkerCpus = driver.WorkerCpus.ToList();
            var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpu0;
            results.Timeline.CollectionEndUtc = DateTime.UtcNow;
            results.Completion = cancel.IsCancellationRequested ? "Stopped" : driver.StoppedByError ? "Failed" : "Complete";

            long totalOps = 0;
            for (int i = 0; i < specs.Count; i++)
            {
                var inst = new InstanceResult { Name = specs[i].Name, Index = i + 1, DatabasePath = specs[i].Path, DatabaseSizeBytes = specs[i].FileSizeBytes };
                foreach (int id in new[] { ids[i].Read, ids[i].Write })
                {
                    var t = driver.Totals(id);
                    if (t.Operations == 0 && t.Errors == 0) continue;
                    inst.Streams.Add(t.ToResult(null, intervalMax[id]));
                    totalOps += t.Operations;
                }
                results.Instances.Add(inst);
            }
            foreach (var e in driver.Errors())
            {
                results.Errors.Add(new IoErrorRecord
                {
                    TimeUtc = e.TimeUtc, Instance = specs[e.FileIndex].Name, Stream = driver.Keys[e.StreamId].Stream,
                    File = files[e.FileIndex].Path, Offset = e.Offset, Length = e.Length, ErrorCode = e.ErrorCode,
                    ErrorName = e.ShortTransfer ? "SHORT_TRANSFER" : IoErrors.Name(e.ErrorCode),
                    Message = e.ShortTransfer ? "The transfer was shorter than requested." : $"I/O failed: {IoErrors.Name(e.ErrorCode)}",
                });
            }
            results.Engine.TotalOperations = totalOps;
            results.Engine.ProcessCpuSeconds = cpu.TotalSeconds;
            results.Engine.CpuMicrosecondsPerIo = totalOps == 0 ? 0 : cpu.TotalMicroseconds / totalOps;
            long errorCount = driver.ErrorCount;
            results.Verdict.Result = errorCount == 0 ? "Pass" : "Fail";
            if (errorCount > 0)
                results.Verdict.Reasons.Add(new VerdictReason { Code = "IoErrors", Message = $"{errorCount} I/O error(s) occurred.", Measured = errorCount, Limit = 0 });
        }
        finally
        {
            foreach (var f in files) f.Dispose();
            results.Timeline.TestEndUtc = DateTime.UtcNow;
            Directory.CreateDirectory(outputPath);
            ResultsFile.Save(results, Path.Combine(outputPath, $"Streams_{results.Timeline.TestStartUtc:yyyy_MM_dd_HH_mm_ss}_{results.TestId[..8]}.json"));
        }
        return results;
    }

    /// <summary>Refuses, before writing anything, a mix whose new files do not fit on their volumes.</summary>
    private static void CheckSpace(IReadOnlyList<StreamSpec> specs)
    {
        var need = new Dictionary<string, (long Bytes, long Free, string Folder)>();
        foreach (var s in specs.GroupBy(s => Path.GetFullPath(s.Path)).Select(g => g.First()))
        {
            string full = Path.GetFullPath(s.Path);
            long existing = File.Exists(full) ? new FileInfo(full).Length : 0;
            string folder = Path.GetDirectoryName(full)!;
            while (!Directory.Exists(folder)) folder = Path.GetDirectoryName(folder) ?? "/";
            var info = VolumeSpace.Of(folder);
            var cur = need.TryGetValue(info.VolumeId, out var c) ? c : (0, info.FreeBytes, folder);
            // A file of ours is re-created beside the old one (temporary name), so it needs its full size.
            need[info.VolumeId] = (cur.Bytes + (existing == s.FileSizeBytes ? 0 : s.FileSizeBytes), cur.Free, cur.Folder);
        }
        foreach (var (_, (bytes, free, folder)) in need)
            if (bytes > free)
                throw new EngineException("InsufficientSpace", ErrorCategories.ResourceUnavailable,
                    $"The volume under '{folder}' has {free:N0} bytes free but the stream files need {bytes:N0} bytes.", folder);
    }

    private static void RecordSample(TestResults results, LoadDriver driver, List<StreamSpec> specs, double[] intervalMax, EventWriter events, double elapsed, double duration)
    {
        var sample = driver.Sample();
        double iops = 0;
        foreach (var s in sample)
        {
            var key = driver.Keys[s.StreamId];
            if (s.Operations == 0) continue;
            iops += s.OperationsPerSecond;
            intervalMax[s.StreamId] = Math.Max(intervalMax[s.StreamId], s.AverageLatencyMs);
            results.TimeSeries.Add(new SamplePoint
            {
                TimeUtc = s.TimeUtc, ElapsedSeconds = s.ElapsedSeconds, Instance = key.Instance, Stream = key.Stream,
                OperationsPerSecond = s.OperationsPerSecond, AverageBytes = s.AverageBytes,
                AverageLatencyMs = s.AverageLatencyMs, P99LatencyMs = s.P99LatencyMs, MaxLatencyMs = s.MaxLatencyMs,
            });
        }
        events.Emit("sample", w =>
        {
            w.WriteNumber("elapsedSeconds", Math.Round(elapsed, 1));
            w.WriteNumber("iops", Math.Round(iops, 1));
        });
        events.Progress("Measuring", elapsed * 100 / duration, Math.Max(0, duration - elapsed), $"{iops:F0} IOPS");
    }

    private static void FillEnvironment(EnvironmentInfo e)
    {
        e.MachineName = System.Environment.MachineName;
        e.OperatingSystem = System.Runtime.InteropServices.RuntimeInformation.OSDescription;
        e.Runtime = System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription;
        e.ProcessorCount = System.Environment.ProcessorCount;
        e.MemoryBytes = GC.GetGCMemoryInfo().TotalAvailableMemoryBytes;
    }
}
