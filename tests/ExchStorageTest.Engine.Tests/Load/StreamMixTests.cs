using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.Load;

public class StreamMixTests : IDisposable
{
    private readonly TestFolder _dir = new("streams");

    internal static TestResults Run(IReadOnlyList<StreamSpec> specs, double seconds, string output, bool pin = true, string? testId = null, bool continueOnError = false) =>
        StreamMixRunner.Run(StreamMixPlan.From(new EngineRequest
        {
            Command = "streams", TestId = testId, Streams = specs.ToList(), DurationSeconds = seconds, SampleIntervalSeconds = 1,
            OutputPath = output, PinWorkerThreads = pin, ContinueOnError = continueOnError,
        }), EventWriter.Null, CancellationToken.None);

    [Fact]
    public void A_named_mix_runs_every_stream_and_saves_results()
    {
        var specs = new List<StreamSpec>
        {
            new() { Name = "db", Preset = "Random32K", ReadPercent = 64, QueueDepth = 4, Path = _dir.Combine("db.dat"), FileSizeBytes = 32 << 20 },
            new() { Name = "log", Preset = "LogAppend", Path = _dir.Combine("log.dat"), FileSizeBytes = 8 << 20 },
            new() { Name = "bdm", Preset = "Sequential256K", RateIops = 20, Arrival = "Linear", Path = _dir.Combine("db.dat"), FileSizeBytes = 32 << 20 },
        };
        var r = Run(specs, 2, _dir.Combine("out"));

        Assert.Equal("Complete", r.Completion);
        Assert.Equal("Pass", r.Verdict.Result);
        var db = r.Instances.Single(i => i.Name == "db");
        Assert.All(new[] { "Read", "Write" }, s => Assert.True(db.Stream(s)!.Operations > 0));
        Assert.Equal(32768, db.Stream("Read")!.AverageBytes);
        var log = r.Instances.Single(i => i.Name == "log");
        Assert.Null(log.Stream("Read"));
        Assert.Equal(16384, log.Stream("Write")!.AverageBytes);
        var bdm = r.Instances.Single(i => i.Name == "bdm").Stream("Read")!;
        Assert.InRange(bdm.OperationsPerSecond, 15, 25);
        Assert.NotNull(bdm.ScheduledLatencyMs);
        Assert.NotEmpty(r.TimeSeries);
        Assert.True(File.Exists(r.SavedPath));
        var saved = ResultsFile.Load(r.SavedPath!);
        Assert.Equal(r.TestId, saved.TestId);
        // One worker per stream, each pinned by default, and the placement survives the results file.
        Assert.Equal(3, saved.Environment.WorkerCpus.Count);
        Assert.All(saved.Environment.WorkerCpus, c => Assert.Contains(c, ExchStorageTest.Engine.Load.CpuAffinity.AllowedCpus()));
    }

    [Fact]
    public void Workers_left_unpinned_on_request_are_not_reported_as_refused()
    {
        var specs = new List<StreamSpec> { new() { Name = "db", Preset = "Random32K", QueueDepth = 2, Path = _dir.Combine("u.dat"), FileSizeBytes = 8 << 20 } };
        var r = Run(specs, 1, _dir.Combine("out-u"), pin: false);

        Assert.Empty(ResultsFile.Load(r.SavedPath!).Environment.WorkerCpus);
        Assert.DoesNotContain("Worker CPU Affinity", ExchStorageTest.Engine.Reports.TextReport.Render(r), StringComparison.Ordinal);
    }

    [Fact]
    public void A_file_not_created_by_us_is_refused_and_left_untouched()
    {
        string foreign = _dir.Combine("precious.dat");
        File.WriteAllText(foreign, "someone's data");
        var spec = new StreamSpec { Name = "x", Preset = "Random32K", Path = foreign, FileSizeBytes = 8 << 20 };
        var ex = Assert.Throws<EngineException>(() => Run(new[] { spec }, 1, _dir.Combine("out")));
        Assert.Equal("ForeignFile", ex.Code);
        Assert.Equal("someone's data", File.ReadAllText(foreign));
    }

    [Theory]
    [InlineData(1000, 100, 1, "StreamBlockSizeInvalid")]
    [InlineData(32768, 101, 1, "StreamReadPercentOutOfRange")]
    [InlineData(32768, 100, 0, "StreamQueueDepthOutOfRange")]
    public void Bad_streams_are_refused_before_any_file_is_written(int block, int readPercent, int depth, string code)
    {
        var spec = new StreamSpec { Name = "x", BlockSizeBytes = block, ReadPercent = readPercent, QueueDepth = depth, Path = _dir.Combine("x.dat"), FileSizeBytes = 8 << 20 };
        var ex = Assert.Throws<EngineException>(() => Run(new[] { spec }, 1, _dir.Combine("out")));
        Assert.Equal(code, ex.Code);
        Assert.Empty(Directory.GetFileSystemEntries(_dir.Path));
    }

    [Fact]
    public void Files_that_do_not_fit_are_refused_before_anything_is_written()
    {
        var spec = new StreamSpec { Name = "huge", Preset = "Random32K", Path = _dir.Combine("huge.dat"), FileSizeBytes = 1L << 52 };
        var ex = Assert.Throws<EngineException>(() => Run(new[] { spec }, 1, _dir.Combine("out")));
        Assert.Equal("InsufficientSpace", ex.Code);
        Assert.Empty(Directory.GetFileSystemEntries(_dir.Path));
    }

    public void Dispose() => _dir.Dispose();
}
