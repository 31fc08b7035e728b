using ExchStorageTest.Engine.Analysis;
using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Protocol;
using ExchStorageTest.Engine.Reports;
using ExchStorageTest.Engine.Results;
using ExchStorageTest.Engine.Runs;
using ExchStorageTest.Engine.Verdict;
using ExchStorageTest.Engine.Tests.Io;
using Xunit.Abstractions;
using static ExchStorageTest.Engine.Tests.FailureMode.FaultRunFixture;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>
/// A reseed during the load (docs/failure-mode.md): the seed's pacing and pieces, its impact read from recorded
/// one-second series, the window's summary and the reports that say it, the planner's refusals, and one short real run
/// that seeds a database onto a spare on another volume (/dev/shm) while the load runs.
/// </summary>
public sealed class ReseedTests : IDisposable
{
    private readonly TestFolder _dir = new("reseed");
    private readonly ITestOutputHelper _out;

    public ReseedTests(ITestOutputHelper output) => _out = output;

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void The_seed_is_paced_to_its_target_rate_in_whole_pieces_and_a_shorter_last_one()
    {
        Assert.Equal(0, ReseedStream.DueSeconds(0, ReseedRules.TargetBytesPerSecond));
        Assert.Equal(1.0, ReseedStream.DueSeconds(125_000_000, ReseedRules.TargetBytesPerSecond), 9);
        Assert.Equal(2.0, ReseedStream.DueSeconds(250_000_000, ReseedRules.TargetBytesPerSecond), 9);
        long total = 3L * ReseedRules.IoSizeBytes + 32768;
        Assert.Equal(ReseedRules.IoSizeBytes, ReseedStream.PieceBytes(0, total, ReseedRules.IoSizeBytes));
        Assert.Equal(32768, ReseedStream.PieceBytes(3L * ReseedRules.IoSizeBytes, total, ReseedRules.IoSizeBytes));
        Assert.Equal(0, ReseedStream.PieceBytes(total, total, ReseedRules.IoSizeBytes));
        // The model's figures: 1 Gb/s line rate, 256 KiB pieces.
        Assert.Equal(119.209, Math.Round(ReseedRules.TargetBytesPerSecond / 1048576.0, 3));
        Assert.Equal(262144, ReseedRules.IoSizeBytes);
    }

    private (string Source, ReseedRun Record) Stream(long bytes)
    {
        string source = _dir.Combine("source.edb");
        if (bytes > 0) File.WriteAllBytes(source, new byte[bytes]);
        return (source, new ReseedRun { SourceFile = source, TargetFile = Path.Combine(_dir.Sub("Spare"), ReseedRules.TargetFileName("t1")) });
    }

    [Fact]
    public void A_seed_copies_every_byte_and_removes_its_copy_and_one_whose_window_ended_or_whose_source_failed_says_so()
    {
        var (source, record) = Stream(ReseedRules.IoSizeBytes * 3L + 32768);
        using (var seed = ReseedStream.Start(record, source, DateTime.UtcNow.AddMinutes(10), allowBuffered: true))
        {
            Assert.True(seed.WaitForEnd(TimeSpan.FromMinutes(5)));
            var r = seed.Finish();
            Assert.Equal(("Completed", true, null), (r.EndedBy, r.Completed, r.Error));
            Assert.Equal((ReseedRules.IoSizeBytes * 3L + 32768, ReseedRules.IoSizeBytes * 3L + 32768), (r.BytesToCopy, r.BytesSeeded));
        }
        Assert.Empty(Directory.GetFileSystemEntries(Path.GetDirectoryName(record.TargetFile)!));

        record = new ReseedRun { SourceFile = source, TargetFile = record.TargetFile };
        using (var seed = ReseedStream.Start(record, source, DateTime.UtcNow.AddSeconds(-1), allowBuffered: true))
        {
            Assert.True(seed.WaitForEnd(TimeSpan.FromMinutes(5)));
            var r = seed.Finish();
            Assert.Equal(("WindowEnded", false, 0L), (r.EndedBy, r.Completed, r.BytesSeeded));
        }
        Assert.Empty(Directory.GetFileSystemEntries(Path.GetDirectoryName(record.TargetFile)!));

        // A file of the same name that the seed did not create is neither overwritten nor removed.
        File.WriteAllText(record.TargetFile, "not ours");
        record = new ReseedRun { SourceFile = source, TargetFile = record.TargetFile };
        using (var seed = ReseedStream.Start(record, source, DateTime.UtcNow.AddMinutes(10), allowBuffered: true))
        {
            var r = seed.Finish();
            Assert.Equal(("Error", 0L), (r.EndedBy, r.BytesSeeded));
            Assert.StartsWith("The reseed stopped after 0 bytes: ", r.Error, StringComparison.Ordinal);
        }
        Assert.Equal("not ours", File.ReadAllText(record.TargetFile));
    }

