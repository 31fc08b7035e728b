using System.Diagnostics;
using ExchStorageTest.Engine.Io;
using ExchStorageTest.Engine.Load.Sources;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Storage;

namespace ExchStorageTest.Engine.Load.StreamMix;

/// <summary>
/// The raw "disk subsystem throughput" mode: a named mix of streams against files on given paths
/// for a duration, each stream on its own worker, measured like every run (histograms, time series,
/// errors, CPU per I/O). There is no Exchange verdict here: the result fails only on I/O errors.
/// </summary>
public static class StreamMixRunner
{
    public static TestResults Run(StreamMixPlan plan, EventWriter events, CancellationToken cancel)
    {
        var specs = plan.Specs.ToList();
        double durationSeconds = plan.DurationSeconds, sampleIntervalSeconds = plan.SampleIntervalSeconds;
        bool allowBuffered = plan.AllowBufferedIo;
        // Before anything is written: no other run may use these folders (FolderInUse names the holder).
        using var runLock = RunLock.Acquire(plan.LockFolders, plan.TestId, "streams");
        var start = DateTime.Now;
        var results = new TestResults
        {
            TestId = plan.TestId,
            TestType = TestType.Throughput,
            EngineVersion = typeof(StreamMixRunner).Assembly.GetName().Version?.ToString() ?? "0.0.0",
        };
        results.Settings.LoadModel = "StreamMix";
        results.Settings.DurationSeconds = durationSeconds;
        results.Settings.SampleIntervalSeconds = sampleIntervalSeconds;
        results.Settings.ContinueOnError = plan.ContinueOnError;
        results.Settings.OutputPath = plan.OutputPath;
        results.Timeline.TestStartUtc = start.ToUniversalTime();
        FillEnvironment(results.Environment);

        for (int i = 0; i < specs.Count; i++)
        {
            int n = i;
            StreamFile.Ensure(specs[i].Path, specs[i].FileSizeBytes,
                p => events.Progress("Preparing", (n + p / 100) * 100 / specs.Count, null, $"Writing {specs[n].Path} ({p:F0}%)"));
        }

        var files = specs.Select(s => IoFileOpener.Open(s.Path, IoFileMode.OpenExisting, s.WriteThrough, allowBuffered)).ToList();
        try
        {
            using var driver = new LoadDriver(files, plan.ContinueOnError, pinWorkers: plan.PinWorkerThreads);
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
            results.Completion = cancel.IsCancellationRequested ? Completions.Stopped : driver.StoppedByError ? Completions.Failed : Completions.Complete;

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
            results.Engine.SetMeasured(driver.AccountedCpuSeconds, driver.AccountedSeconds, 0);
            results.Engine.IoFeatures = driver.IoFeatures;
            long errorCount = driver.ErrorCount;
            // A stopped mix that saw no error neither passed nor failed (the contract's Stopped).
            results.Verdict.Result = errorCount > 0 ? Verdicts.Fail : results.Completion == Completions.Stopped ? Verdicts.Stopped : Verdicts.Pass;
            if (errorCount > 0)
                results.Verdict.Reasons.Add(Verdict.VerdictJudge.IoErrors(errorCount, results.Errors.FirstOrDefault()));
        }
        finally
        {
            foreach (var f in files) f.Dispose();
            results.Timeline.TestEndUtc = DateTime.UtcNow;
            try
            {
                ResultsFile.SaveNew(results, plan.OutputPath, ResultsFile.Stem("Streams", start));
            }
            catch (Exception ex) when (ex is IOException or UnauthorizedAccessException)
            {
                // A full disk at the end loses the file, not the run: the result event still carries the summary.
                results.SaveError = $"Could not write the results file in '{plan.OutputPath}': {ex.Message}";
                events.Error("ResultsWriteFailed", ErrorCategories.WriteError, results.SaveError, plan.OutputPath);
            }
        }
        return results;
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
        events.Emit(EventTypes.Sample, w =>
        {
            w.WriteNumber(EventFields.Sample.ElapsedSeconds, Math.Round(elapsed, 1));
            w.WriteNumber(EventFields.Sample.Iops, Math.Round(iops, 1));
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
