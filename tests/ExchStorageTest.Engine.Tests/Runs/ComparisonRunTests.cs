using System.Text.Json;
using System.Text.RegularExpressions;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Tests.Cli;
using ExchStorageTest.Engine.Tests.Io;

namespace ExchStorageTest.Engine.Tests.Runs;

/// <summary>
/// Two storage options evaluated with one profile: a plain folder on this machine's disk against a disk
/// whose every read and write takes 10 ms (nbdkit's delay filter, through nbdfuse, under ext4 on a
/// direct-I/O loop device). The engine's comparison names each run by its label, and its deltas are the
/// difference of what the two results files measured.
/// </summary>
public class ComparisonRunTests
{
    private const double DelayMs = 10;

    private static TestResults Run(TestFolder folder, string databases, string results)
    {
        var request = new EngineRequest
        {
            Command = "run",
            TestType = TestType.Performance,
            DurationSeconds = 4,
            WarmupSeconds = 1,
            SampleIntervalSeconds = 1,
            ThreadCount = 2,
            OutputPath = folder.Combine(results),
            Profile = new MailboxProfile
            {
                Name = "Lab", MailboxCount = 20, IopsPerMailbox = 0.5, MailboxSizeMB = 1, DatabaseCount = 1, CopiesPerDatabase = 1,
                DatabasePaths = new[] { databases }, MinimumDatabaseCacheMB = 4, MaximumDatabaseCacheMB = 8,
            },
        };
        var r = TestRunner.Run(TestPlanner.Plan(request), EventWriter.Null, CancellationToken.None);
        Assert.Equal("Complete", r.Completion);
        return r;
    }

    [NbdkitLoopFact]
    public void A_slow_disk_against_a_plain_folder_shows_the_delay_in_the_deltas_and_on_every_chart()
    {
        using var folder = new TestFolder("cmp");
        var plain = Run(folder, folder.Sub("plain"), "plain-results");
        TestResults slow;
        using (var nbd = new NbdFuseDisk(folder, "--filter=delay", "memory", "256M", $"rdelay={DelayMs}ms", $"wdelay={DelayMs}ms"))
        using (var fs = new LoopFileSystem(folder, backingFile: nbd.FilePath, name: "slow"))
            slow = Run(folder, Directory.CreateDirectory(fs.Combine("db")).FullName, "slow-results");

        string request = JsonSerializer.Serialize(new
        {
            protocol = 1,
            command = "report",
            formats = new[] { "Html" },
            outputPath = folder.Sub("comparison"),
            runs = new[]
            {
                new { label = "plain folder", paths = new[] { plain.SavedPath! } },
                new { label = "10 ms disk", paths = new[] { Path.GetDirectoryName(slow.SavedPath!)! } },
            },
        });
        var (exit, events) = ProcessProtocolTests.RunEngine(request);
        Assert.Equal(0, exit);
        // One report per run, then the comparison of the two.
        Assert.Equal(2, events.Count(e => e.GetProperty("type").GetString() == "report"));
        var comparison = events.Single(e => e.GetProperty("type").GetString() == "comparison");
        Assert.Equal(new[] { "plain folder", "10 ms disk" }, comparison.GetProperty("labels").EnumerateArray().Select(l => l.GetString()));

        var rows = comparison.GetProperty("rows").EnumerateArray().ToDictionary(r => r.GetProperty("metric").GetString()!);
        foreach (var (metric, stream) in new[] { ("DatabaseRead mean latency (ms)", StreamNames.DatabaseRead), ("LogWrite mean latency (ms)", StreamNames.LogWrite) })
        {
            var row = rows[metric];
            var values = row.GetProperty("values").EnumerateArray().Select(v => v.GetDouble()).ToList();
            // The values are the results files' own merged figures ...
            Assert.Equal(plain.Instances.Single().Stream(stream)!.LatencyMs.Mean, values[0], 9);
            Assert.Equal(slow.Instances.Single().Stream(stream)!.LatencyMs.Mean, values[1], 9);
            // ... the slow disk's include its delay, and the deltas are their difference.
            Assert.True(values[1] >= DelayMs, $"{metric} on the delay disk: {values[1]} ms");
            Assert.True(values[1] > values[0], $"{metric}: {values[1]} ms on the delay disk, {values[0]} ms in the folder");
            Assert.Equal(values[1] - values[0], row.GetProperty("deltaAbsolute")[1].GetDouble(), 9);
            Assert.Equal((values[1] - values[0]) / values[0] * 100, row.GetProperty("deltaPercent")[1].GetDouble(), 6);
            Assert.Equal("Lower", row.GetProperty("better").GetString());
        }

        // The page: both runs on every chart, named by their labels.
        string page = comparison.GetProperty("files").EnumerateArray()
            .Select(f => f.GetString()!).Single(f => Path.GetFileName(f).StartsWith("Comparison_", StringComparison.Ordinal) && f.EndsWith(".html", StringComparison.Ordinal));
        string html = File.ReadAllText(page);
        var charts = Regex.Matches(html, "<svg class=\"chart\".*?</svg>", RegexOptions.Singleline).Select(m => m.Value).ToList();
        Assert.True(charts.Count >= 4, $"{charts.Count} charts");
        foreach (var chart in charts)
        {
            Assert.Equal(2, Regex.Matches(chart, "<polyline").Count);
            Assert.Contains(">plain folder</text>", chart);
            Assert.Contains(">10 ms disk</text>", chart);
        }
    }
}
