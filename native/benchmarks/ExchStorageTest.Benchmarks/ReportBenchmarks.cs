using BenchmarkDotNet.Attributes;
using ExchStorageTest.Engine.Metrics;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Benchmarks;

/// <summary>
/// Every report of a 24 h run sampled every 15 s (5,760 samples x 8 instances x 5 streams = 230,400
/// sample points). Goal: all renderings in under 2 s. Run:
/// dotnet run -c Release --project benchmarks/ExchStorageTest.Benchmarks -- --filter *ReportBenchmarks* --job short
/// </summary>
[MemoryDiagnoser]
public class ReportBenchmarks
{
    private const int Samples = 5_760;
    private const int Instances = 8;
    private TestResults _results = null!;

    [GlobalSetup]
    public void Setup()
    {
        var rng = new Random(1);
        var start = new DateTime(2024, 1, 1, 0, 0, 0, DateTimeKind.Utc);
        var streams = new (string Name, double Rate, double Bytes, double Ms)[]
        {
            (StreamNames.DatabaseRead, 45, 33000, 17), (StreamNames.DatabaseWrite, 25, 37200, 2), (StreamNames.LogWrite, 6.4, 20500, 1.3),
            (StreamNames.MaintenanceRead, 8.8, 261250, 5), (StreamNames.LogReplicationRead, 0.55, 210000, 15),
        };
        var r = new TestResults
        {
            TestType = TestType.Stress,
            EngineVersion = "bench",
            Profile = new MailboxProfile { MailboxCount = 5000, IopsPerMailbox = 0.12, MailboxSizeMB = 2048, DatabaseCount = Instances, CopiesPerDatabase = 2 },
            Settings = new RunSettings { DurationSeconds = 86_400, SampleIntervalSeconds = 15, ThreadCount = 6 },
            Environment = new EnvironmentInfo { MachineName = "BENCH01", OperatingSystem = "Linux", IoBackend = "io_uring" },
            Timeline = new Timeline { TestStartUtc = start, TestEndUtc = start.AddHours(24) },
            Sizing = new DatabaseSizing { TargetTransactionalIops = 600, DatabaseFileCount = Instances },
        };
        for (int i = 1; i <= Instances; i++)
        {
            var inst = new InstanceResult { Index = i, Name = $"Instance.{i}", DatabasePath = $"/db/{i}/db.edb", LogPath = $"/log/{i}" };
            foreach (var (name, rate, bytes, ms) in streams)
            {
                var h = new LatencyHistogram();
                for (int k = 0; k < 200_000; k++) h.Record((long)(ms * 1e6 * Math.Exp(0.6 * (rng.NextDouble() - 0.5))));
                var data = HistogramMath.ToData(h);
                inst.Streams.Add(new StreamResult
                {
                    Stream = name, Operations = (long)(rate * 86_400), Bytes = (long)(rate * 86_400 * bytes), DurationSeconds = 86_400,
                    OperationsPerSecond = rate, AverageBytes = bytes, LatencyMs = HistogramMath.Summary(data), Histogram = data,
                });
            }
            r.Instances.Add(inst);
        }
        r.TimeSeries.Capacity = Samples * Instances * streams.Length;
        for (int s = 0; s < Samples; s++)
            for (int i = 1; i <= Instances; i++)
                foreach (var (name, rate, bytes, ms) in streams)
                    r.TimeSeries.Add(new SamplePoint
                    {
                        TimeUtc = start.AddSeconds(15 * (s + 1)), ElapsedSeconds = 15 * s, Instance = i, Stream = name,
                        OperationsPerSecond = rate * (0.9 + 0.2 * rng.NextDouble()), AverageBytes = bytes,
                        AverageLatencyMs = ms * (0.8 + 0.4 * rng.NextDouble()), P99LatencyMs = ms * 3, MaxLatencyMs = ms * 6,
                    });
        r.Sizing.AchievedTransactionalIops = TransactionalIops.Achieved(r);
        r.Verdict.Result = "Pass";
        _results = r;
    }

    [Benchmark(Description = "All reports, 24 h at 15 s, 8 instances")]
    public long AllReports()
    {
        var o = ReportOptions.Default;
        long chars = 0;
        chars += TextReport.Render(_results, o).Length;
        chars += HtmlReport.Render(_results, o).Length;
        chars += XmlReport.Render(_results, o).Length;
        chars += CsvReport.Render(_results).Length;
        chars += PdhCsvLog.Render(_results, TimeZoneInfo.Utc).Length;
        chars += EsrpSummary.From(new[] { _results }).RenderText().Length;
        return chars;
    }

    [Benchmark]
    public int Html() => HtmlReport.Render(_results).Length;

    [Benchmark]
    public int PdhCsv() => PdhCsvLog.Render(_results, TimeZoneInfo.Utc).Length;

    [Benchmark]
    public int Align() => ResultsMerge.AlignTimeSeries(new[] { _results }).Count;

    [Benchmark]
    public int Text() => TextReport.Render(_results).Length;

    [Benchmark]
    public int Xml() => XmlReport.Render(_results).Length;

    [Benchmark]
    public int Csv() => CsvReport.Render(_results).Length;
}
