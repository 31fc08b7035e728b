using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Tests.Io;
using ExchStorageTest.Engine.Tests.Runs;
using Xunit.Abstractions;

namespace ExchStorageTest.Engine.Tests.Analysis;

/// <summary>
/// Storage that changes mid-run, for real: an nbdkit RAM disk behind its rate filter (ext4 on a direct-I/O loop
/// device over nbdfuse), whose bandwidth limit is read from a file nbdkit re-reads while it serves; the limit, far under
/// what the rig carries, is what sets the run's level (not the machine's load). A closed-loop
/// Performance run measures while the test lowers the limit part-way through: the run's results, test log and
/// reports must name the fall near where it was made. The same disk left alone must show no step in the levels its rate sets.
/// </summary>
public class ThrottledDiskRigTests
{
    private const double MeasureSeconds = 24;
    /// <summary>When the limit falls, in seconds after measuring began (about the middle of the window).</summary>
    private const double ThrottleAfterSeconds = 12;
    /// <summary>
    /// 8 MB/s each way, about 250 pages of 32 KiB a second: far under what the rig carries even on a busy machine
    /// (thousands of IOPS unlimited), so the limit, not the host's CPUs, sets the level and a busy machine makes no step.
    /// </summary>
    private const string OpenRate = "64M";
    /// <summary>
    /// The rate filter's credit, in seconds of its rate, that a disk saves up while idle (nbdkit's default is 2 s: 16 MB here).
    /// With it the window began on credit — reads at 422 a second in its first sample, 250, then the rate's 184 — and the log
    /// writes' latency rose as it ran out, like a cloud disk's when its burst credits end: under the suite's load that rise once
    /// came 8 s in and read as a step (20 to 35 ms) in the run left alone. A quarter of a second (2 MB, 30 times the largest
    /// request) is spent within the warm-up: the reads hold the rate's level from the first sample.
    /// </summary>
    private const double BurstSeconds = 0.25;
    /// <summary>A quarter of it: the IOPS fall 90% or more (measured 91-93%) and stay.</summary>
    private const string ThrottledRate = "16M";

    private readonly ITestOutputHelper _out;

    public ThrottledDiskRigTests(ITestOutputHelper output) => _out = output;

    private TestResults Run(TestFolder folder, string rateFile, Action? whenMeasuring)
    {
        using var nbd = new NbdFuseDisk(folder, "--filter=rate", "memory", "1G", $"rate={OpenRate}", $"rate-file={rateFile}", $"burstiness={BurstSeconds}");
        using var fs = new LoopFileSystem(folder, backingFile: nbd.FilePath, name: "rated");
        var request = folder.Request(TestType.Performance, MeasureSeconds, threads: 4, databases: 1, copies: 1);
        request.Profile.DatabasePaths = new[] { Directory.CreateDirectory(fs.Combine("db")).FullName };
        var events = whenMeasuring is null ? EventWriter.Null : new EventWriter(new TestTypeRunTests.NotifyingStream(whenMeasuring, "\"phase\":\"Measuring\"", 1));
        var r = TestRunner.Run(TestPlanner.Plan(request), events, CancellationToken.None);
        foreach (var s in r.SeriesAnalysis?.Series ?? new List<SeriesSettling>())
            _out.WriteLine($"{s.Series}: {s.Samples} samples, mean {s.Mean:F1}, noise {s.Noise:F2}, settled at {s.SettledAtSeconds} s: {s.Message}");
        foreach (var s in r.SeriesAnalysis?.Steps ?? new List<SeriesStep>()) _out.WriteLine($"{s.TimeUtc:HH:mm:ss.fff} {s.Message}");
        return r;
    }

    /// <summary>Replaces the rate file atomically, as nbdkit asks.</summary>
    private static void SetRate(string rateFile, string rate)
    {
        string temporary = rateFile + ".new";
        File.WriteAllText(temporary, rate + "\n");
        File.Move(temporary, rateFile, overwrite: true);
    }

    [NbdkitLoopFact]
    public void A_disk_throttled_mid_run_shows_the_fall_within_two_samples_of_when_it_was_made()
    {
        using var folder = new TestFolder("throttle");
        string rateFile = folder.Combine("rate");
        DateTime? throttledAt = null;
        var throttle = new Thread(() => { }); // replaced when measuring begins
        var r = Run(folder, rateFile, () =>
        {
            throttle = new Thread(() =>
            {
                Thread.Sleep(TimeSpan.FromSeconds(ThrottleAfterSeconds));
                SetRate(rateFile, ThrottledRate);
                throttledAt = DateTime.UtcNow;
            }) { IsBackground = true };
            throttle.Start();
        });
        throttle.Join();
        Assert.NotNull(throttledAt);
        _out.WriteLine($"throttled at {throttledAt:HH:mm:ss.fff}, measuring {r.Timeline.CollectionStartUtc:HH:mm:ss.fff} to {r.Timeline.CollectionEndUtc:HH:mm:ss.fff}");

        var fall = Assert.Single(r.SeriesAnalysis!.Steps, s => s.Series == SeriesFindings.TransactionalIops);
        Assert.True(fall.Adverse);
        Assert.True(fall.Stayed);
        Assert.True(fall.ChangePercent <= -50, fall.Message);
        // Within two samples (1 s each) of the change; nbdkit takes up to a moment to re-read its file.
        double offBy = (fall.TimeUtc - throttledAt!.Value).TotalSeconds;
        Assert.InRange(offBy, -2 * r.Settings.SampleIntervalSeconds, 2 * r.Settings.SampleIntervalSeconds + 1);
        // The latency rose with it (a closed loop: the same sessions wait longer for each I/O).
        Assert.Contains(r.SeriesAnalysis.Steps, s => s.Series == SeriesFindings.DatabaseReadLatency && s.Adverse);
        // The test log and the reports carry the finding.
        Assert.Contains(r.TestLog, l => l.Message == fall.Message);
        Assert.Contains(fall.Message, Engine.Reports.TextReport.Render(r));
        Assert.Contains("<g class=\"mark\">", Engine.Reports.HtmlReport.Render(r));
    }

    /// <summary>
    /// Left alone, the levels the disk's rate sets — transactional IOPS and the database reads' latency — show no step.
    /// The log writes' latency is not one of them here: each 4-20 KB log write waits at the rate filter behind whatever
    /// database writes and maintenance reads (256 KB) are queued before it, so its level follows the other streams' mix and
    /// the pace of the FUSE server on a busy machine (in a CI run it rose 81%, 21 to 38 ms, 9 s into the window and
    /// stayed, and 64% in a run beside one, with the IOPS and the reads flat both times), not the disk's bandwidth.
    /// </summary>
    [NbdkitLoopFact]
    public void The_same_disk_left_alone_shows_no_step()
    {
        using var folder = new TestFolder("steady");
        var r = Run(folder, folder.Combine("rate"), whenMeasuring: null);
        Assert.NotNull(r.SeriesAnalysis);
        Assert.Equal(3, r.SeriesAnalysis!.Series.Count);
        var steps = r.SeriesAnalysis.Steps.Where(s => s.Series != SeriesFindings.LogWriteLatency).ToList();
        Assert.True(steps.Count == 0, string.Join(" ", steps.Select(s => s.Message)));
    }
}
