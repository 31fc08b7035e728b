using System.Text.Json;
using System.Text.Json.Nodes;
using ExchStorageTest.Engine.Load.StreamMix;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Storage;
using ExchStorageTest.Engine.Tests.Cli;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Faults;

/// <summary>Messages that say what is wrong, and results that say what ran.</summary>
public class MessageTests : IDisposable
{
    private readonly TestFolder _dir = new("msg");

    private EngineRequest Tiny(string dbRoot) => new()
    {
        Command = "run", DurationSeconds = 2, SampleIntervalSeconds = 1, WarmupSeconds = 0, ThreadCount = 2, OutputPath = _dir.Combine("Results"),
        Profile = new MailboxProfile
        {
            Name = "Tiny", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 1, DatabaseCount = 1,
            DatabasePaths = new[] { dbRoot }, MinimumDatabaseCacheMB = 2, MaximumDatabaseCacheMB = 4,
        },
    };

    [RootFact]
    public void A_block_size_the_sectors_do_not_allow_is_refused_by_the_plan_naming_both_sizes()
    {
        using var fs = new LoopFileSystem(_dir, sizeMiB: 32, sectorBytes: 4096);
        var spec = new StreamSpec { Name = "odd", Preset = "Custom", BlockSizeBytes = 1536, Path = fs.Combine("s.dat"), FileSizeBytes = 4 << 20 };
        var ex = Assert.Throws<EngineException>(() => StreamMixPlan.From(new EngineRequest { Command = "streams", Streams = { spec }, DurationSeconds = 1 }));

        Assert.Equal("StreamBlockSizeMisaligned", ex.Code);
        Assert.True(ex.IsRefusal);
        Assert.Contains("1536", ex.Message, StringComparison.Ordinal);
        Assert.Contains("4096-byte sectors", ex.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(spec.Path));
    }

    [Fact]
    public void Log_corruption_names_the_stored_and_computed_checksums()
    {
        string db = _dir.Sub("Db");
        TestRunner.Run(TestPlanner.Plan(Tiny(db)), EventWriter.Null, CancellationToken.None);
        string logs = Path.Combine(db, "DB1", "Logs");
        int damaged = 0;
        foreach (var log in Directory.GetFiles(logs, "E00*.log"))
        {
            var bytes = File.ReadAllBytes(log);
            if (LogFormat.TryReadFileHeader(bytes) is not { Generation: > 0 }) continue;
            bytes[LogFormat.FileHeaderBytes + 200] ^= 0xFF; // inside the first block's records
            File.WriteAllBytes(log, bytes);
            damaged++;
        }
        Assert.True(damaged > 0, "no log generation was written");

        var result = ChecksumVerifier.Verify(Array.Empty<string>(), new[] { logs }, EventWriter.Null, CancellationToken.None);
        Assert.Equal(damaged, result.BadLogs);
        Assert.All(result.Problems, p => Assert.Matches(@"checksum mismatch in block \d+ of \d+ bytes \(stored 0x[0-9A-F]{8}, computed 0x[0-9A-F]{8}\)", p));
    }

    [Fact]
    public void Streams_keep_the_test_id_and_report_the_IOPS_that_ran()
    {
        var request = new JsonObject
        {
            ["protocol"] = 1, ["command"] = "streams", ["testId"] = "Raw-7", ["durationSeconds"] = 2, ["sampleIntervalSeconds"] = 1,
            ["streams"] = new JsonArray(new JsonObject { ["name"] = "r", ["preset"] = "Random32K", ["queueDepth"] = 2, ["path"] = _dir.Combine("r.dat"), ["fileSizeBytes"] = 8 << 20 }),
        };
        var (exit, events) = ProcessProtocolTests.RunEngine(request.Json());

        Assert.Equal(0, exit);
        var result = events.Single(e => e.GetProperty("type").GetString() == "result");
        Assert.Equal("Raw-7", result.GetProperty("testId").GetString());
        // Named as Jetstress names its files (kind and local start time); the test id is in the file, not its name.
        string saved = result.GetProperty("resultsPath").GetString()!;
        Assert.Matches(@"^Streams(_\d+){6}\.json$", Path.GetFileName(saved));
        Assert.Contains("\"testId\": \"Raw-7\"", File.ReadAllText(saved), StringComparison.Ordinal);
        var streams = result.GetProperty("streams").EnumerateArray().ToList();
        double streamIops = streams.Sum(s => s.GetProperty("iops").GetDouble());
        Assert.True(streamIops > 0);
        // Each stream's IOPS is rounded to 0.1 in the event, the total to 0.001: they agree within the streams' rounding.
        Assert.Equal(streamIops, result.GetProperty("achievedIops").GetDouble(), 0.05 * streams.Count + 0.001);
    }

    [LinuxFact]
    public void A_symbolic_link_to_a_database_of_ours_is_recognised_as_ours()
    {
        string a = _dir.Sub("A");
        TestRunner.Run(TestPlanner.Plan(Tiny(a)), EventWriter.Null, CancellationToken.None);
        string b = _dir.Sub("B");
        Directory.CreateDirectory(Path.Combine(b, "DB1"));
        File.CreateSymbolicLink(Path.Combine(b, "DB1", TestPlan.DatabaseFileName(1)), Path.Combine(a, "DB1", TestPlan.DatabaseFileName(1)));

        var plan = TestPlanner.Plan(Tiny(b));
        var prepared = DatabaseSet.Prepare(plan, EventWriter.Null, _ => { }, CancellationToken.None);
        Assert.False(prepared[0].Created); // re-used, not refused as foreign
    }

    [Fact]
    public void Report_on_a_folder_renders_the_good_results_and_names_the_damaged_one()
    {
        string db = _dir.Sub("Db");
        var r = TestRunner.Run(TestPlanner.Plan(Tiny(db)), EventWriter.Null, CancellationToken.None);
        string folder = Path.GetDirectoryName(r.SavedPath)!;
        string damaged = Path.Combine(folder, "damaged.json");
        File.WriteAllText(damaged, File.ReadAllText(r.SavedPath!)[..600]); // schema marker present, JSON cut off

        var (exit, events) = ProcessProtocolTests.RunEngine($"{{\"protocol\":1,\"command\":\"report\",\"paths\":[{JsonSerializer.Serialize(folder)}]}}");
        Assert.Equal(0, exit);
        var report = events.Single(e => e.GetProperty("type").GetString() == "report");
        Assert.Equal(r.TestId, Assert.Single(report.GetProperty("testIds").EnumerateArray()).GetString());
        Assert.Contains(events, e => e.GetProperty("type").GetString() == "log" && e.GetProperty("level").GetString() == "warning"
            && e.GetProperty("message").GetString()!.Contains(damaged, StringComparison.Ordinal) && e.GetProperty("message").GetString()!.Contains("ResultsMalformed", StringComparison.Ordinal));
    }

    public void Dispose() => _dir.Dispose();
}