    private static ReseedRun Seed(double start = 60, double seconds = 19.5) => new()
    {
        SourceFile = "/mnt/db/DB1/Instance1.edb", SourceVolume = Db, TargetFile = "/mnt/spare/ExchStorageTest-Reseed-fm-test.edb", TargetVolume = "/mnt/spare",
        IoSizeBytes = ReseedRules.IoSizeBytes, TargetMBPerSecond = 119.209, BytesToCopy = 2_000L << 20, BytesSeeded = 2_000L << 20,
        StartedUtc = Start.AddSeconds(start), EndedUtc = Start.AddSeconds(start + seconds), StartSeconds = start, Seconds = seconds,
        AchievedMBPerSecond = 102.564, Completed = true, EndedBy = "Completed", ReadLatencyMs = 1.5, WriteLatencyMs = 0.8,
    };

    [Fact]
    public void The_impact_is_each_volume_s_latency_while_the_seed_ran_against_the_pre_fault_baseline()
    {
        var r = Run();
        var impacts = ReseedImpact.Of(r.FailureMode!.VolumeSeries, r.FailureMode.Window!, Seed());
        // The seed ran 60-79.5 s: the volume's seconds 60-79 (60-64 completed nothing: 0 IOPS, no latency), against 0-59 s.
        var db = impacts[0];
        Assert.Equal((Db, "Source"), (db.Volume, db.Role));
        Assert.Equal((150.0, 9.0), (db.BaselineIops, db.BaselineLatencyMs));
        Assert.Equal(100.0, db.ReseedIops);
        Assert.Equal((5 * 100 * 30 + 10 * 150 * 9) / 2000.0, db.ReseedLatencyMs, 3);
        Assert.Equal(58.3, db.LatencyChangePercent);
        var log = impacts[1];
        Assert.Equal((Log, "Other", 30.0, 2.0, 30.0, 2.0, 0.0), (log.Volume, log.Role, log.BaselineIops, log.BaselineLatencyMs, log.ReseedIops, log.ReseedLatencyMs, log.LatencyChangePercent));
        Assert.Equal("/mnt/db (the seed's source): 9 ms in the baseline, 14.25 ms during the reseed (+58.3%), 150 to 100 IOPS", ReseedImpact.Line(db));
    }

    [Fact]
    public void The_window_is_judged_by_its_own_rules_and_its_summary_and_reports_say_what_the_seed_did()
    {
        var r = Run();
        var seed = Seed();
        seed.Volumes = ReseedImpact.Of(r.FailureMode!.VolumeSeries, r.FailureMode.Window!, seed);
        r.FailureMode.Reseed = seed;
        RunJudgement.Judge(r, Thresholds.Strict(), 20);
        var f = r.FailureMode.Fault!;
        Assert.Equal(FaultOutcomes.Tolerated, f.Result);
        Assert.Equal("Pass, fault tolerated: stalled 5.0 s on /mnt/db, recovered in 9 s, no errors, reseeded 2,000.0 of 2,000.0 MB in 19.5 s at 102.6 MB/s (target 119.2 MB/s), complete", f.Summary);

        string text = TextReport.Render(r);
        Assert.Contains("\nReseed\n", text, StringComparison.Ordinal);
        Assert.Contains("Source                  /mnt/db/DB1/Instance1.edb (on /mnt/db)", text, StringComparison.Ordinal);
        Assert.Contains("Active copies' latency  /mnt/db (the seed's source): 9 ms in the baseline, 14.25 ms during the reseed (+58.3%)", text, StringComparison.Ordinal);
        Assert.Contains("Active copies' latency  /mnt/log (another volume): 2 ms in the baseline, 2 ms during the reseed (0%)", text, StringComparison.Ordinal);
        string xml = XmlReport.Render(r);
        Assert.Contains("<reseed summary=\"reseeded 2,000.0 of 2,000.0 MB in 19.5 s at 102.6 MB/s (target 119.2 MB/s), complete\"", xml, StringComparison.Ordinal);
        Assert.Contains("<volume name=\"/mnt/db\" role=\"Source\" baseline-iops=\"150", xml, StringComparison.Ordinal);
        Assert.Contains("latency-change-percent=\"58.3", xml, StringComparison.Ordinal);
        string html = HtmlReport.Render(r);
        Assert.Contains("<legend>Reseed</legend>", html, StringComparison.Ordinal);
        Assert.Contains("not complete when the fault window ended", ReseedImpact.Line(new ReseedRun { EndedBy = "WindowEnded" }), StringComparison.Ordinal);
    }

    private EngineRequest Request(string spare, double? faultAt = 15)
    {
        var r = _dir.Request(TestType.Performance, 22, threads: 2, databases: 1, copies: 1);
        r.FaultAtSeconds = faultAt;
        r.FaultLengthSeconds = faultAt is null ? null : 6;
        r.ReseedPath = spare;
        return r;
    }

