using ExchStorageTest.Engine.Planning;
using ExchStorageTest.Engine.Results;

namespace ExchStorageTest.Engine.Tests.FailureMode;

/// <summary>
/// A synthetic Performance run of 180 s measured in 15 s samples, one database on /mnt/db and its logs on /mnt/log, with
/// a declared fault window of 60 s at 60 s (the samples' forced edges at 60 and 120 s): /mnt/db completes nothing for
/// 5 s from 60 s (a stall record), then 5 slower seconds (100 IOPS at 30 ms against a 150 IOPS, 9 ms baseline). The
/// 15 s sample that holds the stall averages 400 ms for database reads, over the 100 ms maximum; the stored whole-window
/// figures (what the live run measured) hold it too.
/// </summary>
internal static class FaultRunFixture
{
    public static readonly DateTime Start = new(2026, 1, 1, 0, 0, 0, DateTimeKind.Utc);
    public const string Db = "/mnt/db";
    public const string Log = "/mnt/log";

    public static TestResults Run(bool declared = true)
    {
        var r = new TestResults { TestId = "fm-test", TestType = TestType.Performance, Completion = Completions.Complete };
        r.Settings.DurationSeconds = 180;
        r.Settings.SampleIntervalSeconds = 15;
        r.Timeline.TestStartUtc = Start.AddMinutes(-5);
        r.Timeline.CollectionStartUtc = Start;
        r.Timeline.CollectionEndUtc = Start.AddSeconds(180);
        r.Timeline.TestEndUtc = Start.AddSeconds(185);
        r.Sizing.TargetTransactionalIops = 100;
        r.Environment.Volumes.Add(new VolumeReport { Path = "/mnt/db/DB1", MountPoint = Db });
        r.Environment.Volumes.Add(new VolumeReport { Path = "/mnt/log/Log1", MountPoint = Log });
        r.Instances.Add(new InstanceResult
        {
            Name = "Instance.1", Index = 1, DatabasePath = "/mnt/db/DB1/Instance1.edb", LogPath = "/mnt/log/Log1",
            Streams =
            {
                // The live run's whole-window figures: the stall's sample is in them.
                new StreamResult { Stream = StreamNames.DatabaseRead, Operations = 17_000, LatencyMs = new LatencySummary { Mean = 14 }, MaxSampleAverageLatencyMs = 400 },
                new StreamResult { Stream = StreamNames.DatabaseWrite, Operations = 8_500, LatencyMs = new LatencySummary { Mean = 5 }, MaxSampleAverageLatencyMs = 6 },
                new StreamResult { Stream = StreamNames.LogWrite, Operations = 5_400, LatencyMs = new LatencySummary { Mean = 2 }, MaxSampleAverageLatencyMs = 2 },
            },
            PageFaultStallsPerSecond = 1.67, MaximumPageFaultStallsPerSecond = 20,
        });
        r.Sizing.AchievedTransactionalIops = 141.7;
        for (int end = 15; end <= 180; end += 15)
        {
            bool stallSample = end == 75;
            void Add(string stream, double iops, double ms) => r.TimeSeries.Add(new SamplePoint
            {
                TimeUtc = Start.AddSeconds(end), ElapsedSeconds = end, Instance = 1, Stream = stream, OperationsPerSecond = iops, AverageBytes = 32768, AverageLatencyMs = ms, MaxLatencyMs = ms * 3,
            });
            Add(StreamNames.DatabaseRead, stallSample ? 60 : 100, stallSample ? 400 : 10);
            Add(StreamNames.DatabaseWrite, stallSample ? 30 : 50, 5);
            Add(StreamNames.LogWrite, 30, 2);
            r.InstanceSeries.Add(new InstanceSample { TimeUtc = Start.AddSeconds(end), ElapsedSeconds = end, Instance = 1, PageFaultStallsPerSecond = stallSample ? 20 : 0 });
        }
        var fm = new FailureModeResult { StallLimitSeconds = 20, StallDetectSeconds = 1 };
        for (int s = 0; s < 180; s++)
        {
            if (s is < 60 or >= 65) fm.VolumeSeries.Add(new VolumeSecond { Volume = Db, ElapsedSeconds = s, Operations = s is >= 65 and < 70 ? 100 : 150, AverageLatencyMs = s is >= 65 and < 70 ? 30 : 9, MaxLatencyMs = s == 65 ? 5012 : 25 });
            fm.VolumeSeries.Add(new VolumeSecond { Volume = Log, ElapsedSeconds = s, Operations = 30, AverageLatencyMs = 2, MaxLatencyMs = 4 });
        }
        fm.Stalls.Add(Stall(60, 5));
        if (declared) fm.Window = new FaultWindow { AtSeconds = 60, LengthSeconds = 60, StartUtc = Start.AddSeconds(60), EndUtc = Start.AddSeconds(120) };
        r.FailureMode = fm;
        return r;
    }

    /// <summary>The run with no declared window and clean whole-window figures (no stall sample in them).</summary>
    public static TestResults Undeclared(params (double At, double Length)[] stalls)
    {
        var r = Run(declared: false);
        r.Instances[0].Stream(StreamNames.DatabaseRead)!.MaxSampleAverageLatencyMs = 40;
        r.Instances[0].PageFaultStallsPerSecond = 0;
        r.FailureMode!.Stalls.Clear();
        foreach (var (at, length) in stalls) r.FailureMode.Stalls.Add(Stall(at, length));
        return r;
    }

    public static StallRecord Stall(double at, double length) => new()
    {
        Volume = Db, StartUtc = Start.AddSeconds(at), StartSeconds = at, LengthSeconds = length, InFlight = 32, LongestIoMs = length * 1000 + 12,
    };

    public static IoErrorRecord Error(double at) => new()
    {
        TimeUtc = Start.AddSeconds(at), Instance = "Instance.1", Stream = StreamNames.DatabaseRead, File = "/mnt/db/DB1/Instance1.edb",
        Offset = 65536, Length = 32768, ErrorCode = 5, ErrorName = "EIO", Message = "I/O failed with EIO.",
    };
}