    [Fact]
    public void A_reseed_that_cannot_run_as_declared_is_refused_before_anything_is_written()
    {
        string spare = _dir.Sub("Spare");
        _ = Request(spare); // makes the profile's database folder
        var before = Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories);
        void Refused(EngineRequest request, string code, string named)
        {
            var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(request));
            Assert.Equal(code, ex.Code);
            Assert.Contains(named, ex.Message, StringComparison.Ordinal);
        }
        Refused(Request(spare, faultAt: null), ErrorCodes.ReseedPathInvalid.Code, "ReseedPath needs FaultAt");
        Refused(Request(_dir.Combine("none")), ErrorCodes.ReseedPathNotFound.Code, _dir.Combine("none"));
        string file = _dir.Combine("a-file");
        File.WriteAllText(file, "x");
        Refused(Request(file), ErrorCodes.ReseedPathInvalid.Code, "is a file");
        File.Delete(file);
        // The databases' own volume is no spare.
        Refused(Request(spare), ErrorCodes.ReseedPathInvalid.Code, "which the run's databases and logs use");
        Assert.Equal(before, Directory.GetFileSystemEntries(_dir.Path, "*", SearchOption.AllDirectories));

        Assert.Null(ReseedPlan.SpaceShort(1L << 30, 2L << 30));
        Assert.Contains("has 1,073,741,824 bytes free; a copy of the database needs 1,073,741,824 bytes plus", ReseedPlan.SpaceShort(1L << 30, 1L << 30));
    }

    [ShmFact]
    public void A_spare_in_memory_is_refused_unless_buffered_I_O_is_allowed()
    {
        string spare = Path.Combine("/dev/shm", "exst-spare-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(spare);
        try
        {
            var ex = Assert.Throws<EngineException>(() => TestPlanner.Plan(Request(spare)));
            Assert.Equal(ErrorCodes.ReseedPathInvalid.Code, ex.Code);
            Assert.Empty(Directory.GetFileSystemEntries(spare));
        }
        finally { Directory.Delete(spare, recursive: true); }
    }

    [ShmFact]
    public void A_short_run_seeds_a_whole_database_onto_a_spare_volume_during_its_window_and_judges_it_apart()
    {
        string spare = Path.Combine("/dev/shm", "exst-spare-" + Guid.NewGuid().ToString("N")[..8]);
        Directory.CreateDirectory(spare);
        try
        {
            var request = Request(spare);
            // The spare is memory (tmpfs): allowed buffered for the rig; the databases stay on direct I/O.
            request.AllowBufferedIo = true;
            var plan = TestPlanner.Plan(request);
            var r = TestRunner.Run(plan, EventWriter.Null, CancellationToken.None);

            Assert.Equal(Completions.Complete, r.Completion);
            var seed = Assert.IsType<ReseedRun>(r.FailureMode!.Reseed);
            foreach (var v in seed.Volumes) _out.WriteLine(ReseedImpact.Line(v));
            _out.WriteLine(r.FailureMode.Fault!.Summary);
            Assert.True(seed.Completed, seed.Error ?? seed.EndedBy);
            Assert.Equal("Completed", seed.EndedBy);
            Assert.Null(seed.Error);
            Assert.Equal(plan.Instances[0].DatabaseFile, seed.SourceFile);
            Assert.Equal(Path.Combine(spare, ReseedRules.TargetFileName(plan.TestId)), seed.TargetFile);
            Assert.True(seed.BytesToCopy >= plan.Instances[0].DatabaseSizeBytes);
            Assert.Equal(seed.BytesToCopy, seed.BytesSeeded);
            Assert.InRange(seed.StartSeconds, 14.9, 16);
            // Paced: never faster than the target, the first piece aside (it starts at once).
            Assert.True(seed.AchievedMBPerSecond <= seed.TargetMBPerSecond * seed.BytesToCopy / (seed.BytesToCopy - ReseedRules.IoSizeBytes) + 0.01,
                $"{seed.AchievedMBPerSecond} MB/s against {seed.TargetMBPerSecond}");
            // The copy is the run's own and is gone with it.
            Assert.Empty(Directory.GetFileSystemEntries(spare));
            var source = Assert.Single(seed.Volumes, v => v.Role == "Source");
            Assert.Equal(seed.SourceVolume, source.Volume);
            Assert.True(source.BaselineIops > 0);
            // The window's own rules and the steady state's, as every failure-mode window.
            Assert.NotNull(r.FailureMode.SteadyState);
            Assert.Contains("reseeded ", r.FailureMode.Fault.Summary, StringComparison.Ordinal);
            Assert.Contains(r.TestLog, l => l.Message.StartsWith("Reseed: reseeded ", StringComparison.Ordinal));
            Assert.Equal(seed.BytesSeeded, ResultsFile.Load(r.SavedPath!).FailureMode!.Reseed!.BytesSeeded);
        }
        finally { Directory.Delete(spare, recursive: true); }
    }
}
